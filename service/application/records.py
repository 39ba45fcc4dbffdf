"""Game records (docs/game-records.md): a game written out as one, and a record imported as a game
played in person.

Use cases as functions taking the application (``MauMau``): a record is read from the store like the
event log and never stored itself.
"""

from collections.abc import Mapping
from typing import TYPE_CHECKING
from uuid import UUID

from service.domain.record import render
from service.domain.record_of import record_of
from service.domain.redaction import Table, Viewer, redact
from service.domain.views import entry_of

if TYPE_CHECKING:
    from service.application import MauMau


def game_record(app: "MauMau", game_id: UUID, viewer: Viewer, names: Mapping[str, str]) -> str:
    """The record of the game as ``viewer`` may see it; ``names``: players' names by id."""
    events = app.game_events(game_id)
    created = events[0]
    table = Table(seats=len(created.seats), hand_size=created.ruleset.hand_size)
    entries = [redact(entry_of(event), viewer, table) for event in events]
    return render(record_of(str(game_id), entries, names, viewer))
