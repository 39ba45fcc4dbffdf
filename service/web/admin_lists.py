"""The admin's lists of what exists, each with what can be done to it: tournaments (edit, start now,
cancel), leagues (invite, their people), a league's members (admit, remove) and referees (appoint by
name, take off), its invitations (revoke), and every registered referee (appoint to a league). Each list is a
page of ``PER_PAGE`` with next and previous links and a search box by name, all plain links and forms,
read from the read models (``queries.admin_lists``).

Each action is a form posted with the session's form token, as the admin page's own forms, to the use
case the API's route calls: a refusal answers the list again with the API's status and the reason in
the page's language, nothing changed; a success answers the list as it is now, with what was done.
Whoever is not an admin gets the admin page's refusal (``admin.refused``) and nothing is done.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any
from uuid import UUID

import anyio.to_thread
from litestar import Controller, Request, get, post
from litestar.params import Parameter
from litestar.response import Template

from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.usecases import admin as office_choices
from service.usecases import invitations, leagues, tournaments
from service.usecases.context import Context
from service.usecases.leagues import LeagueRefereeCreate
from service.usecases.queries import admin_lists
from service.usecases.queries import leagues as league_queries
from service.usecases.queries.admin_lists import PER_PAGE, short_id, told_apart
from service.usecases.refusals import status_of
from service.web import admin, admin_forms
from service.web.render import Page, page_for
from service.web.session import checked_form

LeagueId = Annotated[str, Parameter(description="the league's id")]
Subject = Annotated[str, Parameter(description="the id of what the action is done to")]
ActionName = Annotated[str, Parameter(description="what is done: one of the list's actions")]


def _uuid(text: str, name: str) -> UUID:
    return admin.form_id({name: text}, name)


def _page_no(text: str) -> int:
    """A page number as sent; anything else is the first page (a link edited by hand still answers)."""
    return int(text) if text.isdigit() and 0 < int(text) < 10_000 else 1


def _asked(request: Request[Any, Any, Any], subject: str = "") -> "Shown":
    """The list's page and search, as the address asks (``?q=`` and ``?page=``)."""
    params = request.query_params
    return Shown(params.get("q", ""), _page_no(params.get("page", "")), subject)


@dataclass(frozen=True)
class Shown:
    """Which page of a list, searched for what; ``subject``: the league whose people or invitations."""

    search: str = ""
    page: int = 1
    subject: str = ""


# a list: what its page shows (read in a thread) and the actions done to its rows
Load = Callable[[Context, Actor, Shown], dict[str, Any]]
Action = Callable[[Context, Actor, str, dict[str, str]], Any]


def _tournaments(context: Context, actor: Actor, shown: Shown) -> dict[str, Any]:
    found = admin_lists.tournaments(context, actor, shown.search, shown.page)
    zones = league_queries.time_zones(context, (row.tournament.league_id for row in found.items))
    labels = told_apart(found.items, lambda row: row.tournament.name, lambda row: row.league)
    return {"found": found, "labels": labels, "zones": zones}


def _leagues(context: Context, actor: Actor, shown: Shown) -> dict[str, Any]:
    return {"found": admin_lists.leagues(context, actor, shown.search, shown.page)}


def _league(context: Context, actor: Actor, shown: Shown) -> dict[str, Any]:
    found = admin_lists.office(context, actor, _uuid(shown.subject, "league_id"), shown.search, shown.page)
    choices = office_choices.choices(context, actor, to_start=False)
    return {
        "office": found,
        "found": found.members,
        "players": admin.picks(choices.players, "player_id"),
        "referees": admin.picks(choices.referees, "player_id"),
    }


def _invitations(context: Context, actor: Actor, shown: Shown) -> dict[str, Any]:
    league_id = _uuid(shown.subject, "league_id")
    league, found = admin_lists.invitations_of(context, actor, league_id, shown.page, datetime.now(UTC))
    return {"league": league, "found": found}


