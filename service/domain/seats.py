"""Where a game sits: its seats (a player's or a bot's, ``Seat``) and the tournament table it was
made for (``TableRef``)."""

from typing import Literal
from uuid import UUID

import msgspec

from service.domain.bots import BOTS
from service.domain.errors import RuleError


class Seat(msgspec.Struct, frozen=True, array_like=True):
    kind: Literal["player", "bot"]
    name: str  # the player's id, or the bot's name (see ``bots.BOTS``)

    @classmethod
    def parse(cls, spec: "Seat | str | UUID") -> "Seat":
        """``"bot:heuristic"`` -> a bot; a player id (a UUID or its text) -> that player."""
        if isinstance(spec, Seat):
            seat = spec
        elif isinstance(spec, UUID):
            seat = cls("player", str(spec))
        elif isinstance(spec, str) and spec.startswith("bot:"):
            seat = cls("bot", spec[4:])
        elif isinstance(spec, str):
            seat = cls("player", spec)
        else:
            raise RuleError("invalid_seat", why="neither_player_id", spec=spec)
        if seat.kind == "bot" and seat.name not in BOTS:
            known = ", ".join(f"bot:{name}" for name in sorted(BOTS))
            raise RuleError("unknown_bot", why="no_bot_known", name=seat.name, known=known)
        if seat.kind == "player":
            try:
                UUID(seat.name)
            except ValueError:
                raise RuleError("invalid_seat", why="not_player_id", name=seat.name) from None
        return seat


class TableRef(msgspec.Struct, frozen=True, array_like=True):
    """The tournament table a game was made for."""

    tournament_id: UUID
    round_no: int
    table: int  # its place in the round's tables, from 0


def table_of_version_1_key(key: str | None) -> TableRef | None:
    """The table a game stored before ``Game.Created`` carried it was made for: named only by the key
    of its creation, ``tournament:<id>:round:<n>:table:<i>`` (None: any other key, or none).

    The one place that reads that key: the upcasts of a stored ``Created`` and of a stored image use
    it, and nothing else parses a key (the application still makes a table's game id from it)."""
    if key is None or not key.startswith("tournament:"):
        return None
    _, tournament_id, _, round_no, _, table = key.split(":")
    return TableRef(UUID(tournament_id), int(round_no), int(table))
