"""Every message the pages show, found where they are written (the templates, ``words.py``, the
words each Game event declares beside its class, and the refusals' sentences of
``service.domain.refusal_sentences``), and the catalogues brought in step with them.

``python -m service.web.messages`` adds each new message to every catalogue (English: itself;
Ukrainian and Russian: empty, to be translated) and drops the ones no page shows any more; the
translations already made stay. ``tests/web/test_catalogues.py`` fails while one is empty.
"""

import ast
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from service.domain.refusal_sentences import SENTENCES
from service.web.i18n import DEFAULT, LANGUAGES, LOCALES
from service.web.render import TEMPLATES, environment

# the code whose ``_("...")`` literals are messages of the pages
WORDS = (
    *(
        Path(__file__).parent / name
        for name in (
            *("words.py", "play_words.py", "rule_words.py", "errors.py"),
            *("figures.py", "bracket.py", "mao_words.py", "notice_words.py"),
        )
    ),
    Path(__file__).parents[1] / "projections" / "sheets.py",  # the score sheets both faces draw
)
# the domain's modules whose events declare their words: ``Declaration(..., words="...", official="...")``
EVENTS = tuple(Path(__file__).parents[1] / "domain" / name for name in ("events.py", "game.py"))
NOT_TRANSLATED = {"apidocs.html"}  # the API's documentation page is in English, as the API is


def template_messages() -> set[str]:
    env = environment()
    found: set[str] = set()
    for path in sorted(TEMPLATES.glob("*.html")):
        if path.name in NOT_TRANSLATED:
            continue
        # a method jinja2.ext.i18n adds to the environment at runtime: its types cannot know it
        for _, function, message in env.extract_translations(path.read_text()):  # type: ignore[attr-defined]
            # a message with values to fill in comes as (message, None)
            text = message[0] if isinstance(message, tuple) else message
            if function != "_" or not isinstance(text, str):
                raise ValueError(f"{path.name}: a message is _(a literal text), not {function}({message})")
            found.add(text)
    return found


def code_messages() -> set[str]:
    found: set[str] = set()
    for path in WORDS:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_":
                first = node.args[0]
                if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                    raise ValueError(f"{path.name} line {node.lineno}: a message is _(a literal text)")
                found.add(first.value)
    return found


def event_messages() -> set[str]:
    found: set[str] = set()
    for path in EVENTS:
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Declaration"
            ):
                for keyword in node.keywords:
                    if keyword.arg in ("words", "official"):
                        value = keyword.value
                        if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
                            raise ValueError(
                                f"{path.name} line {node.lineno}: an event's words are a literal text"
                            )
                        found.add(value.value)
    return found


def refusal_messages() -> set[str]:
    return set(SENTENCES.values())


def all_messages() -> set[str]:
    return template_messages() | code_messages() | event_messages() | refusal_messages()


def update(root: Path = LOCALES) -> dict[str, list[str]]:
    """Every catalogue in step with the pages; for each language, the messages still to translate."""
    wanted = sorted(all_messages())
    untranslated = {}
    for language in LANGUAGES:
        path = root / language / "LC_MESSAGES" / "messages.po"
        with path.open("rb") as po:
            old = read_po(po, locale=language)
        made = {str(m.id): str(m.string) for m in old if m.id}
        # the old header's date: a run that adds nothing changes nothing
        catalog = Catalog(locale=language, project="maumau", fuzzy=False, creation_date=old.creation_date)
        for message in wanted:
            catalog.add(message, message if language == DEFAULT else made.get(message, ""))
        with path.open("wb") as po:
            write_po(po, catalog, width=0, omit_header=False, sort_output=True)
        untranslated[language] = [m for m in wanted if not ((kept := catalog.get(m)) and kept.string)]
    return untranslated


if __name__ == "__main__":
    for language, missing in update().items():
        print(f"{language}: {len(missing)} to translate", *(f"  {m}" for m in missing), sep="\n")
