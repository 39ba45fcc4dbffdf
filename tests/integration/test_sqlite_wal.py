"""SQLite files are put in WAL mode before eventsourcing opens them, once, whoever opens them first."""

import contextlib
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from service.persistence.sqlite_wal import in_wal_mode


def journal_mode(path: Path) -> str:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return str(conn.execute("PRAGMA journal_mode").fetchone()[0])


def test_a_new_file_is_made_in_wal_mode_and_a_second_call_keeps_it(tmp_path: Path):
    path = tmp_path / "events.sqlite"
    in_wal_mode(path)
    in_wal_mode(path)
    assert journal_mode(path) == "wal"


def test_six_openers_switching_fresh_files_at_once_all_succeed(tmp_path: Path):
    """The race a worker's pool met: six openers of one fresh file switch it at the same moment.
    Without the retry, about one file in thirty failed with "database is locked"."""
    for attempt in range(60):
        path = tmp_path / f"events-{attempt}.sqlite"
        start = threading.Barrier(6)

        def switched(_: int, path: Path = path, start: threading.Barrier = start) -> str:
            start.wait()
            in_wal_mode(path)
            return journal_mode(path)

        with ThreadPoolExecutor(max_workers=6) as pool:
            assert list(pool.map(switched, range(6))) == ["wal"] * 6


def test_a_file_locked_past_the_wait_is_refused_with_sqlites_error(tmp_path: Path):
    path = tmp_path / "events.sqlite"
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as holder:
        holder.execute("CREATE TABLE t (a)")
        holder.execute("BEGIN EXCLUSIVE")
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            in_wal_mode(path, wait=0.2)
        holder.execute("ROLLBACK")
    assert journal_mode(path) != "wal"
