"""A table for spectators: the public table live, never a hidden card.

Everything here is what ``GET /games/{id}``, ``/totals`` and the public event log show anyone:
the public table, the totals and the last events redacted for the public
(``service.domain.redaction.PUBLIC``). The page's script follows ``/games/{id}/stream`` and
fetches ``?fragment=1`` again at each event.
"""

from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar import Controller, Request, get
from litestar.response import Template

from service.domain.game import Game
from service.domain.redaction import PUBLIC
from service.http.events import shown
from service.http.params import GameId
from service.http.services import Services
from service.web.i18n import Translate
from service.web.render import Flag, page_for
from service.web.words import event_words

LAST_ACTIONS = 12
# every event type the public stream names: an EventSource listens for each by name
STREAMED = sorted(
    name for name, kind in vars(Game).items() if isinstance(kind, type) and issubclass(kind, Game.Event)
)


def _table(services: Services, game_id: UUID, _: Translate) -> dict[str, Any]:
    table = services.current.table(game_id)
    facts = services.games.facts(game_id)
    events = services.app.game_events(game_id, max(0, table.version - LAST_ACTIONS))
    names = [seat.name for seat in table.seats]
    said = [event_words(_, event, names) for event in shown(events, PUBLIC, facts)]
    return {"table": table, "actions": [words for words in reversed(said) if words], "streamed": STREAMED}


class TablePage(Controller):
    path = "/web/games"
    include_in_schema = False

    @get("/{game_id:uuid}", name="web-table")
    async def table(
        self, request: Request[Any, Any, Any], game_id: GameId, fragment: Flag = False
    ) -> Template:
        page = await page_for(request)
        found = await anyio.to_thread.run_sync(_table, request.app.state.services, game_id, page._)
        return page.render("table_live.html" if fragment else "table.html", **found)
