"""A player's page: their games, their standing in each league, their next table."""

from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar import Controller, Request, get
from litestar.response import Template

from service.http.params import PlayerId
from service.http.services import Services
from service.web.render import page_for


def _player(services: Services, player_id: UUID) -> dict[str, Any]:
    player = services.app.get_player(player_id)
    reader = services.reader
    standings = []
    for league in reader.leagues_of(str(player_id), "member"):
        found = reader.standings(league.league_id)
        row = next((r for r in found.rows if r.player_id == player_id), None) if found else None
        standings.append((league, row, len(found.rows) if found else 0))
    return {
        "player": player,
        "history": reader.history(player_id),
        "standings": standings,
        "next_game": reader.next_game(player_id),
    }


class PlayerPage(Controller):
    path = "/web/players"
    include_in_schema = False

    @get("/{player_id:uuid}", name="web-player")
    async def player(self, request: Request[Any, Any, Any], player_id: PlayerId) -> Template:
        page = await page_for(request)
        found = await anyio.to_thread.run_sync(_player, request.app.state.services, player_id)
        return page.render("player.html", **found)