def _referees(context: Context, actor: Actor, shown: Shown) -> dict[str, Any]:
    choices = office_choices.choices(context, actor, to_start=False)
    return {
        "found": admin_lists.referees(context, actor, shown.search, shown.page),
        "leagues": admin.picks(choices.leagues, "league_id"),
    }


def _start(context: Context, actor: Actor, subject: str, form: dict[str, str]) -> Any:
    return tournaments.start(context, actor, _uuid(subject, "tournament_id"))


def _cancel(context: Context, actor: Actor, subject: str, form: dict[str, str]) -> Any:
    reason = admin_forms.decoded({"reason": form.get("reason", "")}, tournaments.Cancellation)
    return tournaments.cancel(context, actor, _uuid(subject, "tournament_id"), reason)


def _edit(context: Context, actor: Actor, subject: str, form: dict[str, str]) -> Any:
    tournament_id = _uuid(subject, "tournament_id")
    league_id = league_queries.tournament(context, tournament_id).league_id  # tournament_not_found
    zone = league_queries.time_zones(context, [league_id])[league_id]
    return tournaments.edit(context, actor, tournament_id, admin_forms.tournament_edit(form, zone))


def _with_league(form_name: str) -> Action:
    """The admin page's own form ``form_name``, for the league the list is of."""

    def done(context: Context, actor: Actor, subject: str, form: dict[str, str]) -> Any:
        return admin.ACTIONS[form_name](context, actor, {**form, "league_id": subject})

    return done


def _remove(context: Context, actor: Actor, subject: str, form: dict[str, str]) -> Any:
    league_id = _uuid(subject, "league_id")
    return leagues.remove_member(context, actor, league_id, admin.form_id(form, "player_id"))


def _dismiss(context: Context, actor: Actor, subject: str, form: dict[str, str]) -> Any:
    league_id = _uuid(subject, "league_id")
    return leagues.dismiss_referee(context, actor, league_id, admin.form_id(form, "referee_id"))


def _revoke(context: Context, actor: Actor, subject: str, form: dict[str, str]) -> Any:
    invitation_id = admin.form_id(form, "invitation_id")
    league_id = _uuid(subject, "league_id")
    if invitation_id not in {made.id for made in invitations.invitations_of(context, actor, league_id)}:
        raise RuleError("invitation_not_found")  # not this league's: the page shows only its own
    invitations.revoke_invitation(context, actor, invitation_id)
    return invitation_id


def _appoint(context: Context, actor: Actor, subject: str, form: dict[str, str]) -> Any:
    data = LeagueRefereeCreate(referee_id=_uuid(subject, "referee_id"))
    return leagues.appoint_referee(context, actor, admin.form_id(form, "league_id"), data)


@dataclass(frozen=True)
class Listing:
    template: str
    load: Load


TOURNAMENTS = Listing("admin_tournaments.html", _tournaments)
LEAGUES = Listing("admin_leagues.html", _leagues)
LEAGUE = Listing("admin_league.html", _league)
INVITATIONS = Listing("admin_invitations.html", _invitations)
REFEREES = Listing("admin_referees.html", _referees)

# each list's actions: what is done, and the list answered after it
TOURNAMENT_ACTIONS: dict[str, tuple[Action, Listing]] = {
    "start": (_start, TOURNAMENTS),
    "cancel": (_cancel, TOURNAMENTS),
    "edit": (_edit, TOURNAMENTS),
}
LEAGUE_ACTIONS: dict[str, tuple[Action, Listing]] = {
    "admit": (_with_league("member"), LEAGUE),
    "remove": (_remove, LEAGUE),
    "appoint": (_with_league("league-referee"), LEAGUE),
    "dismiss": (_dismiss, LEAGUE),
    "invite": (_with_league("invitation"), INVITATIONS),
    "revoke": (_revoke, INVITATIONS),
}
REFEREE_ACTIONS: dict[str, tuple[Action, Listing]] = {"appoint": (_appoint, REFEREES)}


