"""A game's events as the API shows them: redacted for the viewer (``service.domain.redaction``).

The same shape serves the event log, the live stream and the events a
command answers with.
"""

from collections.abc import Iterable
from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

import msgspec

from service.application import Outcome
from service.domain.redaction import Viewer, redact
from service.domain.views import Entry, entry_of
from service.projections.fold import RESULT_EVENTS
from service.usecases.facts import GameFacts


class CauseRead(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Who asked for the command that began with this event."""

    role: Annotated[str, msgspec.Meta(examples=["player"])]
    actor_id: Annotated[str, msgspec.Meta(examples=["3f1c6c9e-8f7a-4d52-9a53-3e1b1c0b6a77"])]
    command: Annotated[str, msgspec.Meta(examples=["PlayCard"])]
    key: str | None = None  # the idempotency key: shown to the game's officials only


class EventRead(msgspec.Struct, frozen=True, kw_only=True):
    number: Annotated[int, msgspec.Meta(ge=1, examples=[17], description="the event's number in its game")]
    type: Annotated[str, msgspec.Meta(examples=["CardPlayed"])]
    timestamp: datetime
    data: Annotated[
        dict[str, Any],
        msgspec.Meta(
            examples=[{"seat": 1, "card": "7H", "suit": None, "call": None, "missed": None, "turn": 2}],
            description="the event's fields, cut down to what the viewer may see",
        ),
    ]
    cause: CauseRead | None = None


class CommandResult(msgspec.Struct, frozen=True, kw_only=True):
    """What a command stored: read the game at ``position`` (``?after=``) to see its effect."""

    game_id: UUID
    version: Annotated[int, msgspec.Meta(examples=[18], description="the game's version now")]
    position: Annotated[int, msgspec.Meta(examples=[4711], description="the log position of the command")]
    events: list[EventRead]


def event_read(entry: Entry) -> EventRead:
    cause = entry.cause
    return EventRead(
        number=entry.number,
        type=entry.type,
        timestamp=entry.timestamp,
        data=entry.data,
        cause=None
        if cause is None
        else CauseRead(role=cause.actor.role, actor_id=cause.actor.id, command=cause.command, key=cause.key),
    )


def shown(events: Iterable[Any], viewer: Viewer, facts: GameFacts) -> list[EventRead]:
    """Stored game events as ``viewer`` sees them."""
    table = facts.table
    return [event_read(redact(entry_of(event), viewer, table)) for event in events]


def command_result(outcome: Outcome, viewer: Viewer, facts: GameFacts) -> CommandResult:
    return CommandResult(
        game_id=outcome.game_id,
        version=outcome.version,
        position=outcome.position,
        events=shown(outcome.events, viewer, facts),
    )


_RESULT_TYPES = frozenset(kind.__name__ for kind in RESULT_EVENTS)


def changed_results(result: CommandResult) -> bool:
    """Whether a command ended a round (or the match): the standings and histories show it, the rest
    of a game's commands change only its own reads (``write_when``'s condition for them)."""
    return any(event.type in _RESULT_TYPES for event in result.events)
