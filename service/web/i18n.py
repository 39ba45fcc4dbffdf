"""The pages' languages: English, Ukrainian and Russian, from message catalogues read at start.

The catalogues are the ``.po`` files under ``locales/<lang>/LC_MESSAGES/messages.po``, read with
Babel when the app is made (no compiled ``.mo`` beside them that could fall behind). English is
the language the templates are written in: its catalogue maps each message to itself, so that a
test can tell that every message of every template is in every catalogue.

The language of a request: ``?lang=`` (and the pages remember it in a cookie), else that cookie,
else the best match of ``Accept-Language``, else English.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po

LANGUAGES: tuple[str, ...] = ("en", "uk", "ru")
DEFAULT = "en"
LANGUAGE_COOKIE = "lang"
LOCALES = Path(__file__).parent / "locales"
# each language named in itself, for the switch on every page
NATIVE_NAMES: Mapping[str, str] = {"en": "English", "uk": "Українська", "ru": "Русский"}


@dataclass(frozen=True)
class Catalogue:
    language: str
    messages: Mapping[str, str]

    def gettext(self, message: str, **values: object) -> str:
        """The message in this language (the English text when it has no translation), filled in."""
        found = self.messages.get(message) or message
        return found.format(**values) if values else found


def read_catalogue(language: str, root: Path = LOCALES) -> Catalogue:
    with (root / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, locale=language)
    messages = {str(m.id): str(m.string) for m in catalog if m.id and isinstance(m.id, str) and m.string}
    return Catalogue(language, messages)


def read_catalogues(root: Path = LOCALES) -> dict[str, Catalogue]:
    return {language: read_catalogue(language, root) for language in LANGUAGES}


def accepted(header: str | None) -> list[str]:
    """The primary language tags of an ``Accept-Language`` header, the most wanted first."""
    wanted: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            wanted.append((-quality, index, tag.split("-")[0].lower()))
    return [tag for _, _, tag in sorted(wanted)]


def choose(asked: str | None, remembered: str | None, header: str | None) -> str:
    for language in (asked, remembered, *accepted(header)):
        if language in LANGUAGES:
            return language
    return DEFAULT


Translate = Callable[..., str]
