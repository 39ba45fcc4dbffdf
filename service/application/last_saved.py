"""The last saved state of a few aggregates of one kind, in this process: a change starts from it,
brought up to date with the events stored since (one query for a few events), instead of loading
the aggregate afresh, which replays its whole log.

A tournament's log grows with every table attached and every result (about 650 events for a
256-player Swiss of five rounds), and each result recorded loaded it again: 3-7 ms a load, most of a
tournament's bookkeeping (bench/RESULTS.md, tournaments). A change ``take``s the copy, so no two
changes ever share one, and only a saved aggregate is ``put`` back: a change refused or failed
leaves nothing here, and the store stays the judge (a copy behind it fails its save on the version
key, and the next try loads). Readers never see these copies.
"""

import threading
from collections import OrderedDict
from typing import Generic, TypeVar
from uuid import UUID

from eventsourcing.domain import Aggregate

A = TypeVar("A", bound=Aggregate)


class LastSaved(Generic[A]):
    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[UUID, A] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, aggregate_id: UUID) -> A | None:
        """The copy kept of this aggregate, still kept (None: none): for one user at a time only, as
        the game cache's stripe locks make its users (``core.GameCache``)."""
        with self._lock:
            found = self._kept.get(aggregate_id)
            if found is not None:
                self._kept.move_to_end(aggregate_id)
            return found

    def take(self, aggregate_id: UUID) -> A | None:
        """The copy kept of this aggregate, no longer kept (None: none)."""
        with self._lock:
            return self._kept.pop(aggregate_id, None)

    def put(self, aggregate: A) -> None:
        """Keep a copy just saved (the least recently kept goes beyond ``size``)."""
        if self.size <= 0:
            return
        with self._lock:
            self._kept[aggregate.id] = aggregate
            self._kept.move_to_end(aggregate.id)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
