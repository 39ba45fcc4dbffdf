"""A game as its pages read it: the spectators' table, the scorer's sheet, the play page's choice of
seats, and the referee console's disputes, log and replay, each with the API's checks
(``policy``): the public sees the public table and events, officials the whole log."""

from dataclasses import dataclass
from uuid import UUID

from service.application import credentials
from service.application.games import Shuffle
from service.domain.redaction import FULL, PUBLIC
from service.domain.roles import Actor
from service.domain.seats import TableRef
from service.domain.views import TableView
from service.projections.models import MatchTotals, OpenDispute, PublicTable
from service.usecases import policy
from service.usecases.context import Context
from service.usecases.events import EventRead, shown
from service.usecases.facts import GameFacts
from service.usecases.queries import aggregates
from service.usecases.rounds import RoundsRead, score_sheet


def facts(context: Context, game_id: UUID) -> GameFacts:
    """What never changes about a game; ``game_not_found`` for no such game."""
    return context.games.facts(game_id)


def official_facts(context: Context, actor: Actor | None, game_id: UUID) -> GameFacts | None:
    """The game's facts for one of its officials; None for anyone else."""
    found = context.games.facts(game_id)
    return found if policy.officiates(context, actor, found) else None


def seats_to_name(context: Context, actor: Actor | None, game_id: UUID) -> list[str]:
    """An official's choice of seats (their names, by seat); none for anyone else."""
    if not policy.officiates(context, actor, context.games.facts(game_id)):
        return []
    return [seat.name for seat in context.current.table(game_id).seats]


@dataclass(frozen=True)
class Spectated:
    table: PublicTable
    facts: GameFacts
    events: list[EventRead]  # the last ones, as the public sees them
    referees: dict[str, str]  # in person: the names of the referees who caused them, by id
    sheet: RoundsRead | None  # a game played in person's score sheet


def spectated(context: Context, game_id: UUID, last: int) -> Spectated:
    """What ``GET /games/{id}``, ``/totals``, ``/rounds`` and the public log show anyone."""
    table = context.current.table(game_id)
    found = context.games.facts(game_id)
    events = shown(context.app.game_events(game_id, max(0, table.version - last)), PUBLIC, found)
    referees = {  # who entered a game played in person's rounds is said; a table's events say no one
        event.cause.actor_id: credentials.referee(context.app, UUID(event.cause.actor_id)).name
        for event in events
        if table.in_person and event.cause is not None and event.cause.role == "referee"
    }
    sheet = score_sheet(context, game_id) if table.in_person else None
    return Spectated(table=table, facts=found, events=events, referees=referees, sheet=sheet)


@dataclass(frozen=True)
class Named:
    """What a game's page is titled by, as far as the game has them."""

    league: str | None  # its league's name
    tournament: str | None  # the name of the tournament it was made for
    table: TableRef | None  # the tournament's round and table


def named(context: Context, game_id: UUID) -> Named:
    found = context.games.facts(game_id)
    made_for = found.tournament_table
    return Named(
        league=aggregates.league(context, found.league_id).name if found.league_id else None,
        tournament=aggregates.tournament(context, made_for.tournament_id).name if made_for else None,
        table=made_for,
    )


@dataclass(frozen=True)
class Scoring:
    table: PublicTable
    allowed: bool  # a game played in person, and the actor may enter its rounds
    sheet: RoundsRead | None  # to those allowed
    seat: int | None  # a player's own


def may_score(context: Context, actor: Actor | None, found: GameFacts) -> bool:
    """As the API lets them enter a round: a seated player or an official of the game."""
    if actor is None:
        return False
    if actor.role == "player":
        return found.seat_of(actor.id) is not None
    return policy.officiates(context, actor, found)


def scoring(context: Context, actor: Actor | None, game_id: UUID) -> Scoring:
    table = context.current.table(game_id)
    found = context.games.facts(game_id)
    allowed = table.in_person and may_score(context, actor, found)
    return Scoring(
        table=table,
        allowed=allowed,
        sheet=score_sheet(context, game_id) if allowed else None,
        seat=found.seat_of(actor.id) if actor is not None and actor.role == "player" else None,
    )


def disputes(context: Context, actor: Actor, most: int) -> list[tuple[OpenDispute, PublicTable]]:
    """The open disputes ``GET /disputes`` lists to ``actor`` (a referee: their leagues' and the
    friendly games'), each with its table."""
    referee = actor.id if actor.role == "referee" else None
    items, _last = context.reader.disputes(referee, None, most)
    return [(item, context.current.table(item.game_id)) for item in items]


@dataclass(frozen=True)
class Replayed:
    now: TableView  # the game as it is
    at: int  # the event replayed to, within the game's
    table: TableView  # right after it
    events: list[EventRead]  # from it on, whole
    names: list[str]  # the seats' names


def replayed(context: Context, official: GameFacts, at: int) -> Replayed:
    """The table right after event ``at`` (``GET /games/{id}/replay``), for the game's officials
    (``official_facts``)."""
    game_id = official.game_id
    now = context.app.replay(game_id)
    at = max(1, min(at, now.number))
    return Replayed(
        now=now,
        at=at,
        table=context.app.replay(game_id, at),
        events=shown(context.app.game_events(game_id, at - 1), FULL, official),
        names=[seat.name for seat in context.current.table(game_id).seats],
    )


@dataclass(frozen=True)
class Console:
    public: PublicTable
    now: TableView
    log: list[EventRead]  # every event, whole (``GET /games/{id}/events`` in the full sight)
    sheet: RoundsRead | None  # a game played in person's score sheet


def console(context: Context, official: GameFacts) -> Console:
    game_id = official.game_id
    public = context.current.table(game_id)
    return Console(
        public=public,
        now=context.app.replay(game_id),
        log=shown(context.app.game_events(game_id), FULL, official),
        sheet=score_sheet(context, game_id) if public.in_person else None,
    )


def table(context: Context, game_id: UUID) -> PublicTable:
    """The public state as it is now (``GET /games/{id}``)."""
    return context.current.table(game_id)


def totals(context: Context, game_id: UUID) -> MatchTotals:
    """The round and match totals as they are now."""
    return context.current.totals(game_id)


def shuffles(context: Context, game_id: UUID) -> list[Shuffle]:
    """Every shuffle's commitment; salts and orders once their round is over, verified."""
    return context.app.shuffles(game_id)
