"""Charts as SVG images, drawn by the server (``service.projections.charts``): public, like their figures.

- ``/games/{id}/totals.svg``: a match's score progression, read as ``/totals`` is
  (from the store): a line per seat, x the round (0: before the first), y the
  seat's total after it (a total reset to 0 drawn at 0); the target score dashed, or
  the ceiling over which a seat is eliminated (101).
- ``/players/{id}/ratings.svg?league=``: the player's rating after each rated
  match of that league (the conservative value), the band from it to mu + 3
  sigma shaded, mu as a line.
- ``/leagues/{id}/progression.svg``: each member's standings points (the sum of
  their match totals) after each of their finished matches of the league.
"""

from typing import Annotated
from uuid import UUID

from litestar import Response, get
from litestar.openapi.spec import Example
from litestar.params import Parameter

from service.domain.rulesets import Ruleset
from service.http.controller import ApiController
from service.http.params import LEAGUE_ID, After, AfterMet, GameId, LeagueId, PlayerId
from service.http.routes import file_route
from service.http.services import ReadingDep, ServicesDep
from service.projections.charts import Band, Guide, Line, goal_of, line_chart
from service.usecases.queries import charts

SVG = "image/svg+xml"
CHART = file_route(SVG, "an SVG image", 404)  # what every chart's route answers

LeagueOfRatings = Annotated[
    UUID,
    Parameter(
        description="the league whose ratings to draw (a player has one rating per league)",
        examples=[Example(summary="a league", value=LEAGUE_ID)],
    ),
]


def _svg(drawn: str) -> Response[str]:
    return Response(drawn, media_type=SVG)


def _guides(rules: Ruleset) -> list[Guide]:
    """The dashed line a match's totals run towards (``goal_of``), named."""
    goal = goal_of(rules)
    if goal is None:
        return []
    kind, total = goal
    return [Guide(f"out over {total}" if kind == "out_over" else f"target {total}", total)]


class ChartController(ApiController, tag="charts"):
    @get(
        "/games/{game_id:uuid}/totals.svg",
        operation_id="getGameTotalsChart",
        summary="A match's score progression as an SVG chart (public)",
        description="A line per seat (x: the round, 0 before the first; y: the seat's total after it), "
        "the target score dashed, a legend of the seats' names. With no round played yet, the empty "
        "chart says so.",
        **CHART,
    )
    def totals(self, services: ServicesDep, game_id: GameId, after: AfterMet = None) -> Response[str]:
        found = charts.match_totals(services, game_id)
        return _svg(
            line_chart(
                f"Score by round ({found.ruleset})",
                "round",
                "total",
                _lines(found.seats) if found.played else [],
                guides=_guides(found.rules),
                empty="no rounds yet",
            )
        )

    @get(
        "/players/{player_id:uuid}/ratings.svg",
        operation_id="getPlayerRatingsChart",
        summary="A player's rating history in a league as an SVG chart (public; read model)",
        description="After each rated match of the league: the conservative rating (mu - 3 sigma) as "
        "a line, mu as another, the band between the rating and mu + 3 sigma shaded. With no rated "
        "match yet, the empty chart says so.",
        **CHART,
    )
    def ratings(
        self, services: ServicesDep, player_id: PlayerId, league: LeagueOfRatings, after: After = None
    ) -> Response[str]:
        found = charts.ratings(services, player_id, league, after)
        numbered = list(enumerate(found.history, 1))
        rating = Line("rating (mu - 3 sigma)", [(n, row.rating) for n, row in numbered])
        mu = Line("mu", [(n, row.mu) for n, row in numbered])
        band = Band("mu ± 3 sigma", rating.points, [(n, row.mu + 3 * row.sigma) for n, row in numbered])
        return _svg(
            line_chart(
                f"{found.player}: rating in {found.league}",
                "rated match",
                "rating",
                [rating, mu] if found.history else [],
                bands=[band] if found.history else [],
                empty="no rated matches yet",
            )
        )

    @get(
        "/leagues/{league_id:uuid}/progression.svg",
        operation_id="getLeagueProgressionChart",
        summary="Each member's standings points, match by match, as an SVG chart (public; read model)",
        description="A line per member, in the standings' order: x the member's finished matches of "
        "the league (0 before the first), y their points (the sum of their match totals) after it.",
        **CHART,
    )
    def progression(self, league_id: LeagueId, reading: ReadingDep) -> Response[str]:
        members = reading.run(charts.progression, league_id)
        played = any(len(member.points) > 1 for member in members)
        return _svg(
            line_chart(
                "Standings points by match",
                "matches played",
                "points",
                _lines(members) if played else [],
                empty="no finished matches yet",
            )
        )


def _lines(series: list[charts.Series]) -> list[Line]:
    """A line each, x counted from 0 (before the first round or match)."""
    return [Line(one.name, list(enumerate(one.points))) for one in series]
