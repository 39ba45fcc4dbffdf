"""A table for spectators: the public table live, never a hidden card.

Everything here is what ``GET /games/{id}``, ``/totals`` and the public event log show anyone:
the public table, the totals and the last events redacted for the public
(``service.domain.redaction.PUBLIC``); for a game played in person, its score sheet
(``GET /games/{id}/rounds``) instead of cards on a table. The page's script follows
``/games/{id}/stream`` and fetches ``?fragment=1`` again at each event.
"""

from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar import Controller, Request, get
from litestar.response import Template

from service.domain.game import Game
from service.usecases.events import CauseRead
from service.usecases.queries.games import named, spectated
from service.usecases.services import Services
from service.web.i18n import Translate
from service.web.params import GameId
from service.web.play_words import calls_of
from service.web.render import Flag, page_for
from service.web.rule_words import seats_named
from service.web.words import actor_words, event_words

LAST_ACTIONS = 12
# every event type the public stream names: an EventSource listens for each by name
STREAMED = sorted(
    name for name, kind in vars(Game).items() if isinstance(kind, type) and issubclass(kind, Game.Event)
)


def _by(_: Translate, cause: CauseRead | None, seated: dict[str, str], referees: dict[str, str]) -> str:
    """Who caused an event, in words: a seated player by name, an official by office and name; the
    words open the sentence (``sheet_words``: "{who} entered round {number}")."""
    if cause is None:
        return ""
    if cause.role == "referee":
        return actor_words(_, "referee", referees[cause.actor_id], opening=True)
    return actor_words(_, cause.role, seated.get(cause.actor_id, ""), opening=True)


def _table(services: Services, game_id: UUID, _: Translate) -> dict[str, Any]:
    found = spectated(services, game_id, LAST_ACTIONS)
    table, facts = seats_named(_, found.table), found.facts  # a bot's seat by its name in words
    names = [seat.name for seat in table.seats]
    seated = {str(seat.player_id): seat.name for seat in table.seats if seat.player_id is not None}
    public = found.events
    if table.in_person:
        # a sheet's round ends when it is entered: the entry says all "the round is over" would
        public = [event for event in public if event.type != "RoundEnded"]
    said = [
        event_words(
            _,
            event,
            names,
            _by(_, event.cause, seated, found.referees) if table.in_person else "",
            facts.rules,
        )
        for event in public
    ]
    return {
        "table": table,
        "sheet": found.sheet,
        "actions": [words for words in reversed(said) if words],
        "calls": calls_of(_, facts.rules),
        "streamed": STREAMED,
    }


class TablePage(Controller):
    path = "/web/games"

    @get("/{game_id:uuid}", name="web-table")
    async def table(
        self, request: Request[Any, Any, Any], game_id: GameId, fragment: Flag = False
    ) -> Template:
        page = await page_for(request)
        services = request.app.state.services
        found = await anyio.to_thread.run_sync(_table, services, game_id, page._)
        if fragment:  # fetched again at every event: the live part only, no title
            return page.render("table_live.html", **found)
        title = await anyio.to_thread.run_sync(named, services, game_id)
        return page.render("table.html", named=title, **found)
