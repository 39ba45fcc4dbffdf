"""The play page: a seat's hand and its moves, for the player sitting there (officials name a seat).

It shows what ``GET /games/{id}/me`` shows the same person (``policy.seat_to_see``): their own hand,
their legal moves and the public table, never another hand. Moves are forms posted to the page
itself with the session's form token, and made by the API's own use case
(``service.usecases.games.make_move``): the HttpOnly session cookie keeps the bearer token out of
the page's script, so the script cannot call the bearer API, and needs not. The script
(``static/play.js``) opens the seat's play socket (``/games/{id}/me/socket``, which takes the
session cookie from this site's pages), sends each move there as the API's move body (an
idempotency key of its own) and fetches the live part after its answer and at each new view; a
move the socket refuses is posted here as the form, whose answer shows the refusal in the page's
language. Without a socket it sends the forms with ``fetch`` and swaps in the answer, a fresh live
part, and follows ``/games/{id}/me/stream`` (which takes the session cookie too). A move made on a
view gone stale (``stale_version``, ``not_your_turn``) is not an error for a person: the page shows
the table as it is now with a small notice.
"""

from collections.abc import Mapping
from typing import Any
from uuid import UUID, uuid4

import anyio.to_thread
from litestar import Controller, Request, get, post
from litestar.response import Redirect, Template

from service.domain.errors import RuleError
from service.domain.presets import CLUB, PRESETS
from service.domain.roles import Actor
from service.projections.models import HandView
from service.usecases.games import make_move, seat_view
from service.usecases.queries import games
from service.usecases.refusals import status_of
from service.usecases.services import Services
from service.web.params import GameId, SeatToSee
from service.web.play_form import command_of
from service.web.play_words import calls_of
from service.web.render import Flag, Page, page_for
from service.web.rule_words import seats_named
from service.web.session import checked_form, signed_in_actor

# refusals that only mean the page was behind the game: it catches up without a word of error
RESYNC = frozenset({"stale_version", "not_your_turn"})
# who may see no seat's view here: the page says so instead of answering a problem
NO_SEAT = frozenset({"not_seated", "not_allowed", "seat_required", "not_a_seat"})
# a malformed form, a seat not one's own, no such game: the problem itself, as the API answers it
PROBLEMS = frozenset({400, 401, 403, 404})


def _view(services: Services, actor: Actor | None, game_id: UUID, seat: int | None) -> HandView | None:
    games.facts(services, game_id)  # game_not_found before anything else
    if actor is None:
        return None
    try:
        return seat_view(services, actor, game_id, seat)
    except RuleError as refused:
        if refused.code in NO_SEAT:
            return None
        raise


def moves_of(view: HandView) -> dict[str, Any]:
    """The legal moves, grouped as the page shows them: each card playable alone (with the suits a
    jack may name), the cards of its rank that may be laid on it (quick), the cards that may be laid
    face down and those they may be declared as (blind), draw, keep, the challenges, the suits a
    dealer may name and the seats a player may choose."""
    playable: dict[str, list[str]] = {}
    laid_on: dict[str, set[str]] = {}
    face_down: set[str] = set()
    declared: dict[str, None] = {}  # in the engine's order, each once
    declared_suits: dict[str, None] = {}
    kinds: set[str] = set()
    named: list[str] = []
    choosable: list[int] = []
    for move in view.legal:
        kinds.add(move.kind)
        if move.kind == "play" and move.card is not None:
            if move.declared is not None:
                face_down.add(move.card)
                declared[move.declared] = None
                if move.suit is not None:
                    declared_suits[move.suit] = None
            elif move.more:
                laid_on.setdefault(move.card, set()).update(move.more)
            else:
                playable.setdefault(move.card, [])
                if move.suit is not None:
                    playable[move.card].append(move.suit)
        elif move.kind == "name_suit" and move.suit is not None:
            named.append(move.suit)
        elif move.kind == "choose_player" and move.player is not None:
            choosable.append(move.player)
    return {
        "playable": playable,
        # the cards that name a suit when played (a jack): the page says to tap one to name it
        "wild": [card for card in view.cards if playable.get(card)],
        # in the hand's order: the boxes ticked are laid in it, the last on top
        "more": {card: [c for c in view.cards if c in cards] for card, cards in laid_on.items()},
        "face_down": [card for card in view.cards if card in face_down],
        "declared": list(declared),
        "declared_suits": list(declared_suits),
        "kinds": kinds,
        "name_suits": named,
        "choose_players": choosable,
    }


def _render(
    page: Page,
    game_id: UUID,
    view: HandView | None,
    fragment: bool,
    notice: RuleError | None = None,
    seats: list[str] | None = None,
) -> Template:
    if view is None:
        return page.render("play_refused.html", request_game=game_id, seats=seats or [])
    found = {
        "view": view,
        "table": seats_named(page._, view.table),  # a bot's seat by its name in words
        "moves": moves_of(view),
        # the calls as this ruleset says them; a ruleset with none shows no choice of call
        "calls": calls_of(page._, PRESETS.get(view.table.ruleset, CLUB)),
        "notice": notice,
        "resynced": notice is not None and notice.code in RESYNC,
        "key": uuid4(),
    }
    return page.render("play_live.html" if fragment else "play.html", **found)


def _make(services: Services, actor: Actor, game_id: UUID, form: Mapping[str, str]) -> None:
    make_move(services, actor, game_id, command_of(form), form.get("key") or None)


class PlayPage(Controller):
    path = "/web/games"

    @get("/{game_id:uuid}/play", name="web-play")
    async def play(
        self, request: Request[Any, Any, Any], game_id: GameId, seat: SeatToSee = None, fragment: Flag = False
    ) -> Template:
        page = await page_for(request)
        services = request.app.state.services
        view = await anyio.to_thread.run_sync(_view, services, page.actor, game_id, seat)
        seats = None
        if view is None:
            seats = await anyio.to_thread.run_sync(games.seats_to_name, services, page.actor, game_id)
        # not seated: a page that says so (200, as every page a person may open; the API's own
        # refusal is the 403 of GET /games/{id}/me)
        return _render(page, game_id, view, fragment, seats=seats)

    @post("/{game_id:uuid}/play", name="web-play-move", status_code=200)
    async def move(self, request: Request[Any, Any, Any], game_id: GameId) -> Template | Redirect:
        form = await checked_form(request)
        actor = await signed_in_actor(request)
        if actor is None:
            raise RuleError("unauthorized", why="sign_play")
        services = request.app.state.services
        seat = int(form["seat"]) if form.get("seat", "").isdigit() else None
        notice, status = None, 200
        try:
            await anyio.to_thread.run_sync(_make, services, actor, game_id, form)
        except RuleError as refused:
            if status_of(refused.code) in PROBLEMS:
                raise
            notice = refused
            status = 200 if refused.code in RESYNC else status_of(refused.code)
        fragment = bool(form.get("fragment"))
        if notice is None and not fragment:
            # a form sent without the script: back to the page, so that a reload posts nothing again
            where = f"/web/games/{game_id}/play" + (f"?seat={seat}" if seat is not None else "")
            return Redirect(where, status_code=303)
        page = await page_for(request)
        view = await anyio.to_thread.run_sync(_view, services, actor, game_id, seat)
        answer = _render(page, game_id, view, fragment, notice)
        answer.status_code = status
        return answer
