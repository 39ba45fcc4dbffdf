"""A tournament's page: rounds, tables and results, the ranking and its rule, the schedule.

``?fragment=1`` answers the live part alone, which the page's script fetches again every few
seconds (a tournament has no stream of its own); ``?display=1`` is the club display for a wall
screen: big type, no navigation, and it keeps itself current the same way.
"""

from typing import Any

import anyio.to_thread
from litestar import Controller, Request, Response, get
from litestar.response import Template

from service.usecases.queries.leagues import tournament_page
from service.web.params import TournamentId
from service.web.render import Flag, page_for
from service.web.rendered import served
from service.web.words import order_words


class TournamentPage(Controller):
    path = "/web/tournaments"

    @get("/{tournament_id:uuid}", name="web-tournament")
    async def tournament(
        self,
        request: Request[Any, Any, Any],
        tournament_id: TournamentId,
        fragment: Flag = False,
        display: Flag = False,
    ) -> Response[bytes] | Template:
        page = await page_for(request)
        read = await anyio.to_thread.run_sync(tournament_page, request.app.state.services, tournament_id)
        league = read.league
        found: dict[str, Any] = {
            "tournament": read.tournament,
            "league_name": league.name,
            "zone": league.time_zone,
            "lower": read.lower,
        }
        name = "tournament_live.html" if fragment else "tournament.html"
        order = order_words(page._, found["tournament"].tie_breaks, found["lower"])
        return served(page, page.render(name, display=display, order=order, **found), found)
