"""A game's ``Record`` built from its entries as one sight sees them (``redaction.redact``).

Secrecy follows one rule: the record is written from the entries the event log would show the
same viewer, so a card the log hides from a sight the record cannot name. What the entries do not
carry (a player's name) comes in as ``names``.
"""

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from service.domain.declared import DECLARED
from service.domain.presets import PRESETS
from service.domain.record import AnyLine, Header, Other, Record, RecordSeat
from service.domain.record_lines import LineOf
from service.domain.redaction import Viewer
from service.domain.rulesets import OPTIONS
from service.domain.views import Entry

Data = dict[str, Any]
# each stored type's record line, as its class declares it (``line``)
LINES: dict[str, LineOf] = {name: declaration.line for name, declaration in DECLARED.items()}


def record_of(game_id: str, entries: Sequence[Entry], names: Mapping[str, str], viewer: Viewer) -> Record:
    """The record of a game: ``entries`` are all its events redacted for ``viewer``, the first its
    ``Created``; ``names`` gives a player's name by id (an id not in it stands for itself)."""
    created = entries[0].data
    seats = _seats(created["seats"], names)
    sight: Literal["public", "seat", "full"] = (
        "full" if viewer.full else "seat" if viewer.seat is not None else "public"
    )
    header = Header(
        game_id=game_id,
        ruleset=created["ruleset"]["name"],
        options=_options(created["ruleset"]),
        league_id=created.get("league_id"),
        created=entries[0].timestamp.isoformat(),
        turn_clock=created.get("turn_clock"),
        forfeit_after=created.get("forfeit_after", 0),
        sight=sight,
        seats=seats,
        sight_seat=None if viewer.full else viewer.seat,
    )
    return Record(header=header, lines=[_line(entry, viewer, seats) for entry in entries])


def _seats(specs: list[str], names: Mapping[str, str]) -> list[RecordSeat]:
    """Each seat with a label no other seat has: a name taken twice gets ``#`` and the seat number."""
    seats, taken = [], set()
    for index, spec in enumerate(specs):
        kind: Literal["player", "bot"]
        kind, ident = ("bot", spec[4:]) if spec.startswith("bot:") else ("player", spec)
        name = ident if kind == "bot" else names.get(ident, ident)
        label, extra = name, 0
        while label in taken or not label:
            extra += 1
            label = f"{name}#{index}" + (f".{extra}" if extra > 1 else "")
        taken.add(label)
        seats.append(RecordSeat(seat=index, label=label, kind=kind, id=ident))
    return seats


def _options(rules: Data) -> dict[str, Any]:
    preset = PRESETS.get(rules["name"])
    if preset is None:
        return {}
    return {
        key: rules[key] for key in OPTIONS if rules.get(key, getattr(preset, key)) != getattr(preset, key)
    }


def _line(entry: Entry, viewer: Viewer, seats: list[RecordSeat]) -> AnyLine:
    line_of = LINES.get(entry.type)
    line = None if line_of is None else line_of(entry.number, entry.data, entry.cause, viewer, seats)
    if line is not None:
        return line
    data = entry.data
    shown = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False) if data else None
    return Other(number=entry.number, type=entry.type, data=shown)
