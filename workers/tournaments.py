"""Which tournaments are open (announced or running): the ones the scheduler's tick looks at.

The tournaments read model answers this (``ReadModels.open_tournaments``) once it
exists. Until then, and whenever it is missing, each worker process follows the
application's notification log itself: ``TournamentIndex`` reads only the
``Tournament.Announced`` and ``Tournament.Finished`` notifications stored since it
last looked (the first look reads them all), so a tick costs one small query: an
index range over the events stored since. The log is gap-free in commit order
(service.persistence.group_commit), so reading on from the last position seen
misses nothing.
"""

import threading
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.utils import get_topic

from service.application import MauMau
from service.domain.tournament import Tournament

ANNOUNCED = get_topic(Tournament.Announced)
FINISHED = get_topic(Tournament.Finished)
PAGE = 500


class TournamentIndex:
    """The open tournaments, as far as this process has read the log."""

    def __init__(self) -> None:
        self.position = 0  # the last notification read
        self._open: dict[UUID, None] = {}  # in the order they were announced
        self._lock = threading.Lock()

    def refresh(self, app: MauMau) -> list[UUID]:
        with self._lock:
            # read up to the last notification now: everything before it is committed (gap-free), so
            # the next look starts after it, however long ago the last tournament event was
            top = app.recorder.max_notification_id() or 0
            while self.position < top:
                page = app.recorder.select_notifications(
                    start=self.position,
                    limit=PAGE,
                    stop=top,
                    topics=(ANNOUNCED, FINISHED),
                    inclusive_of_start=False,
                )
                for notification in page:
                    if notification.topic == ANNOUNCED:
                        self._open[notification.originator_id] = None
                    else:
                        self._open.pop(notification.originator_id, None)
                self.position = page[-1].id if len(page) == PAGE else top
            return list(self._open)


class _Services(Protocol):
    app: MauMau
    index: TournamentIndex

    @property
    def read(self) -> Any: ...


def open_tournaments(services: _Services) -> list[UUID]:
    """The tournaments announced or running: from the read model when there is one, else from the log."""
    from service.projections.reader import ReadModels

    if hasattr(ReadModels, "open_tournaments"):
        return list(services.read.open_tournaments())
    return services.index.refresh(services.app)
