"""A Mao match's table for spectators, and what every Mao page shows of a table.

The spectators see what ``GET /mao-games/{id}`` and its public log show anyone: the top card, each
seat's count, cards owed and rounds won, the penalties with the judge's short reasons, the log in
words; the rule only once it is revealed (``RuleRevealed``), never a hand. The page's script
(``static/live.js``) follows ``/mao-games/{id}/stream`` and fetches ``?fragment=1`` again at each
event; without script a reload shows the same.
"""

from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar import Controller, Request, get
from litestar.response import Template

from service.domain.mao.events import EVENT_TYPES
from service.domain.mao.views import PlayerView
from service.domain.roles import Actor
from service.usecases.queries import mao
from service.usecases.services import Services
from service.web import words
from service.web.i18n import Translate
from service.web.mao_words import log_lines, penalty_words, phase_words, seat_words
from service.web.params import GameId
from service.web.render import Flag, page_for

LOG_LINES = 20
# every event type the public stream names: an EventSource listens for each by name
STREAMED = sorted(kind.__name__ for kind in EVENT_TYPES)


def seat_rows(view: PlayerView, names: list[str]) -> list[dict[str, Any]]:
    """Each seat as the tables show it: name, cards in hand, cards owed, rounds won."""
    return [
        {
            "seat": seat,
            "name": names[seat],
            "cards": view.cards[seat] if view.cards else 0,
            "owed": view.owed[seat] if view.owed else 0,
            "wins": view.wins[seat] if view.wins else 0,
        }
        for seat in range(len(names))
    ]


def table_data(_: Translate, found: mao.MaoTable, view: PlayerView) -> dict[str, Any]:
    """What every Mao page shows of the table, in words: ``view`` is the reader's (a seat's, or
    the public's); the log, the entries the reader may see."""
    names = [seat_words(_, name) for name in found.names]
    penalties = [
        {"who": names[penalty.seat], "reason": penalty_words(_, penalty.reason)} for penalty in view.penalties
    ]
    return {
        "game_id": found.game.id,
        "league": found.league,
        "league_id": found.game.league_id,
        "names": names,
        "view": view,
        "phase": phase_words(_, view.phase, view.round_no),
        "seats": seat_rows(view, names),
        "penalties": penalties,
        "log": log_lines(_, found.log, names, lambda card: words.card_name(_, card), LOG_LINES),
        "seat": found.seat,
        "official": found.official,
        "judges": found.judges,
    }


def _spectated(services: Services, actor: Actor | None, game_id: UUID, _: Translate) -> dict[str, Any]:
    found = mao.table(services, actor, game_id, public=True)  # whoever looks: this is the public's table
    return {**table_data(_, found, mao.public_view(found.game)), "streamed": STREAMED}


class MaoTablePage(Controller):
    path = "/web/mao-games"

    @get("/{game_id:uuid}", name="web-mao-table")
    async def table(
        self, request: Request[Any, Any, Any], game_id: GameId, fragment: Flag = False
    ) -> Template:
        page = await page_for(request)
        found = await anyio.to_thread.run_sync(
            _spectated, request.app.state.services, page.actor, game_id, page._
        )
        return page.render("mao_table_live.html" if fragment else "mao_table.html", **found)
