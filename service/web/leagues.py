"""A league's page: standings with their tie-breaks and ratings, members, tournaments past and coming."""

from typing import Any

import anyio.to_thread
from litestar import Controller, Request, Response, get
from litestar.response import Template

from service.usecases.queries.leagues import LeaguePage as Found
from service.usecases.queries.leagues import league_page
from service.web.params import LeagueId
from service.web.render import page_for
from service.web.rendered import served
from service.web.words import order_words


def _league(found: Found) -> dict[str, Any]:
    league = found.league
    facts = {"league_id": league.id, "name": league.name, "ruleset": league.ruleset_name}
    return {
        "league": {**facts, "time_zone": league.time_zone},
        "standings": found.standings,
        "members": found.members,
        "past": found.past,
        "coming": found.coming,
        "mao_matches": found.mao_matches,
    }


class LeaguePage(Controller):
    path = "/web/leagues"

    @get("/{league_id:uuid}", name="web-league")
    async def league(
        self, request: Request[Any, Any, Any], league_id: LeagueId
    ) -> Response[bytes] | Template:
        page = await page_for(request)
        found = _league(await anyio.to_thread.run_sync(league_page, request.app.state.services, league_id))
        lower = found["standings"].order == "lowest_points"
        template = page.render(
            "league.html", order=order_words(page._, found["standings"].tie_breaks, lower), **found
        )
        return served(page, template, found)
