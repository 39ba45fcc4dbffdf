"""A tournament's results, for a club's files: the bracket's figures as rows, in JSON and as CSV.

Public like the bracket (``GET /tournaments/{id}``), from the same read model:
one row per seat per table and one per bye (``service.projections.results``);
docs/exports.md lists the columns.
"""

from litestar import Response, get

from service.http.controller import ApiController
from service.http.exports import CSV, csv_of
from service.http.routes import file_route, public_route
from service.http.services import ReadingDep
from service.http.tournaments import TournamentId
from service.projections.results import ResultRow, TournamentResultsRead
from service.usecases.queries import tournaments as tournament_queries


class TournamentResultsController(ApiController, path="/tournaments/{tournament_id:uuid}", tag="tournaments"):
    @get(
        "/results.json",
        operation_id="getTournamentResults",
        summary="A tournament's results: a row per seat per table and per bye, and the ranking "
        "(public; read model)",
        **public_route(404),
    )
    def json(self, tournament_id: TournamentId, reading: ReadingDep) -> TournamentResultsRead:
        return reading.run(tournament_queries.results, tournament_id)

    @get(
        "/results.csv",
        operation_id="getTournamentResultsCsv",
        summary="A tournament's results as CSV, for a spreadsheet (public; read model)",
        description="A header row, then one row per seat per table and one per bye, by round, with "
        "the fields and figures of the JSON results' rows (an empty cell where a figure is not known "
        "yet).",
        **file_route(CSV, "the results' rows as CSV (RFC 4180, UTF-8)", 404),
    )
    def csv(self, tournament_id: TournamentId, reading: ReadingDep) -> Response[str]:
        return Response(
            csv_of(ResultRow, reading.run(tournament_queries.results, tournament_id).rows), media_type=CSV
        )
