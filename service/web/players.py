"""A player's page: their games, their standing in each league, their next table."""

from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar import Controller, Request, get
from litestar.response import Template

from service.http.params import PlayerId
from service.http.services import Services
from service.web.render import page_for
from service.web.scorer import tables_to_score
from service.web.zones import league_zones


def _player(services: Services, player_id: UUID) -> dict[str, Any]:
    player = services.app.get_player(player_id)
    reader = services.reader
    standings = []
    for league in reader.leagues_of(str(player_id), "member"):
        found = reader.standings(league.league_id)
        row = next((r for r in found.rows if r.player_id == player_id), None) if found else None
        ranked = [r for r in found.rows if r.rank is not None] if found else []  # of those who played
        standings.append((league, row, len(ranked)))
    history, next_game = reader.history(player_id), reader.next_game(player_id)
    tournament = reader.tournament(next_game.tournament_id) if next_game else None
    leagues = [game.league_id for game in history.games] + ([tournament.league_id] if tournament else [])
    return {
        "player": player,
        "history": history,
        "standings": standings,
        "next_game": next_game,
        "next_zone": league_zones(services, leagues)[tournament.league_id] if tournament else None,
        "zones": league_zones(services, leagues),
        "scoring": tables_to_score(services, history.games),
    }


class PlayerPage(Controller):
    path = "/web/players"
    include_in_schema = False

    @get("/{player_id:uuid}", name="web-player")
    async def player(self, request: Request[Any, Any, Any], player_id: PlayerId) -> Template:
        page = await page_for(request)
        found = await anyio.to_thread.run_sync(_player, request.app.state.services, player_id)
        return page.render("player.html", **found)
