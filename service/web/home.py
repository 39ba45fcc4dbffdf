"""The home page: the leagues, the tournaments running and coming, the tables being played now."""

from typing import Any

import anyio.to_thread
from litestar import Controller, Request, get
from litestar.response import Template

from service.usecases.services import Services
from service.web.render import page_for
from service.web.zones import league_zones

SHOWN = 50  # of each list: the rest are a click away in the JSON lists


def _home(services: Services) -> dict[str, Any]:
    reader = services.reader
    running = reader.tournament_list(None, "running", None, SHOWN)[0]
    coming = reader.tournament_list(None, "announced", None, SHOWN)[0]
    return {
        "leagues": reader.leagues(None, SHOWN)[0],
        "running": running,
        "coming": coming,
        "tables": reader.games(None, None, "playing", None, SHOWN)[0],
        "zones": league_zones(services, (t.league_id for t in coming)),
    }


class HomePage(Controller):
    include_in_schema = False

    @get("/", name="web-home")
    async def home(self, request: Request[Any, Any, Any]) -> Template:
        page = await page_for(request)
        found = await anyio.to_thread.run_sync(_home, request.app.state.services)
        return page.render("home.html", **found)
