"""The home page: the leagues, the tournaments running and coming, the tables being played now."""

from typing import Any

import anyio.to_thread
from litestar import Controller, Request, get
from litestar.response import Template

from service.usecases.queries.leagues import home
from service.web.render import page_for

SHOWN = 50  # of each list: the rest are a click away in the JSON lists


class HomePage(Controller):
    @get("/", name="web-home")
    async def home(self, request: Request[Any, Any, Any]) -> Template:
        page = await page_for(request)
        found = await anyio.to_thread.run_sync(home, request.app.state.services, SHOWN)
        return page.render("home.html", **vars(found))
