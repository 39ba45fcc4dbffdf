"""The admin's page: found a league, register players and referees and hand them their sign-in, admit
members and appoint referees, announce a tournament and start it, invite people to a league and
give a member a one-time sign-in link.

Each form posts (with the session's form token) to a route here that decodes it into the API's own
body (``admin_forms``) and calls the use case the API's route calls (``service.usecases``), in a
thread as the API runs it: the checks, the refusals and the writes are the API's, and a refused form
has changed nothing, as a refused request has not. A refusal is answered with the page again, the
API's status and code, and the reason in the page's language (``admin_refusal.html``). Whoever is
not an admin gets a page that says so (401 signed out, 403 signed in; a program asking for no HTML
gets the problem+json, ``unauthorized`` or ``forbidden``) and nothing is done.

A new token is shown once, in the answer to the form that made it, with the sign-in link that
carries it (``/signin?token=...``): it is never in an address, so it stays out of the history.
An invitation's link (``/join/...``) and a sign-in link (``/signin/link/...``) are shown so too,
each with its QR code (``service.web.qr``) to print or to show to a phone's camera.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any
from uuid import UUID
from zoneinfo import available_timezones

import anyio.to_thread
from litestar import Controller, Request, get, post
from litestar.params import Parameter
from litestar.response import Template

from service.domain.bots import BOTS
from service.domain.errors import RuleError
from service.domain.formats import FORMATS
from service.domain.presets import PRESETS, SWITCHES
from service.domain.roles import Actor
from service.domain.rulesets import OPTIONS
from service.usecases import admin, invitations, leagues, mail, players, signins, tournaments
from service.usecases.context import Context
from service.usecases.queries import leagues as queries
from service.usecases.queries.admin_lists import told_apart
from service.usecases.queries.leagues import time_zones
from service.usecases.refusals import status_of
from service.web import admin_forms, rule_words
from service.web.qr import qr_svg
from service.web.render import Page, page_for, public_base, wants_html
from service.web.session import checked_form

ZONES = sorted(available_timezones())
FormName = Annotated[str, Parameter(description="which form: one of ACTIONS' names")]


def form_id(form: dict[str, str], name: str) -> UUID:
    try:
        return UUID(form.get(name, ""))
    except ValueError as error:
        raise RuleError("malformed_request", why="choose_list", name=name) from error


def picks(items: Sequence[Any], id_field: str) -> list[tuple[UUID, str]]:
    """A picker's choices: each item's id and its name, with its short id beside an equal name."""
    return list(
        zip((getattr(item, id_field) for item in items), told_apart(items, _name, _no_detail), strict=True)
    )


def _name(item: Any) -> str:
    return str(item.name)


def _no_detail(item: Any) -> str:
    return ""


# what each form does: the use case called with the form's input; the result the page shows
Action = Callable[[Context, Actor, dict[str, str]], Any]


def _found_league(context: Context, actor: Actor, form: dict[str, str]) -> Any:
    return leagues.found_league(context, actor, admin_forms.league(form))


def _register_player(context: Context, actor: Actor, form: dict[str, str]) -> Any:
    return players.register_player(context, actor, admin_forms.player(form))


def _register_referee(context: Context, actor: Actor, form: dict[str, str]) -> Any:
    return players.register_referee(context, actor, admin_forms.referee(form))


def _admit_member(context: Context, actor: Actor, form: dict[str, str]) -> Any:
    data = admin_forms.member(form)
    return leagues.admit_member(context, actor, form_id(form, "league_id"), data)


def _appoint_referee(context: Context, actor: Actor, form: dict[str, str]) -> Any:
    data = admin_forms.league_referee(form)
    return leagues.appoint_referee(context, actor, form_id(form, "league_id"), data)


def _announce(context: Context, actor: Actor, form: dict[str, str]) -> Any:
    league_id = form_id(form, "league_id")
    data = admin_forms.tournament(form, time_zones(context, [league_id])[league_id])
    return tournaments.announce(context, actor, league_id, data)


def _start(context: Context, actor: Actor, form: dict[str, str]) -> Any:
    return tournaments.start(context, actor, form_id(form, "tournament_id"))


def _invite(context: Context, actor: Actor, form: dict[str, str]) -> Any:
    _mail_to(context, form)
    made, code = invitations.make_invitation(
        context, actor, form_id(form, "league_id"), admin_forms.invitation(form)
    )
    league = queries.league(context, made.league_id).name
    return Handed(path=f"/join/{code}", expires_at=made.expires_at, uses=made.uses, name=league)


def _signin_link(context: Context, actor: Actor, form: dict[str, str]) -> Any:
    _mail_to(context, form)
    made = signins.make_signin_link(context, actor, form_id(form, "player_id"))
    return Handed(path=f"/signin/link/{made.code}", expires_at=made.expires_at, name=made.name)


def _mail_to(context: Context, form: dict[str, str]) -> str | None:
    """The address to mail the link to, checked before anything is made; None: none given, or no mail."""
    address = form.get("email", "").strip()
    if not address or not mail.mails(context.settings):
        return None
    return mail.checked_address(address)


@dataclass(frozen=True)
class Handed:
    """A link the organiser hands out (an invitation's, a sign-in link): shown this once, with its QR code."""

    path: str
    expires_at: datetime
    uses: int = 1
    name: str = ""  # the player a sign-in link is for; the league an invitation joins


ACTIONS: dict[str, Action] = {
    "league": _found_league,
    "player": _register_player,
    "referee": _register_referee,
    "member": _admit_member,
    "league-referee": _appoint_referee,
    "tournament": _announce,
    "start": _start,
    "invitation": _invite,
    "signin-link": _signin_link,
}


def refused(page: Page) -> Template:
    """A browser gets a page that says whose page this is; a program (no ``text/html`` in its
    ``Accept``) the API's problem, as for any refusal."""
    refusal = RuleError("unauthorized", why="sign_admin") if page.actor is None else None
    refusal = refusal or RuleError("forbidden", why="admin_use_admin")
    if not wants_html(page.request):
        raise refusal
    answer = page.render("admin_refused.html")
    answer.status_code = status_of(refusal.code)
    return answer


# each preset's own switch, with the presets it belongs to (another preset refuses it: invalid_option)
SWITCH_OWNERS = {
    key: [preset for preset, switches in SWITCHES.items() if key in switches]
    for switches in SWITCHES.values()
    for key in switches
}


async def _page(page: Page, actor: Actor, status: int = 200, **context: Any) -> Template:
    lists = await anyio.to_thread.run_sync(admin.choices, page.request.app.state.services, actor)
    _ = page._
    answer = page.render(
        "admin.html",
        # each choice by its name in the page's language and what it is; the form sends the identifier
        rulesets=[(name, rule_words.ruleset_words(_, name)) for name in sorted(PRESETS)],
        options={name: kind is bool for name, kind in OPTIONS.items()} | dict.fromkeys(SWITCH_OWNERS, True),
        labels={name: rule_words.option_name(_, name) for name in [*OPTIONS, *SWITCH_OWNERS]},
        meanings={name: rule_words.option_meaning(_, name) for name in OPTIONS},
        format_meanings={name: rule_words.format_meaning(_, name) for name in FORMATS},
        owners={key: rule_words.owners_words(_, presets) for key, presets in SWITCH_OWNERS.items()},
        bots=[
            (bot, f"{rule_words.bot_name(_, bot)} — {rule_words.bot_meaning(_, bot)}") for bot in sorted(BOTS)
        ],
        zones=ZONES,
        mails=mail.mails(page.request.app.state.services.settings),
        base=public_base(page.request),
        leagues=picks(lists.leagues, "league_id"),
        players=picks(lists.players, "player_id"),
        announced=picks(lists.announced, "tournament_id"),
        referees=picks(lists.referees, "player_id"),
        **context,
    )
    answer.status_code = status
    return answer


async def _mail(page: Page, address: str, form_name: str, handed: Handed, link: str) -> bool:
    """Mail the link, in the organiser's language; whether the server took it."""
    engine = page.request.app.template_engine
    assert engine is not None  # the app's (service.app): the pages are drawn with it
    template = engine.get_template("mail_link.html")
    subject, _, text = template.render(
        _=page._, kind=form_name, name=handed.name, link=link, until=page.when(handed.expires_at)
    ).partition("\n")
    settings = page.request.app.state.services.settings
    return await anyio.to_thread.run_sync(mail.send, settings, address, subject.strip(), text.strip() + "\n")


class AdminPage(Controller):
    path = "/web/admin"

    @get("/", name="web-admin")
    async def admin(self, request: Request[Any, Any, Any]) -> Template:
        page = await page_for(request)
        if page.actor is None or page.actor.role != "admin":
            return refused(page)
        return await _page(page, page.actor)

    @post("/{form_name:str}", name="web-admin-post", status_code=200)
    async def act(self, request: Request[Any, Any, Any], form_name: FormName) -> Template:
        form = await checked_form(request)
        page = await page_for(request)
        actor = page.actor
        if actor is None or actor.role != "admin":
            return refused(page)
        action = ACTIONS.get(form_name)
        if action is None:
            raise RuleError("not_found", why="no_such_form")
        try:
            done = await anyio.to_thread.run_sync(action, request.app.state.services, actor, form)
        except RuleError as error:
            return await _page(
                page, actor, status_of(error.code), form_name=form_name, refusal=error, sent=form
            )
        shown = await handed_out(page, form_name, form, done)
        return await _page(page, actor, form_name=form_name, done=done, **shown)


async def handed_out(page: Page, form_name: str, form: dict[str, str], done: Any) -> dict[str, Any]:
    """A link made by a form (``Handed``): its whole address and QR code, mailed if an address was
    given; nothing for any other result."""
    if not isinstance(done, Handed):
        return {}
    request = page.request
    link = f"{public_base(request)}{done.path}"
    shown: dict[str, Any] = {"link": link, "qr": qr_svg(link)}
    address = _mail_to(request.app.state.services, form)
    if address is not None:
        shown["mailed"] = await _mail(page, address, form_name, done, link)
    return shown
