"""A Mao player's page: the seat's hand and its acts, for the player sitting there (officials name a
seat).

It shows what ``GET /mao-games/{id}/me`` and the log show the same person: their own hand, each
seat's counts, the penalties with the judge's short reasons, the log as their seat sees it (their
own cards taken, never another hand; the rule only once revealed). The acts are buttons of one form
posted to the page with the session's form token and made by the API's own use case
(``service.usecases.mao.seat_act``); a refusal (not your turn to draw, a pause, a card not held) is
shown in the reader's language and changes nothing. A card played out of turn or a wrong play is no
refusal: the judge takes it back with a penalty card, which the log says with its reason.

The live part follows ``/mao-games/{id}/me/stream`` (which takes the session cookie: the bots'
moves come from the workers) and is fetched again at each new view (``static/live.js``); what the
player types (the words said with a play) sits outside it and is kept. Without script, a reload.
"""

from collections.abc import Mapping
from typing import Any
from uuid import UUID, uuid4

import anyio.to_thread
from litestar import Controller, Request, get, post
from litestar.response import Redirect, Template

from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.usecases.mao import seat_act
from service.usecases.queries import mao
from service.usecases.refusals import status_of
from service.usecases.services import Services
from service.web.i18n import Translate
from service.web.mao_form import seat_act_of
from service.web.mao_table import table_data
from service.web.params import GameId, SeatToSee
from service.web.render import Flag, Page, page_for
from service.web.session import checked_form, signed_in_actor

# who may see no seat's view here: the page says so instead of answering a problem
NO_SEAT = frozenset({"not_seated", "not_allowed", "seat_required", "not_a_seat", "not_your_seat"})
# a malformed form, a seat not one's own, no such match: the problem itself, as the API answers it
PROBLEMS = frozenset({400, 401, 403, 404})
QUICK_CALLS = ("mao",)  # said often enough to be a tick


def _last_round_winner(log: list[dict[str, Any]]) -> int | None:
    for entry in reversed(log):
        if entry["type"] == "RoundEnded":
            winner: int = entry["winner"]
            return winner if winner >= 0 else None
    return None


def _seat_page(
    services: Services, actor: Actor | None, game_id: UUID, seat: int | None, _: Translate
) -> dict[str, Any]:
    """The seat's page's data; ``view`` None when the asker has no seat to see here."""
    found = mao.table(services, actor, game_id)  # game_not_found before anything else
    seats = found.names if found.official else []
    if actor is None:
        return {"view": None, "game_id": game_id, "seats": seats}
    try:
        view = mao.seat_view_at(services, actor, found, seat)
    except RuleError as refused:
        if refused.code in NO_SEAT:
            return {"view": None, "game_id": game_id, "seats": seats}
        raise
    data = table_data(_, found, view)
    may_propose = (
        view.phase == "deal"
        and view.my_proposal is None
        and _last_round_winner(found.log) == view.seat
        and view.winner is None
    )
    return {**data, "seat": view.seat, "may_propose": may_propose}


def _render(page: Page, data: dict[str, Any], fragment: bool, notice: RuleError | None = None) -> Template:
    if data["view"] is None:
        return page.render("mao_play_refused.html", **data)
    template = "mao_play_live.html" if fragment else "mao_play.html"
    return page.render(template, **data, notice=notice, key=uuid4(), quick=QUICK_CALLS)


def _act(services: Services, actor: Actor, game_id: UUID, form: Mapping[str, str]) -> None:
    made = seat_act_of(form)
    seat = int(form["seat"]) if form.get("seat", "").isdigit() else None
    seat_act(
        services, actor, game_id, seat, made.command_for, form.get("key") or None, made.request, made.is_play
    )


class MaoPlayPage(Controller):
    path = "/web/mao-games"

    @get("/{game_id:uuid}/play", name="web-mao-play")
    async def play(
        self, request: Request[Any, Any, Any], game_id: GameId, seat: SeatToSee = None, fragment: Flag = False
    ) -> Template:
        page = await page_for(request)
        data = await anyio.to_thread.run_sync(
            _seat_page, request.app.state.services, page.actor, game_id, seat, page._
        )
        return _render(page, data, fragment)

    @post("/{game_id:uuid}/play", name="web-mao-act", status_code=200)
    async def act(self, request: Request[Any, Any, Any], game_id: GameId) -> Template | Redirect:
        form = await checked_form(request)
        actor = await signed_in_actor(request)
        if actor is None:
            raise RuleError("unauthorized", why="sign_play")
        services = request.app.state.services
        seat = int(form["seat"]) if form.get("seat", "").isdigit() else None
        try:
            await anyio.to_thread.run_sync(_act, services, actor, game_id, form)
        except RuleError as refused:
            if status_of(refused.code) in PROBLEMS:
                raise
            page = await page_for(request)
            data = await anyio.to_thread.run_sync(_seat_page, services, actor, game_id, seat, page._)
            answer = _render(page, data, False, refused)
            answer.status_code = status_of(refused.code)
            return answer
        # back to the page, so that a reload posts nothing again; the log says how the act went
        where = f"/web/mao-games/{game_id}/play" + (f"?seat={seat}" if seat is not None else "")
        return Redirect(where, status_code=303)