async def _shown(page: Page, listing: Listing, shown: Shown, status: int = 200, **context: Any) -> Template:
    assert page.actor is not None  # an admin's: checked before
    services = page.request.app.state.services
    found = await anyio.to_thread.run_sync(listing.load, services, page.actor, shown)
    answer = page.render(
        listing.template, shown=shown, per_page=PER_PAGE, short_id=short_id, **found, **context
    )
    answer.status_code = status
    return answer


async def _list(request: Request[Any, Any, Any], listing: Listing, shown: Shown) -> Template:
    page = await page_for(request)
    if page.actor is None or page.actor.role != "admin":
        return admin.refused(page)
    return await _shown(page, listing, shown)


async def _act(
    request: Request[Any, Any, Any],
    actions: dict[str, tuple[Action, Listing]],
    subject: str,
    action_name: str,
    listed: str = "",
) -> Template:
    """Do ``action_name`` to ``subject``; answer its list (``listed``: the league it is of, if any)."""
    form = await checked_form(request)
    page = await page_for(request)
    actor = page.actor
    if actor is None or actor.role != "admin":
        return admin.refused(page)
    if action_name not in actions:
        raise RuleError("not_found", why="no_such_form")
    action, listing = actions[action_name]
    shown = Shown(form.get("q", ""), _page_no(form.get("page", "")), listed)
    services = request.app.state.services
    try:
        done = await anyio.to_thread.run_sync(action, services, actor, subject, form)
    except RuleError as error:
        return await _shown(page, listing, shown, status_of(error.code), action=action_name, refusal=error)
    handed = await admin.handed_out(page, "invitation", form, done)
    return await _shown(page, listing, shown, action=action_name, done=done, **handed)


class AdminLists(Controller):
    path = "/web/admin"

    @get("/tournaments", name="web-admin-tournaments")
    async def tournaments(self, request: Request[Any, Any, Any]) -> Template:
        return await _list(request, TOURNAMENTS, _asked(request))

    @get("/leagues", name="web-admin-leagues")
    async def leagues(self, request: Request[Any, Any, Any]) -> Template:
        return await _list(request, LEAGUES, _asked(request))

    @get("/leagues/{league_id:str}", name="web-admin-league")
    async def league(self, request: Request[Any, Any, Any], league_id: LeagueId) -> Template:
        return await _list(request, LEAGUE, _asked(request, league_id))

    @get("/leagues/{league_id:str}/invitations", name="web-admin-invitations")
    async def invitations(self, request: Request[Any, Any, Any], league_id: LeagueId) -> Template:
        return await _list(request, INVITATIONS, _asked(request, league_id))

    @get("/referees", name="web-admin-referees")
    async def referees(self, request: Request[Any, Any, Any]) -> Template:
        return await _list(request, REFEREES, _asked(request))

    # each list's actions under its own address (a path parameter in the list's place would never be
    # reached: the router takes the lists' own segments first)
    @post("/tournaments/{subject:str}/{action_name:str}", name="web-admin-tournament-post", status_code=200)
    async def tournament_act(
        self, request: Request[Any, Any, Any], subject: Subject, action_name: ActionName
    ) -> Template:
        return await _act(request, TOURNAMENT_ACTIONS, subject, action_name)

    @post("/leagues/{league_id:str}/{action_name:str}", name="web-admin-league-post", status_code=200)
    async def league_act(
        self, request: Request[Any, Any, Any], league_id: LeagueId, action_name: ActionName
    ) -> Template:
        return await _act(request, LEAGUE_ACTIONS, league_id, action_name, listed=league_id)

    @post("/referees/{subject:str}/{action_name:str}", name="web-admin-referee-post", status_code=200)
    async def referee_act(
        self, request: Request[Any, Any, Any], subject: Subject, action_name: ActionName
    ) -> Template:
        return await _act(request, REFEREE_ACTIONS, subject, action_name)
