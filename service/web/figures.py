"""The charts and the printable score sheets the pages show, in the page's language.

The API draws the same figures in English (``GET /games/{id}/totals.svg``, ``/leagues/{id}/progression.svg``,
``/tournaments/{id}/rounds/{n}/sheets``); the pages link these addresses instead, which read the
same queries and draw with the same code (``service.projections.charts``, ``.sheets``), in the
language a page picks (``?lang=``, the cookie, ``Accept-Language``: the pages pass ``?lang=``, so an
image is in its page's language even before the cookie is set). A name (a player's, a league's)
stays as it was written.
"""

from typing import Annotated, Any

import anyio.to_thread
import msgspec
from litestar import Controller, Request, Response, get
from litestar.params import Parameter

from service.domain.rulesets import Ruleset
from service.projections import sheets
from service.projections.charts import Guide, Line, goal_of, line_chart
from service.usecases.queries import charts
from service.usecases.queries.tournaments import round_to_print
from service.web.i18n import Translate
from service.web.params import GameId, LeagueId, TournamentId
from service.web.render import Page
from service.web.rule_words import entrant_name, ruleset_name

SVG = "image/svg+xml"
HTML = "text/html"
RoundNo = Annotated[int, Parameter(description="the tournament's round, from 1")]  # refused as the API does


def _lines(_: Translate, series: list[charts.Series]) -> list[Line]:
    return [Line(one.name, list(enumerate(one.points))) for one in series]


def _guides(_: Translate, rules: Ruleset) -> list[Guide]:
    goal = goal_of(rules)
    if goal is None:
        return []
    kind, total = goal
    name = _("out over {total}", total=total) if kind == "out_over" else _("target {total}", total=total)
    return [Guide(name, total)]


def totals_chart(_: Translate, found: charts.MatchTotals) -> str:
    return line_chart(
        _("Score by round ({ruleset})", ruleset=ruleset_name(_, found.ruleset)),
        _("round"),
        _("total"),
        _lines(_, found.seats) if found.played else [],
        guides=_guides(_, found.rules),
        empty=_("no rounds yet"),
    )


def progression_chart(_: Translate, members: list[charts.Series]) -> str:
    played = any(len(member.points) > 1 for member in members)
    return line_chart(
        _("Standings points by match"),
        _("matches played"),
        _("points"),
        _lines(_, members) if played else [],
        empty=_("no finished matches yet"),
    )


class FigurePages(Controller):
    path = "/web"

    @get("/games/{game_id:uuid}/totals.svg", name="web-totals-chart")
    async def totals(self, request: Request[Any, Any, Any], game_id: GameId) -> Response[str]:
        _ = Page(request, None)._
        found = await anyio.to_thread.run_sync(charts.match_totals, request.app.state.services, game_id)
        return Response(totals_chart(_, found), media_type=SVG)

    @get("/leagues/{league_id:uuid}/progression.svg", name="web-progression-chart")
    async def progression(self, request: Request[Any, Any, Any], league_id: LeagueId) -> Response[str]:
        _ = Page(request, None)._
        members = await anyio.to_thread.run_sync(charts.progression, request.app.state.services, league_id)
        return Response(progression_chart(_, members), media_type=SVG)

    @get("/tournaments/{tournament_id:uuid}/rounds/{round_no:int}/sheets", name="web-sheets")
    async def sheets(
        self, request: Request[Any, Any, Any], tournament_id: TournamentId, round_no: RoundNo
    ) -> Response[str]:
        page = Page(request, None)
        _ = page._
        services = request.app.state.services
        found = await anyio.to_thread.run_sync(round_to_print, services, tournament_id, round_no)
        view = found.view
        entrants = {e for played in view.rounds for table in played.tables for e in table.entrants}
        named = {entrant: entrant_name(_, entrant, view.names) for entrant in entrants}
        drawn = sheets.page(
            msgspec.structs.replace(view, names=named),
            round_no,
            found.rules,
            _,
            ruleset=ruleset_name(_, found.rules.name),
            lang=page.language,
        )
        # the service's policy, with the sheets' own style let in by its hash (the app hands it in)
        policy = f"{request.app.state.content_security_policy}; {sheets.STYLE_SOURCE}"
        return Response(drawn, media_type=HTML, headers={"Content-Security-Policy": policy})
