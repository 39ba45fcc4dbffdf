"""The home page's lists and a league's page: standings, members, tournaments past and coming; a
league's standings and ratings and a tournament's bracket, as the pages and the API read them."""

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple, TypeVar
from uuid import UUID

import msgspec

from service.application import credentials
from service.domain.errors import RuleError
from service.domain.league import League
from service.domain.mao.league import MAO
from service.domain.roles import Actor
from service.domain.time_zone import DEFAULT_TIME_ZONE
from service.projections.models import (
    LeagueRatingsRead,
    ListedGame,
    ListedLeague,
    ListedMaoMatch,
    ListedTournament,
    Standings,
    TournamentView,
)
from service.usecases import policy
from service.usecases.consistency import caught_up
from service.usecases.context import Context
from service.usecases.queries import aggregates, brackets, crosstables
from service.usecases.queries.brackets import Bracket
from service.usecases.queries.crosstables import Crosstable, EntrantRounds

T = TypeVar("T")
OVER = ("finished", "cancelled")
SIGN_IN_LEAGUES = 500  # the most leagues the sign-in page offers


def time_zones(context: Context, league_ids: Iterable[UUID | None]) -> dict[UUID | None, str]:
    """The time zone each time on a page is shown in: its league's (UTC for a friendly game)."""
    zones: dict[UUID | None, str] = {None: DEFAULT_TIME_ZONE}
    for league_id in {found for found in league_ids if found is not None}:
        zones[league_id] = aggregates.league(context, league_id).time_zone
    return zones


@dataclass(frozen=True)
class Home:
    leagues: list[ListedLeague]
    running: list[ListedTournament]
    coming: list[ListedTournament]
    tables: list[ListedGame]  # being played now
    zones: dict[UUID | None, str]


def home(context: Context, shown: int) -> Home:
    """The first ``shown`` of each list (the rest are a click away in the API's lists)."""
    reader = context.reader
    coming = reader.tournament_list(None, "announced", None, shown)[0]
    return Home(
        leagues=reader.leagues(None, shown)[0],
        running=reader.tournament_list(None, "running", None, shown)[0],
        coming=coming,
        tables=reader.games(None, None, "playing", None, shown)[0],
        zones=time_zones(context, (t.league_id for t in coming)),
    )


@dataclass(frozen=True)
class LeaguePage:
    league: League
    standings: Standings
    members: list[str]  # their names, sorted
    past: list[TournamentView]
    coming: list[TournamentView]
    mao_matches: list[ListedMaoMatch] = field(default_factory=list)  # a Mao league's, the newest first


MAO_MATCHES_SHOWN = 50


def league_page(context: Context, league_id: UUID) -> LeaguePage:
    league = aggregates.league(context, league_id)
    found = standings(context, league_id)
    tournaments = context.reader.tournaments(league_id)
    # the members' names as the standings have them (a row for each): no query of their own
    named = {row.player_id: row.name for row in found.rows}
    return LeaguePage(
        league=league,
        standings=found,
        members=sorted(named.get(member, str(member)) for member in league.members),
        past=[t for t in tournaments if t.status in OVER],
        coming=[t for t in tournaments if t.status not in OVER],
        mao_matches=(
            context.reader.mao_games(league_id, None, None, MAO_MATCHES_SHOWN)[0]
            if league.ruleset_name == MAO
            else []
        ),
    )


@dataclass(frozen=True)
class TournamentPage:
    tournament: TournamentView
    league: League
    lower: bool  # the lowest total wins a match
    bracket: Bracket | None  # a single elimination's
    crosstable: Crosstable | None  # a round robin's or a swiss's
    entrant_rounds: list[EntrantRounds]
    may_start: bool  # the asker may start it now: every entrant is there, and they may start it
    # the view's content (its position left out): the same digest, the same bracket and crosstable
    digest: bytes


class Grids(NamedTuple):
    """A tournament view's bracket, crosstable and entrants' rounds, made once per content."""

    digest: bytes
    bracket: Bracket | None
    crosstable: Crosstable | None
    played: list[EntrantRounds]


DRAWN_KEPT = 64  # tournaments whose grids are kept per process; the least recently asked for goes first
_drawn: OrderedDict[UUID, Grids] = OrderedDict()
_drawing = threading.Lock()
_encode = msgspec.msgpack.Encoder().encode


