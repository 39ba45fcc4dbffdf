"""A worker process's services: the application and the read models, built once per process.

Celery's prefork pool forks its children from the main process; a database
pool made before the fork would be shared by every child (design.md:
"Build Applications after a process forks"). So nothing is built at import:
``services()`` builds on first use in each process (``worker_process_init``
calls it at once in every child) and builds again when it finds itself in
another process than the one that built it.
"""

import logging
import os
import threading
from datetime import datetime
from uuid import UUID

from service.application import MauMau
from service.projections.reader import ReadModels
from service.settings import Settings, get_settings

log = logging.getLogger(__name__)


class Services:
    """What the tasks of one process share: its MauMau and its read models."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.app = MauMau(settings)
        self._read: ReadModels | None = None
        self._lock = threading.Lock()
        self.turn_clocks: dict[UUID, int | None] = {}  # a tournament's turn clock never changes
        self.swept: dict[UUID, datetime] = {}  # when a tournament's tables were last looked at
        self.requeued: dict[UUID, datetime] = {}  # when a stalled game was last queued again

    @property
    def read(self) -> ReadModels:
        """The read models, opened when first asked for (only some tasks read them)."""
        with self._lock:
            if self._read is None:
                self._read = ReadModels(self.settings)
            return self._read

    def close(self) -> None:
        with self._lock:
            if self._read is not None:
                self._read.close()
                self._read = None
        self.app.close()


_services: Services | None = None
_built_in: int | None = None  # the process id that built _services
_building = threading.Lock()


def services(settings: Settings | None = None) -> Services:
    """This process's services, built on first use (and again after a fork)."""
    global _services, _built_in
    with _building:
        if _services is None or _built_in != os.getpid():
            # after a fork the parent's copy holds the parent's connections: leave them to it
            _services = Services(settings or get_settings())
            _built_in = os.getpid()
            log.info("worker services built in process %s", _built_in)
        return _services


def close_services() -> None:
    global _services, _built_in
    with _building:
        if _services is not None and _built_in == os.getpid():
            _services.close()
        _services = None
        _built_in = None
