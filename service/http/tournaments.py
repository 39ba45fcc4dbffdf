"""Tournaments: announced in a league, joined and left before the start, started; their brackets,
score sheets and results.

An admin announces a tournament with its plan (``service.domain.tournament.Plan``)
and starts it by hand, or the workers' tick starts it at ``starts_at``; a
league member joins and leaves for themself, an admin for any member, until it
starts. Reads come from the tournaments read model and, like every read, take
``?after=`` a position and say theirs. A write answers the tournament as it is
right after it, drawn as the read model draws it, with the log ``position`` to
read it after.

Before the start an admin may edit the name, the schedule, the places, the
table size, the use of ratings (seeding, tie-break) and the tables played in person (``PATCH``); an
entrant checks in (``check-in``) in the plan's window; while a swiss or round robin runs an entrant
drops out (``drop-out``); an admin cancels a tournament at any time before its end, its games in play
abandoned (``docs/tournaments.md``).

A player's next game is the tournament table they play now, else the next one
paired for them, else (their table of a round is over, the round's last tables
are still played) the round to be paired next, ``pending``, with its time when
the plan fixes one; 404 ``next_game_not_found`` when there is none.
"""

from collections.abc import Callable
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Response, delete, get, patch, post
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.spec import Example
from litestar.params import Body, Parameter

from service.http import sheets
from service.http.calls import Method, calls, public_read
from service.http.controller import ApiController
from service.http.exports import csv_read
from service.http.page_read import Listing
from service.http.pages import (
    Next,
)
from service.http.params import PLAYER_ID, After, LeagueId, PlayerId
from service.http.routes import RouteArgs, admin_route, file_route, public_route, signed_in_route
from service.http.services import ServicesDep
from service.projections import sheets as drawn_sheets
from service.projections.models import ListedTournament, NextGame, TournamentView
from service.projections.results import ResultRow, TournamentResultsRead
from service.usecases import tournaments
from service.usecases.queries import leagues as league_queries
from service.usecases.queries import lists
from service.usecases.queries import players as player_queries
from service.usecases.queries import tournaments as tournament_queries
from service.usecases.tournaments import Cancellation, EntrantCreate, TournamentCreate, TournamentEdit

TOURNAMENT_ID = "7e3a9c51-0b4d-4f2e-9a6c-8d1f3b5e7a90"

TournamentId = Annotated[
    UUID,
    Parameter(
        description="the tournament's id", examples=[Example(summary="a tournament", value=TOURNAMENT_ID)]
    ),
]


# the body of a check-in and of a drop-out: who
EntrantBody = Annotated[
    EntrantCreate, Body(examples=[Example(summary="an entrant", value={"player_id": PLAYER_ID})])
]


class TournamentList(msgspec.Struct, frozen=True, kw_only=True):
    league_id: UUID
    tournaments: list[TournamentView]  # in the order they were announced
    position: Annotated[int, msgspec.Meta(examples=[4711], description="how far the read models were")]


CREATE_EXAMPLES = [
    Example(
        summary="a swiss of three rounds at 4-seat tables, bots filling 16 places",
        value={
            "name": "Autumn cup",
            "format": "swiss",
            "table_size": 4,
            "rounds": 3,
            "starts_at": "2026-12-05T18:00:00+01:00",
            "interval": 1800,
            "single_round": True,
            "turn_clock": 60,
            "places": 16,
        },
    ),
    Example(
        summary="a single elimination to 100 points, started by hand",
        value={"name": "Knockout", "format": "single_elimination", "table_size": 3, "target_score": 100},
    ),
]


class TournamentListRead(msgspec.Struct, frozen=True, kw_only=True):
    items: list[ListedTournament]  # the latest announced first
    next: Next
    position: int


TOURNAMENTS = Listing(TournamentListRead, "tournaments", int, lists.TOURNAMENTS)
TOURNAMENT_STATUSES = ("announced", "running", "finished", "cancelled")
RoundNo = Annotated[
    int,
    Parameter(description="the round, from 1", examples=[Example(summary="the first round", value=1)]),
]


JoinBody = Annotated[
    EntrantCreate, Body(examples=[Example(summary="a member", value={"player_id": PLAYER_ID})])
]

TournamentEditBody = Annotated[
    TournamentEdit,
    Body(examples=[Example(summary="a later start", value={"starts_at": "2026-12-05T19:00:00+01:00"})]),
]

CancellationBody = Annotated[
    Cancellation, Body(examples=[Example(summary="a reason", value={"reason": "the hall is closed"})])
]

TournamentBody = Annotated[TournamentCreate, Body(examples=CREATE_EXAMPLES)]


# a check-in's or drop-out's route: the entrant themself or an admin; answered 200 (no resource made)
ENTRANT_COMMAND = signed_in_route(403, 404, 409, 422, 415, status_code=200)


def _command(
    method: Method,
    path: str,
    operation_id: str,
    summary: str,
    route: RouteArgs,
    use_case: Callable[..., TournamentView],
    body: Any = None,
    description: str | None = None,
) -> HTTPRouteHandler:
    """A write on one tournament at ``path`` below it, with ``body`` (its type, with its examples;
    None: none), answered with the tournament as it is right after it."""
    params = (
        {"tournament_id": TournamentId} if body is None else {"tournament_id": TournamentId, "data": body}
    )
    return method(
        f"/tournaments/{{tournament_id:uuid}}{path}",
        operation_id=operation_id,
        summary=summary,
        description=description,
        **route,
    )(calls(use_case, TournamentView, **params))


