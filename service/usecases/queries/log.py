"""A game's event log as the API reads it: a page of events cut to what the asker may see, the
officials' replay of one event, and the game record in the sight asked for (``policy``)."""

from dataclasses import dataclass
from uuid import UUID

from service.application.records import game_record
from service.domain.errors import RuleError
from service.domain.redaction import FULL, PUBLIC, Viewer
from service.domain.roles import Actor
from service.domain.views import TableView
from service.usecases import policy
from service.usecases.context import Context
from service.usecases.events import EventRead, shown
from service.usecases.facts import GameFacts


@dataclass(frozen=True)
class EventsPage:
    events: list[EventRead]
    last: int | None  # a full page's last event number (there may be more after it); None: the end


def events(context: Context, actor: Actor | None, game_id: UUID, after: int, limit: int) -> EventsPage:
    """``limit`` events after number ``after``: whole for officials, redacted for the others."""
    facts = context.games.facts(game_id)
    viewer = policy.viewer(context, actor, facts)
    found = context.app.game_events(game_id, after, limit)
    last = found[-1].originator_version if len(found) == limit else None
    return EventsPage(events=shown(found, viewer, facts), last=last)


@dataclass(frozen=True)
class ReplayStep:
    at: int  # the event replayed to: the latest when none was asked for
    event: EventRead
    table: TableView  # right after it
    last: bool  # no event after it
    names: dict[str, str]  # the seated players' names, by id


def replay_step(context: Context, actor: Actor, game_id: UUID, at: int | None) -> ReplayStep:
    """The whole table right after event ``at`` (``GET /games/{id}/replay``), for the officials."""
    facts = context.games.facts(game_id)
    policy.check_official(context, actor, facts)
    table = context.app.replay(game_id, at)
    number = table.number
    around = context.app.game_events(game_id, number - 1, 2)
    if not around:
        raise RuleError("no_such_event", why="numbered", number=number)
    (event,) = shown(around[:1], FULL, facts)
    return ReplayStep(
        at=number, event=event, table=table, last=len(around) < 2, names=seat_names(context, facts)
    )


def seat_names(context: Context, facts: GameFacts) -> dict[str, str]:
    """The players' names at the table, by id (one not in the read models yet: its id stands in)."""
    ids = [UUID(seat.name) for seat in facts.seats if seat.kind == "player"]
    found = context.reader.names(ids)
    return {str(player_id): found.get(player_id, str(player_id)) for player_id in ids}


def record(context: Context, actor: Actor | None, game_id: UUID, sight: str) -> str:
    """The game record (docs/game-records.md) in ``sight``: public, a seated player's, or full."""
    facts = context.games.facts(game_id)
    return game_record(
        context.app, game_id, _record_viewer(context, actor, facts, sight), seat_names(context, facts)
    )


def _record_viewer(context: Context, actor: Actor | None, facts: GameFacts, sight: str) -> Viewer:
    if sight == "public":
        return PUBLIC
    if actor is None:
        raise RuleError("unauthorized", why="record_needs_bearer", sight=sight)
    if sight == "full":
        policy.check_official(context, actor, facts)
        return FULL
    seat = facts.seat_of(actor.id) if actor.role == "player" else None
    if seat is None:
        raise RuleError("not_seated", why="record_seat")
    return Viewer.at(seat)
