"""An SQLite file put in write-ahead-log mode before eventsourcing's pool opens it.

eventsourcing switches each new file to WAL as it opens its first connection. Several processes
opening a fresh file at once (a worker's pool starting) race in that switch, and SQLite answers
"database is locked" at once rather than calling the busy handler (waiting could deadlock), so a
start failed now and then. The mode is kept in the file: switched here once, with a bounded retry,
every later open finds it set.
"""

import contextlib
import sqlite3
import time
from pathlib import Path

WAIT_SECONDS = 10.0
RETRY_SECONDS = 0.01


def in_wal_mode(path: Path, wait: float = WAIT_SECONDS) -> None:
    """Make sure ``path`` (created when missing) is in WAL mode; ``sqlite3.OperationalError`` when
    another process keeps it locked for longer than ``wait`` seconds."""
    deadline = time.monotonic() + wait
    with contextlib.closing(sqlite3.connect(path, isolation_level=None, timeout=wait)) as conn:
        while True:
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
            time.sleep(RETRY_SECONDS)