class TournamentController(ApiController, tag="tournaments"):
    create = post(
        "/leagues/{league_id:uuid}/tournaments",
        operation_id="createTournament",
        summary="Announce a tournament of a league with its plan (admin)",
        **admin_route(404, 422, 415),
    )(calls(tournaments.announce, TournamentView, league_id=LeagueId, data=TournamentBody))

    @get(
        "/leagues/{league_id:uuid}/tournaments",
        operation_id="listLeagueTournaments",
        summary="A league's tournaments with their brackets, in the order announced (public; read model)",
        **public_route(404),
    )
    def league_tournaments(
        self, services: ServicesDep, league_id: LeagueId, after: After = None
    ) -> TournamentList:
        found = tournament_queries.of_league(services, league_id, after)
        return TournamentList(league_id=league_id, tournaments=found.tournaments, position=found.position)

    list_tournaments = get(
        "/tournaments",
        operation_id="listTournaments",
        summary="Tournaments, the latest announced first, a page at a time; by league or status "
        "(public; read model)",
        **public_route(422),
    )(TOURNAMENTS.by_league_and_status("tournaments", TOURNAMENT_STATUSES))

    read = public_read(
        "/tournaments/{tournament_id:uuid}",
        "getTournament",
        "The bracket: every round, table and result, and the ranking so far (public; read model)",
        league_queries.tournament,
        TournamentView,
        tournament_id=TournamentId,
    )

    # the results, for a club's files: the bracket's figures as rows, from the same read model, one
    # per seat per table and one per bye (``service.projections.results``; docs/exports.md's columns)
    results = public_read(
        "/tournaments/{tournament_id:uuid}/results.json",
        "getTournamentResults",
        "A tournament's results: a row per seat per table and per bye, and the ranking (public; read model)",
        tournament_queries.results,
        TournamentResultsRead,
        tournament_id=TournamentId,
    )

    results_csv = csv_read(
        "/tournaments/{tournament_id:uuid}/results.csv",
        "getTournamentResultsCsv",
        "A tournament's results as CSV, for a spreadsheet (public; read model)",
        "A header row, then one row per seat per table and one per bye, by round, with "
        "the fields and figures of the JSON results' rows (an empty cell where a figure is not known "
        "yet).",
        "results'",
        tournament_queries.results,
        ResultRow,
        tournament_id=TournamentId,
    )

    @get(
        "/tournaments/{tournament_id:uuid}/rounds/{round_no:int}/sheets",
        operation_id="getTournamentRoundSheets",
        summary="Printable score sheets of a round, one page a table (public; from the event store)",
        description="An HTML page to print: per table the seats and names in order, a grid for each "
        "round's points and the totals, signatures, the ruleset's card values and match end. A round "
        "not paired yet (or a tournament not started) is 404 `no_such_round`.",
        **file_route(sheets.HTML, "the score sheets as HTML, one printed page per table", 404),
    )
    def round_sheets(
        self, services: ServicesDep, tournament_id: TournamentId, round_no: RoundNo
    ) -> Response[str]:
        found = tournament_queries.round_to_print(services, tournament_id, round_no)
        page = drawn_sheets.page(found.view, round_no, found.rules)
        return Response(page, media_type=sheets.HTML, headers={"Content-Security-Policy": sheets.POLICY})

    join = _command(
        post,
        "/entrants",
        "joinTournament",
        "Join a tournament before it starts (a member for themself; an admin for any member)",
        signed_in_route(403, 404, 409, 410, 422, 415),
        tournaments.join,
        JoinBody,
    )
    leave = delete(
        "/tournaments/{tournament_id:uuid}/entrants/{player_id:uuid}",
        operation_id="leaveTournament",
        summary="Leave a tournament before it starts (the player themself; an admin for any entrant)",
        **signed_in_route(403, 404, 409, 422, status_code=200),
    )(calls(tournaments.leave, TournamentView, tournament_id=TournamentId, player_id=PlayerId))
    start = _command(
        post,
        "/start",
        "startTournament",
        "Start a tournament now: entries close, bots take empty places, round 1 is paired (admin)",
        admin_route(404, 409, 422, status_code=200),
        tournaments.start,
        description="Round 1's games begin at once, even before the plan's `starts_at`: the schedule (the "
        "view's `starts_at`, each round's `due_at`) then counts from now. A plan seeding or breaking ties "
        "by rating records each player's league rating now.",
    )
    edit = _command(
        patch,
        "",
        "editTournament",
        "Edit a tournament before it starts: name, schedule, places, table size, ratings, in-person "
        "tables (admin)",
        admin_route(404, 409, 422, 415),
        tournaments.edit,
        TournamentEditBody,
    )
    cancel = _command(
        post,
        "/cancel",
        "cancelTournament",
        "Cancel a tournament before its end; its games in play are abandoned (admin)",
        admin_route(404, 409, 422, 415, status_code=200),
        tournaments.cancel,
        CancellationBody,
        description="An abandoned game counts for nobody: no result, no standings; its moves are refused.",
    )
    check_in = _command(
        post,
        "/check-in",
        "checkInToTournament",
        "Check in during the plan's window before the start (a player for themself; an admin)",
        ENTRANT_COMMAND,
        tournaments.check_in,
        EntrantBody,
    )
    drop_out = _command(
        post,
        "/drop-out",
        "dropOutOfTournament",
        "Drop out of a running swiss or round robin; later rounds pair without them (the player themself; "
        "an admin)",
        ENTRANT_COMMAND,
        tournaments.drop_out,
        EntrantBody,
    )

    next_game = public_read(
        "/players/{player_id:uuid}/next-game",
        "getPlayerNextGame",
        "The tournament table a player plays now, else their next one or round (public; read model)",
        player_queries.next_game,
        NextGame,
        player_id=PlayerId,
    )
