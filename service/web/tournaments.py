"""A tournament's page: rounds, tables and results, the ranking and its rule, the schedule; a single
elimination's bracket drawn (``bracket.py``), a round robin's or swiss's crosstable, each entrant's
rounds; for whoever may start it, a "start now" button once every entrant is there.

``?fragment=1`` answers the live part alone, which the page's script fetches again every few
seconds (a tournament has no stream of its own); ``?display=1`` is the club display for a wall
screen: big type, headings bigger still, the ranking's rule folded away, no navigation and no
link, and it keeps itself current the same way.

"Start now" posts (with the session's form token) to ``/web/tournaments/{id}/start``, which calls
the API's own use case (``usecases.tournaments.start``): its checks and refusals are the API's. A
refusal answers the page again with the API's status and the reason in the page's language.
"""

from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar import Controller, Request, Response, get, post
from litestar.response import Redirect, Template
from markupsafe import Markup

from service.domain.errors import RuleError
from service.usecases import tournaments
from service.usecases.queries.leagues import tournament_page
from service.usecases.refusals import status_of
from service.web.bracket import bracket_svg, bracket_words
from service.web.params import After, TournamentId
from service.web.render import Flag, Page, page_for
from service.web.rendered import served
from service.web.session import checked_form
from service.web.words import order_words


async def _answer(
    page: Page,
    tournament_id: UUID,
    fragment: bool = False,
    display: bool = False,
    refusal: RuleError | None = None,
    after: int | None = None,
) -> Response[bytes] | Template:
    services = page.request.app.state.services
    read = await anyio.to_thread.run_sync(tournament_page, services, tournament_id, page.actor, after)
    league = read.league
    found: dict[str, Any] = {
        "tournament": read.tournament,
        "league_name": league.name,
        "zone": league.time_zone,
        "lower": read.lower,
        "bracket": read.bracket,
        "crosstable": read.crosstable,
        "entrant_rounds": read.entrant_rounds,
        "may_start": read.may_start,
    }
    # built by xml.etree: every name in it escaped
    drawn = None if read.bracket is None else Markup(bracket_svg(read.bracket, bracket_words(page._)))
    name = "tournament_live.html" if fragment else "tournament.html"
    order = order_words(page._, found["tournament"].tie_breaks, found["lower"])
    template = page.render(name, display=display, order=order, drawn=drawn, refusal=refusal, **found)
    if refusal is not None:
        template.status_code = status_of(refusal.code)
        return template
    # the grids follow from the view: its digest stands for all three (no second encoding of them)
    shown = {key: found[key] for key in ("league_name", "zone", "lower", "may_start")} | {"view": read.digest}
    return served(page, template, shown)


class TournamentPage(Controller):
    path = "/web/tournaments"

    @get("/{tournament_id:uuid}", name="web-tournament")
    async def tournament(
        self,
        request: Request[Any, Any, Any],
        tournament_id: TournamentId,
        fragment: Flag = False,
        display: Flag = False,
        after: After = None,
    ) -> Response[bytes] | Template:
        return await _answer(await page_for(request), tournament_id, fragment, display, after=after)

    @post("/{tournament_id:uuid}/start", name="web-tournament-start", status_code=303)
    async def start(
        self, request: Request[Any, Any, Any], tournament_id: TournamentId
    ) -> Response[bytes] | Template | Redirect:
        """Start now: the API's start, for whoever it lets start; back to the page, running."""
        await checked_form(request)
        page = await page_for(request)
        if page.actor is None:
            return await _answer(page, tournament_id, refusal=RuleError("unauthorized", why="sign_admin"))
        try:
            started = await anyio.to_thread.run_sync(
                tournaments.start, request.app.state.services, page.actor, tournament_id
            )
        except RuleError as refused:
            if refused.code == "tournament_not_found":
                raise
            return await _answer(page, tournament_id, refusal=refused)
        # back to the page once the read models show the start (the pages wait for no one's writes)
        return Redirect(f"/web/tournaments/{tournament_id}?after={started.position}", status_code=303)
