"""Leagues: a ruleset and its options for all their games, a turn clock and its forfeit rule, a time
zone, members, referees, standings (every member, in the order the answer states: docs/standings.md);
the standings as CSV and the schedule as an iCalendar feed (docs/exports.md)."""

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Response, delete, get, post
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.spec import Example
from litestar.params import Body

from service.domain.clock import FORFEIT_AFTER
from service.domain.league import League
from service.domain.time_zone import DEFAULT_TIME_ZONE
from service.http.calls import Method, handler, looks_up, public_read
from service.http.controller import ApiController
from service.http.encode import encode
from service.http.exports import csv_read
from service.http.page_read import Listing
from service.http.pages import Next, PageDep
from service.http.params import LEAGUE_ID, PLAYER_ID, REFEREE_ID, LeagueId, PlayerId, RefereeId
from service.http.players import StoredLeagueName
from service.http.routes import RouteArgs, admin_route, file_route, public_route
from service.http.services import Caller, CallerDep, ReadingDep, ServicesDep
from service.projections.models import LeagueRatingsRead, ListedLeague, Standing, Standings
from service.projections.schedule import schedule
from service.usecases import leagues
from service.usecases.leagues import (
    ForfeitAfter,
    LeagueCreate,
    LeagueRefereeCreate,
    MemberCreate,
    TimeZone,
    TurnClock,
)
from service.usecases.preset_schema import LeagueRulesetName
from service.usecases.queries import leagues as league_queries
from service.usecases.queries import lists
from service.usecases.queries import tournaments as tournament_queries
from service.usecases.services import Services

CALENDAR = "text/calendar"  # litestar adds "; charset=utf-8" to a text/* media type


class LeagueRead(msgspec.Struct, frozen=True, kw_only=True):
    league_id: Annotated[UUID, msgspec.Meta(examples=[LEAGUE_ID])]
    name: StoredLeagueName
    ruleset: LeagueRulesetName
    options: Annotated[dict[str, int | bool], msgspec.Meta(examples=[{"target_score": 150}])]  # as founded
    members: Annotated[list[UUID], msgspec.Meta(examples=[[PLAYER_ID]])]
    referees: Annotated[list[str], msgspec.Meta(examples=[[REFEREE_ID]])]
    turn_clock: TurnClock | None = None
    forfeit_after: ForfeitAfter = FORFEIT_AFTER
    time_zone: TimeZone = DEFAULT_TIME_ZONE
    names: Annotated[
        dict[str, str],
        msgspec.Meta(
            description="each member's and referee's name, by their id, as the names are now",
            examples=[{PLAYER_ID: "Ada", REFEREE_ID: "Rita"}],
        ),
    ] = msgspec.field(default_factory=dict)


class LeagueListRead(msgspec.Struct, frozen=True, kw_only=True):
    items: list[ListedLeague]  # by name, then id
    next: Next
    position: int


LEAGUES = Listing(LeagueListRead, "leagues", tuple[str, UUID], lists.LEAGUES)


def league_read(services: Services, league: League) -> LeagueRead:
    return encode(
        LeagueRead,
        league,
        league_id=league.id,
        ruleset=league.ruleset_name,
        options=dict(league.options),
        members=list(league.members),
        referees=list(league.referees),
        names=league_queries.names(services, league),
    )


LeagueBody = Annotated[
    LeagueCreate,
    Body(
        examples=[
            Example(
                summary="a club league to 150",
                value={"name": "Thursday club", "ruleset": "club", "options": {"target_score": 150}},
            )
        ]
    ),
]

MemberBody = Annotated[
    MemberCreate, Body(examples=[Example(summary="a player", value={"player_id": PLAYER_ID})])
]

LeagueRefereeBody = Annotated[
    LeagueRefereeCreate,
    Body(examples=[Example(summary="a referee", value={"referee_id": REFEREE_ID})]),
]


def _change(
    method: Method,
    path: str,
    operation_id: str,
    summary: str,
    route: RouteArgs,
    use_case: Callable[..., League],
    taken: tuple[str, Any],
) -> HTTPRouteHandler:
    """A change to a league's members or referees at ``path`` below it, taking one more parameter
    (``taken``: its name and type), answered with the league as it is right after it."""
    name, hint = taken

    def change(caller: Caller, league_id: UUID, **more: Any) -> LeagueRead:
        return league_read(caller.services, caller.run(use_case, league_id, more[name]))

    params = {"caller": CallerDep, "league_id": LeagueId, name: hint}
    return method(f"/{{league_id:uuid}}{path}", operation_id=operation_id, summary=summary, **route)(
        handler(use_case.__name__, params, LeagueRead, change)
    )


