"""A league's page: standings with their tie-breaks and ratings, members, tournaments past and coming."""

from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar import Controller, Request, Response, get
from litestar.response import Template

from service.domain.errors import RuleError
from service.usecases.services import Services
from service.web import fresh
from service.web.params import LeagueId
from service.web.render import page_for
from service.web.rendered import served
from service.web.words import order_words

OVER = ("finished", "cancelled")


def _league(services: Services, league_id: UUID) -> dict[str, Any]:
    league = fresh.league(services, league_id)
    standings = services.reader.standings(league_id)
    if standings is None:  # not yet in the read models: as the API says it
        raise RuleError("league_not_found", "no such league")
    tournaments = services.reader.tournaments(league_id)
    # the members' names as the standings have them (a row for each): no query of their own
    named = {row.player_id: row.name for row in standings.rows}
    facts = {"league_id": league.id, "name": league.name, "ruleset": league.ruleset_name}
    return {
        "league": {**facts, "time_zone": league.time_zone},
        "standings": standings,
        "members": sorted(named.get(member, str(member)) for member in league.members),
        "past": [t for t in tournaments if t.status in OVER],
        "coming": [t for t in tournaments if t.status not in OVER],
    }


class LeaguePage(Controller):
    path = "/web/leagues"
    include_in_schema = False

    @get("/{league_id:uuid}", name="web-league")
    async def league(
        self, request: Request[Any, Any, Any], league_id: LeagueId
    ) -> Response[bytes] | Template:
        page = await page_for(request)
        found = await anyio.to_thread.run_sync(_league, request.app.state.services, league_id)
        lower = found["standings"].order == "lowest_points"
        template = page.render(
            "league.html", order=order_words(page._, found["standings"].tie_breaks, lower), **found
        )
        return served(page, template, found)
