"""One way to answer with a page: the template, and what every page's template is given.

Every page gets its language's ``_``, the language switch, who is signed in (and the sign-out
form's token), the time-zone-aware ``when``, the card words and ``refusal_words``: a refusal's
sentence (``RuleError.sentence``) in the page's language. ``?lang=`` is remembered in a
cookie for a year.
"""

from datetime import datetime
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from babel.dates import format_datetime
from jinja2 import Environment, FileSystemLoader, select_autoescape
from litestar import Request
from litestar.datastructures import Cookie
from litestar.params import Parameter
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.response import Template
from litestar.template.config import TemplateConfig

from service.domain.roles import Actor
from service.domain.time_zone import DEFAULT_TIME_ZONE
from service.web import notice_words, rule_words, words
from service.web.i18n import LANGUAGE_COOKIE, LANGUAGES, NATIVE_NAMES, Catalogue, choose
from service.web.session import form_token, secure_cookie, signed_in_actor

TEMPLATES = Path(__file__).parent / "templates"
YEAR = 365 * 24 * 3600
Flag = Annotated[bool, Parameter()]  # a page's switch in its query: ?fragment=1, ?display=1


def environment() -> Environment:
    # the i18n extension only lets tests extract the messages: each page passes its own ``_``
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(default=True),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["card_symbol"] = words.card_symbol
    env.globals["card_suit"] = words.card_suit
    env.globals["suit_symbol"] = words.SUIT_SYMBOLS.get
    return env


def template_config() -> TemplateConfig[JinjaTemplateEngine]:
    return TemplateConfig(instance=JinjaTemplateEngine.from_environment(environment()))


class Page:
    """What a handler knows about the person asking: language, sign-in, and how to answer."""

    def __init__(self, request: Request[Any, Any, Any], actor: Actor | None) -> None:
        self.request = request
        self.actor = actor
        asked = request.query_params.get("lang")
        self.language = choose(
            asked, request.cookies.get(LANGUAGE_COOKIE), request.headers.get("accept-language")
        )
        self.remember = asked in LANGUAGES and asked != request.cookies.get(LANGUAGE_COOKIE)
        catalogues: dict[str, Catalogue] = request.app.state.catalogues
        self._ = catalogues[self.language].gettext

    def when(self, moment: datetime | None, zone: str = DEFAULT_TIME_ZONE) -> str:
        if moment is None:
            return ""
        return format_datetime(moment, "medium", tzinfo=ZoneInfo(zone), locale=self.language) + f" ({zone})"

    def switch(self) -> list[tuple[str, str, str]]:
        """Each language: its code, its own name, and this page's address in it."""
        query = {k: v for k, v in self.request.query_params.items() if k != "lang"}
        return [
            (
                language,
                NATIVE_NAMES[language],
                f"{self.request.url.path}?{urlencode({**query, 'lang': language})}",
            )
            for language in LANGUAGES
        ]

    def render(self, name: str, **context: Any) -> Template:
        _ = self._
        page = {
            "_": _,
            "lang": self.language,
            "languages": self.switch(),
            "actor": self.actor,
            "csrf": form_token(self.request) if self.actor is not None else None,
            "when": self.when,
            "card_name": lambda card: words.card_name(_, card),
            "suit_name": lambda suit: words.suit_name(_, suit),
            "actor_words": lambda role, name: words.actor_words(_, role, name),
            "refusal_words": lambda refusal: refusal.sentence(_),
            "ruleset_name": lambda name: rule_words.ruleset_name(_, name),
            "entrant_name": lambda entrant, names: rule_words.entrant_name(_, entrant, names),
            "notice_words": notice_words.patterns,  # a signed-in player's notifications (``notify.js``)
            "display": False,
        }
        cookies = []
        if self.remember:
            cookies.append(
                Cookie(
                    key=LANGUAGE_COOKIE,
                    value=self.language,
                    max_age=YEAR,
                    samesite="lax",
                    secure=secure_cookie(self.request),
                )
            )
        return Template(template_name=name, context={**page, **context}, cookies=cookies)


def wants_html(request: Request[Any, Any, Any]) -> bool:
    """A browser asking for a page (a program asks for JSON, or for anything)."""
    return "text/html" in request.headers.get("accept", "")


def public_base(request: Request[Any, Any, Any]) -> str:
    """Where a link handed out (to a phone, by mail) starts: ``MAUMAU_PUBLIC_URL`` when it is set, as
    the notices' mails say it (behind a proxy the request may have come to an inner address), else
    the request's own address; no trailing slash."""
    public_url: str | None = request.app.state.services.settings.public_url
    return public_url or str(request.base_url).rstrip("/")


async def page_for(request: Request[Any, Any, Any]) -> Page:
    return Page(request, await signed_in_actor(request))