class LeagueController(ApiController, path="/leagues", tag="leagues"):
    @post(
        operation_id="createLeague",
        summary="Found a league with a ruleset and its options (admin)",
        **admin_route(422, 415),
    )
    def create(self, caller: CallerDep, data: LeagueBody) -> LeagueRead:
        return league_read(caller.services, caller.run(leagues.found_league, data))

    list_leagues = get(
        operation_id="listLeagues",
        summary="Leagues by name, a page at a time (public; read model)",
        **public_route(422),
    )(looks_up(LEAGUES.page, LeagueListRead, page=PageDep))

    @get(
        "/{league_id:uuid}",
        operation_id="getLeague",
        summary="A league: its ruleset, options, members and referees (public)",
        **public_route(404, reads_store=True),
    )
    def read(self, services: ServicesDep, league_id: LeagueId) -> LeagueRead:
        return league_read(services, league_queries.league(services, league_id))

    add_member = _change(
        post,
        "/members",
        "addLeagueMember",
        "Admit a player to a league (admin); an erased player is 410",
        admin_route(404, 409, 410, 415),
        leagues.admit_member,
        ("data", MemberBody),
    )
    remove_member = _change(
        delete,
        "/members/{player_id:uuid}",
        "removeLeagueMember",
        "Remove a member from a league (admin); their games and standings stay",
        admin_route(404, status_code=200),
        leagues.remove_member,
        ("player_id", PlayerId),
    )
    add_referee = _change(
        post,
        "/referees",
        "addLeagueReferee",
        "Appoint a referee to a league (admin)",
        admin_route(404, 409, 415),
        leagues.appoint_referee,
        ("data", LeagueRefereeBody),
    )
    dismiss_referee = _change(
        delete,
        "/referees/{referee_id:uuid}",
        "dismissLeagueReferee",
        "Take a referee off a league (admin); they rule on its games no more, their rulings stay",
        admin_route(404, status_code=200),
        leagues.dismiss_referee,
        ("referee_id", RefereeId),
    )

    standings = public_read(
        "/{league_id:uuid}/standings",
        "getLeagueStandings",
        "A league's standings (public; read model)",
        league_queries.standings,
        Standings,
        "Every member, ranked by their finished matches (tie_breaks, rule); a member "
        "without a finished match comes after every ranked one, with zeros and rank null.",
        league_id=LeagueId,
    )

    standings_csv = csv_read(
        "/{league_id:uuid}/standings.csv",
        "getLeagueStandingsCsv",
        "A league's standings as CSV, for a spreadsheet (public; read model)",
        "A header row, then one row per member in rank order, with the fields and figures "
        "of the JSON standings' rows (a rating left empty while there is none, the rank left empty for a "
        "member without a finished match).",
        "standings'",
        league_queries.standings,
        Standing,
        league_id=LeagueId,
    )

    # public, as a phone that subscribes sends no token; the league (its name and time zone) comes
    # from the store, its tournaments from the read model, and ``service.projections.schedule`` says
    # which rounds have a time
    @get(
        "/{league_id:uuid}/schedule.ics",
        operation_id="getLeagueSchedule",
        summary="A league's schedule as an iCalendar feed, to subscribe to (public; read model)",
        description="A VEVENT per tournament round whose start time is known, in UTC, with a UID "
        "that stays the same from one fetch to the next; a cancelled tournament's rounds are "
        "STATUS:CANCELLED. X-WR-TIMEZONE names the league's time zone (docs/exports.md).",
        **file_route(CALENDAR, "the schedule as iCalendar (RFC 5545, UTF-8)", 404),
    )
    def schedule(self, league_id: LeagueId, reading: ReadingDep) -> Response[str]:
        found = reading.run(tournament_queries.of_league, league_id)  # 404 league_not_found
        league = found.league
        feed = schedule(league.id, league.name, league.time_zone, found.tournaments, datetime.now(UTC))
        return Response(feed.decode(), media_type=CALENDAR)

    ratings = public_read(
        "/{league_id:uuid}/ratings",
        "getLeagueRatings",
        "A league's ratings, the highest first (public; read model)",
        league_queries.ratings,
        LeagueRatingsRead,
        league_id=LeagueId,
    )