def grids_of(view: TournamentView) -> Grids:
    """The view's grids: the kept ones while the view is the same (a 128-entrant swiss's take about a
    millisecond to make, its page's read a few tenths: bench/RESULTS.md, pages)."""
    digest = hashlib.blake2b(_encode(msgspec.structs.replace(view, position=0)), digest_size=16).digest()
    with _drawing:
        kept = _drawn.get(view.tournament_id)
    if kept is not None and kept.digest == digest:
        return kept
    played = crosstables.entrant_rounds(view)
    made = Grids(digest, brackets.bracket(view), crosstables.crosstable(view, played), played)
    with _drawing:
        _drawn[view.tournament_id] = made
        _drawn.move_to_end(view.tournament_id)
        while len(_drawn) > DRAWN_KEPT:
            _drawn.popitem(last=False)
    return made


def tournament_page(
    context: Context, tournament_id: UUID, actor: Actor | None = None, after: int | None = None
) -> TournamentPage:
    """A tournament's page; ``after``: a log position to wait for (a few seconds at most)."""
    view = tournament(context, tournament_id, after)
    league = aggregates.league(context, view.league_id)
    lower = aggregates.tournament(context, tournament_id).rules.match_winner == "lowest_total"
    grids = grids_of(view)
    return TournamentPage(
        tournament=view,
        league=league,
        lower=lower,
        bracket=grids.bracket,
        crosstable=grids.crosstable,
        entrant_rounds=grids.played,
        may_start=all_there(view) and _may_start(actor),
        digest=grids.digest,
    )


def all_there(view: TournamentView) -> bool:
    """Not started, and everyone who joined is there: checked in where the plan has a check-in (else
    joining says so), and enough to play, bots filling the places included (``too_few_players``)."""
    if view.status != "announced" or not view.entrants:
        return False
    if view.check_in_minutes is not None and set(view.entrants) - set(view.checked_in):
        return False
    return max(len(view.entrants), view.places or 0) >= 2


def _may_start(actor: Actor | None) -> bool:
    if actor is None:
        return False
    try:
        policy.check_admin(actor)  # the start's own check (``usecases.tournaments.start``)
    except RuleError:
        return False
    return True


# unknown, or not yet in the read models: ?after= the position of the league's creation or the announcement
LEAGUE_NOT_FOUND = "league_not_found"
TOURNAMENT_NOT_FOUND = "tournament_not_found"


def standings(context: Context, league_id: UUID, after: int | None = None) -> Standings:
    """A league's standings once the read models have applied ``after`` (a client's log position)."""
    return _read_after(context, after, lambda: context.reader.standings(league_id), LEAGUE_NOT_FOUND)


def ratings(context: Context, league_id: UUID, after: int | None = None) -> LeagueRatingsRead:
    """A league's ratings once the read models have applied ``after``."""
    return _read_after(context, after, lambda: context.reader.ratings(league_id), LEAGUE_NOT_FOUND)


def tournament(context: Context, tournament_id: UUID, after: int | None = None) -> TournamentView:
    """A tournament's bracket once the read models have applied ``after``."""
    return _read_after(context, after, lambda: context.reader.tournament(tournament_id), TOURNAMENT_NOT_FOUND)


def _read_after(context: Context, after: int | None, read: Callable[[], T | None], missing: str) -> T:
    caught_up(context.reader, after, context.app.recorder.max_notification_id)
    found = read()
    if found is None:
        raise RuleError(missing)
    return found


def league(context: Context, league_id: UUID) -> League:
    """A league as stored (``league_not_found``)."""
    return context.app.get_league(league_id)


def names(context: Context, league: League) -> dict[str, str]:
    """Its members' and referees' names, by id: a member registered a moment ago may not be in the
    read models yet, a referee the application appointed by another id (the workers' and tests' own)
    has none: their id stands in, or they are left out."""
    found = context.reader.names(list(league.members))
    named = {str(member): found.get(member, str(member)) for member in league.members}
    for referee_id in league.referees:
        name = _referee_name(context, referee_id)
        if name is not None:
            named[referee_id] = name
    return named


def _referee_name(context: Context, referee_id: str) -> str | None:
    try:
        return credentials.referee(context.app, UUID(referee_id)).name
    except (ValueError, RuleError):
        return None


def to_sign_in(context: Context) -> list[ListedLeague]:
    """The leagues the sign-in page's password form offers (a member signs in by league and name)."""
    return context.reader.leagues(None, SIGN_IN_LEAGUES)[0]
