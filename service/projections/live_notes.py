"""The notes a live fold is told of: each batch the store commits names its games and carries their
events when they fit (``persistence.group_commit``); ``read_notes`` reads them back.
"""

import logging
from uuid import UUID

import msgspec
from eventsourcing.persistence import StoredEvent

from service.persistence.newest import Stored

log = logging.getLogger(__name__)

ALL = ""  # a note that names nothing: look at every followed game

# the events a note carries after the games it names (``persistence.group_commit``): each event's
# originator id, version, topic, state and log position, in log order
_carried = msgspec.json.Decoder(list[tuple[UUID, int, str, bytes, int]]).decode


def read_notes(notes: list[str]) -> tuple[dict[UUID, list[tuple[StoredEvent, int]]], set[str]]:
    """The events the notes carry, per game, in log order; and the names of the games told of without
    their events (``ALL`` among them: look at every game)."""
    carried: dict[UUID, list[tuple[StoredEvent, int]]] = {}
    named: set[str] = set()
    for note in notes:
        names, _, events_carried = note.partition("\n")
        if not events_carried:
            named.update(names.split() or [ALL])
            continue
        try:
            events = _carried(events_carried)
        except msgspec.DecodeError:
            log.warning("a note could not be read: every followed game is looked at")
            named.add(ALL)
            continue
        for originator_id, version, topic, state, position in events:
            event = StoredEvent(
                originator_id=originator_id, originator_version=version, topic=topic, state=state
            )
            carried.setdefault(originator_id, []).append((event, position))
    return carried, named


def follows_on(stored: Stored, version: int) -> bool:
    """Whether the events after ``version`` among ``stored`` continue it with no version missing."""
    expected = version + 1
    for event, _position in stored:
        if event.originator_version > version:
            if event.originator_version != expected:
                return False
            expected += 1
    return True
