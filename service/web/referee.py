"""The referee console: the open disputes of my leagues, a game's whole log, its replay, a ruling.

Only a game's officials see a console, with the same checks as the API (``service.usecases.policy``):
the list is ``GET /disputes``'s, the log is ``GET /games/{id}/events`` in the full sight, the
replay is ``GET /games/{id}/replay``'s table and a ruling calls the same use case as
``POST /games/{id}/rulings``. Anyone else gets a "for referees" page (403) when a browser asks, and
the problem (403 ``forbidden``) otherwise; a page of a game that does not exist is its 404 problem.
A game played in person has no card here: its console shows the score sheet instead of a replay, and
its ``correct`` form is the scorer's entry (``service.web.scorer.entry_of``).

The ruling forms post to the page with the session's form token (``service.web.session``), so
the bearer token never reaches a script; a refused ruling changes nothing and is answered with
the console again and a sentence saying why.
"""

from collections.abc import Callable
from typing import Annotated, Any
from uuid import UUID

import anyio.to_thread
import msgspec
from litestar import Controller, Request, get, post
from litestar.params import Parameter
from litestar.response import Redirect, Template

from service.domain.errors import RuleError
from service.domain.history import FIRST_VOIDABLE
from service.domain.roles import Actor
from service.usecases.disputes import RulingCreate, give_ruling
from service.usecases.facts import GameFacts
from service.usecases.queries import games
from service.usecases.refusals import status_of
from service.usecases.services import Services
from service.web.i18n import Translate
from service.web.params import GameId
from service.web.render import Flag, Page, page_for, wants_html
from service.web.scorer import card_code_words, entry_of
from service.web.session import checked_form
from service.web.words import full_event_words, role_words

MOST_DISPUTES = 200
EventNumber = Annotated[int, Parameter(ge=1)]  # the replay's step: the state right after it
ShownEvent = Annotated[int | None, Parameter(ge=1)]  # None: the event the open dispute is about


def _refused(page: Page) -> Template:
    """A page for a person who is no official, or the problem for a program."""
    if not wants_html(page.request):
        raise RuleError("forbidden", why="referee_console_game")
    answer = page.render("referee_refused.html", code="forbidden")
    answer.status_code = 403
    return answer


def _disputes(services: Services, actor: Actor, _: Translate) -> list[dict[str, Any]]:
    return [
        {"dispute": item, "table": table, "raised_by": item.raised_by_name or role_words(_, item.raised_by)}
        for item, table in games.disputes(services, actor, MOST_DISPUTES)
    ]


def _replay(services: Services, facts: GameFacts, at: int, _: Translate) -> dict[str, Any]:
    """The table right after event ``at``, the event, and what a void from ``at`` would do."""
    found = games.replayed(services, facts, at)
    at, events, dispute = found.at, found.events, found.now.dispute
    void = None
    if dispute is not None:
        last = dispute.raised_at - 1
        voided = [event for event in events if event.number <= last]
        void = {
            "possible": FIRST_VOIDABLE <= at <= last,
            "first": FIRST_VOIDABLE,
            "last": last,
            "count": len(voided),
            # a round whose shuffles were revealed is reopened: the game reshuffles the hidden cards
            "reshuffles": any(event.type == "DeckRevealed" for event in voided),
        }
    return {
        "at": at,
        "latest": found.now.number,
        "replayed": found.table,
        "event_line": full_event_words(_, events[0], found.names, facts.rules) if events else "",
        "names": found.names,
        "void": void,
        "version": found.now.number,
    }


def _console(services: Services, facts: GameFacts, at: int | None, _: Translate) -> dict[str, Any]:
    found = games.console(services, facts)
    public, dispute = found.public, found.now.dispute
    names = [seat.name for seat in public.seats]
    if at is None:
        at = (dispute.about or dispute.raised_at - 1) if dispute is not None else found.now.number
    log = [(event.number, full_event_words(_, event, names, facts.rules)) for event in found.log]
    raised_by = ""
    if dispute is not None:
        raised_by = names[dispute.seat] if dispute.seat is not None else role_words(_, dispute.raised_by.role)
    # a game of real cards has none on the server: its score sheet instead of a replay
    shown = (
        {"table": public, "sheet": found.sheet, "version": found.now.number, **card_code_words(_)}
        if found.sheet is not None
        else _replay(services, facts, at, _)
    )
    return {
        "public": public,
        "dispute": dispute,
        "raised_by": raised_by,
        "log": log,
        "rounds": sorted(range(1, public.round_no + 1), reverse=True),
        "typed": {},
        **shown,
    }


