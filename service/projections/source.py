"""The application's notification log, as the projection reads it: pages of decoded events.

Reading is the same on both stores (``select_notifications`` after a
position). Waiting for more differs: PostgreSQL wakes the reader with the
``NOTIFY`` every insert sends (a ``LISTEN`` on the events table's channel,
looking again after a second at the latest as a backstop, and at the poll
interval while no connection listens); SQLite has nothing of the kind, so the
reader looks at the file's ``data_version`` every poll interval (it changes with
every commit of any connection, in any process, but the one asking) and reads the
log when it changed, or after the same backstop. Reading the log every poll
instead kept an idle embedded service at about 2.5% of a core.
"""

import contextlib
import sqlite3
import threading
import time
from typing import Any
from uuid import UUID

import msgspec
import psycopg
from psycopg.sql import SQL, Identifier

from service.application import MauMau
from service.domain.mao.aggregate import MaoGame
from service.settings import Settings

LISTENING_BACKSTOP = 1.0  # seconds


class Source:
    def __init__(self, settings: Settings) -> None:
        self.app = MauMau(msgspec.structs.replace(settings, pool_size=1))  # one reader
        self.poll = settings.projection_poll_ms / 1000
        self._url = settings.database_url
        self._name = f"maumau:{settings.database_schema or 'public'}:listen"
        self._listener: psycopg.Connection[Any] | None = None
        self._sqlite_path = settings.sqlite_path
        self._versions: sqlite3.Connection | None = None  # SQLite: asks the file's data_version only
        self._version_read = 0  # the data_version when the log was last read

    def read(self, after: int, limit: int) -> list[tuple[Any, int]]:
        """Up to ``limit`` events after position ``after``: (domain event, position) in log order."""
        if self._url is None:
            # taken before the read: a commit after it changes the version, and the wait sees that
            self._version_read = self._data_version()
        notifications = self.app.recorder.select_notifications(after, limit, inclusive_of_start=False)
        decode = self.app.mapper.to_domain_event
        return [(decode(notification), notification.id) for notification in notifications]

    def mao_match(self, match_id: UUID, version: int) -> MaoGame:
        """A Mao match as it was at ``version``."""
        match: MaoGame = self.app.repository.get(match_id, version=version)
        return match

    def last(self) -> int:
        """The log's last position (0 while it is empty)."""
        return self.app.recorder.max_notification_id() or 0

    def wait(self, stop: threading.Event) -> None:
        """Until something may have been written, the poll interval passed, or ``stop`` is set."""
        if self._url is None:
            backstop = time.monotonic() + LISTENING_BACKSTOP
            while not stop.wait(self.poll):
                if self._data_version() != self._version_read or time.monotonic() > backstop:
                    return
            return
        try:
            if self._listener is None:
                self._listener = psycopg.connect(self._url, autocommit=True, application_name=self._name)
                channel = self.app.recorder.channel_name  # type: ignore[attr-defined]
                self._listener.execute(SQL("LISTEN {}").format(Identifier(channel)))
                return  # a write since the last read sent its note before anyone listened: read again
            # every insert's note wakes it: the timeout is a backstop only, not a poll (an idle
            # service polling every 20 ms cost a tenth of a core and the database's work besides)
            for _ in self._listener.notifies(timeout=max(self.poll, LISTENING_BACKSTOP), stop_after=1):
                pass
        except psycopg.Error:
            # the connection broke (a restart of the server, ...): poll until a new one listens
            self._close_listener()
            stop.wait(self.poll)

    def _close_listener(self) -> None:
        if self._listener is not None:
            self._listener.close()
            self._listener = None

    def _data_version(self) -> int:
        if self._versions is None:
            self._versions = sqlite3.connect(self._sqlite_path, isolation_level=None, check_same_thread=False)
        version: int = self._versions.execute("PRAGMA data_version").fetchone()[0]
        return version

    def close(self) -> None:
        self._close_listener()
        if self._versions is not None:
            with contextlib.suppress(sqlite3.Error):
                self._versions.close()
        self.app.close()
