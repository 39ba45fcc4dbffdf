"""A game record imported as a game played in person, its rounds entered (docs/game-records.md).

Who imports: as for creating a game others sit at, an admin, or a referee for a friendly game or
a game of their league (``check_may_import``). The record is checked whole first; nothing is
stored when it is refused.
"""

from typing import Annotated
from uuid import UUID

import msgspec

from service.application.records import import_record
from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.domain.struct_from import struct_from
from service.usecases.context import Context, scoped_key, write
from service.usecases.games import SEAT_PATTERN, NewGame, SeatSpec, normalised

MOST_RECORD_CHARS = 4_000_000  # a long match's full record is well under a megabyte


class RecordImport(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    record: Annotated[
        str,
        msgspec.Meta(
            min_length=1,
            max_length=MOST_RECORD_CHARS,
            description="a game record's text, as GET /games/{id}/record writes it (any sight)",
        ),
    ]
    league_id: Annotated[
        UUID | None, msgspec.Meta(description="the league the game counts in; none: a friendly game")
    ] = None
    seats: (
        Annotated[
            list[SeatSpec],
            msgspec.Meta(
                min_length=1,
                max_length=12,
                description="the player at each of the record's seats, seat order; "
                "without it the record's own player ids (a record with a bot seat needs it)",
                extra_json_schema={"extra": {"items": {"type": "string", "pattern": SEAT_PATTERN}}},
            ),
        ]
        | None
    ) = None
    copy: Annotated[
        bool,
        msgspec.Meta(
            description="import the record as a new game of its own, under a new id, though its game "
            "is in the service already (the original, or an earlier import); false: such a record is "
            "refused (409 game_exists)"
        ),
    ] = False


class RecordImported(NewGame, frozen=True, kw_only=True):
    rounds: Annotated[int, msgspec.Meta(examples=[6], description="the rounds entered")]
    version: Annotated[int, msgspec.Meta(examples=[14])]
    position: Annotated[int, msgspec.Meta(examples=[4711], description="read with ?after= this to see it")]


def check_may_import(context: Context, actor: Actor, league_id: UUID | None) -> None:
    """As for creating a game others sit at: an admin, or a referee for a friendly game or their league's."""
    if actor.role == "admin":
        return
    if actor.role != "referee":
        raise RuleError("forbidden", why="admin_referee_imports")
    if league_id is not None and actor.id not in context.app.get_league(league_id).referees:
        raise RuleError("forbidden", why="referee_imports_friendly")


@write
def import_game(
    context: Context, actor: Actor, data: RecordImport, idempotency_key: str | None
) -> RecordImported:
    check_may_import(context, actor, data.league_id)
    seats = None if data.seats is None else [normalised(seat) for seat in data.seats]
    imported = import_record(
        context.app,
        data.record,
        league_id=data.league_id,
        seats=seats,
        by=actor,
        key=scoped_key(actor, idempotency_key),
        copy=data.copy,
    )
    return struct_from(RecordImported, imported)