def _ruling(form: dict[str, str], seats: int) -> RulingCreate:
    """The form's ruling, checked as the API checks its body; a correction's entry is read as the
    scorer's page reads a round's (``entry_of``)."""
    body: dict[str, Any] = {}
    for name, value in form.items():
        text = value.strip()
        if name == "csrf" or text == "":
            continue
        body[name] = text
    if body.get("kind") == "correct":
        kept = ("kind", "round", "note", "version")
        body = {name: body[name] for name in kept if name in body} | entry_of(form, seats)
    try:
        return msgspec.convert(body, RulingCreate, strict=False)
    except msgspec.ValidationError as error:
        raise RuleError("malformed_request", why="decode", problem=str(error)) from None


def _in_person(services: Services, game_id: UUID) -> bool:
    try:
        return games.table(services, game_id).in_person
    except RuleError:
        return False  # no such game: the official page answers its 404


async def _official_page(
    request: Request[Any, Any, Any],
    game_id: UUID,
    shown: Callable[[Services, GameFacts, Any, Translate], dict[str, Any]],
    at: int | None,
    template: str,
    **extra: Any,
) -> Template:
    """The page of a game ``shown`` at ``at`` to one of its officials (refused to anyone else)."""
    page = await page_for(request)
    services: Services = request.app.state.services
    facts = await anyio.to_thread.run_sync(games.official_facts, services, page.actor, game_id)
    if facts is None:
        return _refused(page)
    found = await anyio.to_thread.run_sync(shown, services, facts, at, page._)
    return page.render(template, game_id=game_id, **extra, **found)


class RefereeConsole(Controller):
    path = "/web/referee"

    @get("/", name="web-referee")
    async def disputes(self, request: Request[Any, Any, Any]) -> Template:
        page = await page_for(request)
        if page.actor is None or not page.actor.officiates:
            return _refused(page)
        found = await anyio.to_thread.run_sync(_disputes, request.app.state.services, page.actor, page._)
        return page.render("referee.html", disputes=found)

    @get("/games/{game_id:uuid}", name="web-referee-game")
    async def game(
        self, request: Request[Any, Any, Any], game_id: GameId, at: ShownEvent = None, ruled: Flag = False
    ) -> Template:
        return await _official_page(
            request, game_id, _console, at, "referee_game.html", ruled=ruled, refusal=None
        )

    @get("/games/{game_id:uuid}/replay", name="web-referee-replay")
    async def replay(
        self, request: Request[Any, Any, Any], game_id: GameId, at: EventNumber = 1
    ) -> Template | Redirect:
        # a game played in person has no card on the server to replay: its console shows the sheet
        if await anyio.to_thread.run_sync(_in_person, request.app.state.services, game_id):
            return Redirect(f"/web/referee/games/{game_id}", status_code=303)
        return await _official_page(request, game_id, _replay, at, "referee_replay.html")

    @post("/games/{game_id:uuid}/rulings", name="web-referee-ruling", status_code=303)
    async def rule(self, request: Request[Any, Any, Any], game_id: GameId) -> Redirect | Template:
        page = await page_for(request)
        services: Services = request.app.state.services
        form = await checked_form(request)  # before anything else: a cross-site post learns nothing
        facts = await anyio.to_thread.run_sync(games.official_facts, services, page.actor, game_id)
        if facts is None or page.actor is None:
            return _refused(page)
        try:
            ruling = _ruling(form, len(facts.seats))
            await anyio.to_thread.run_sync(give_ruling, services, page.actor, game_id, ruling, None)
        except RuleError as error:
            if not wants_html(request):
                raise
            found = await anyio.to_thread.run_sync(_console, services, facts, None, page._)
            found["typed"] = form  # a correction's form as it was typed
            answer = page.render("referee_game.html", game_id=game_id, ruled=False, refusal=error, **found)
            answer.status_code = status_of(error.code)
            return answer
        return Redirect(f"/web/referee/games/{game_id}?ruled=1", status_code=303)
