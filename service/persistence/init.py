"""``maumau db init``: create every table the service needs, explicitly, safe to run twice or at once.

The tables: the application's (``maumau_events``, ``maumau_snapshots``, made
by eventsourcing's recorders when ``CREATE_TABLE`` is on) and the read models'
(``views_*`` and their tracking record, ``service.projections.store``). Every
statement is ``CREATE ... IF NOT EXISTS`` (or tolerates an existing object), so
a second run changes nothing and loses nothing.

Two runs at the same moment (a Kubernetes init container in every pod, a
compose one-shot and a person at a terminal) would still race inside
PostgreSQL's catalogue: two ``CREATE TABLE IF NOT EXISTS`` of one table can
both pass the check and one fail, and two ``CREATE OR REPLACE FUNCTION`` fail
with "tuple concurrently updated". So the work is done under a PostgreSQL
advisory lock (per schema; the server lets it go if the process dies), or a
lock file beside the SQLite file; a second run waits, then finds everything there.

On PostgreSQL the schema (``MAUMAU_DATABASE_SCHEMA``) is created when missing.
With ``MAUMAU_CREATE_TABLES=no`` the other processes leave the schema alone,
so this is the only place tables are made: run it before them (deploy/ does).
"""

import contextlib
import fcntl
import os
import sqlite3
from collections.abc import Iterator

import msgspec
import psycopg
from psycopg import sql

from service.application import MauMau
from service.projections.store import SQLITE_FILE_NAME as VIEWS_FILE_NAME
from service.projections.store import close_views, open_views
from service.settings import Settings

LOCK_FILE_NAME = "db-init.lock"


def init_database(settings: Settings) -> list[str]:
    """Create what is missing; the service's tables there afterwards, sorted."""
    # one connection is all it takes
    settings = msgspec.structs.replace(settings, create_tables=True, pool_size=1)
    with _exclusive(settings):
        if settings.database_url is not None:
            _create_schema(settings.database_url, schema_of(settings))
        MauMau(settings).close()  # its recorders create the event and snapshot tables
        close_views(open_views(settings))  # the read models' tables and their tracking record
    return tables(settings)


def schema_of(settings: Settings) -> str:
    return settings.database_schema or "public"


def tables(settings: Settings) -> list[str]:
    """The tables of the event store and the read models that exist now."""
    if settings.database_url is not None:
        with psycopg.connect(settings.database_url, connect_timeout=10) as conn:
            rows = conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s "
                "AND (table_name LIKE 'maumau\\_%%' OR table_name LIKE 'views\\_%%')",
                (schema_of(settings),),
            ).fetchall()
        return sorted(row[0] for row in rows)
    found: list[str] = []
    for path in (settings.sqlite_path, settings.data_dir / VIEWS_FILE_NAME):
        if path.exists():
            with contextlib.closing(sqlite3.connect(path)) as conn:
                rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
            found += [row[0] for row in rows]
    return sorted(found)


def _create_schema(url: str, schema: str) -> None:
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))


@contextlib.contextmanager
def _exclusive(settings: Settings) -> Iterator[None]:
    """One ``db init`` at a time, per PostgreSQL schema or SQLite data dir."""
    if settings.database_url is not None:
        with psycopg.connect(settings.database_url, autocommit=True, connect_timeout=10) as conn:
            key = f"maumau:{schema_of(settings)}:db-init"
            conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (key,))
            try:
                yield
            finally:
                conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (key,))
        return
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(settings.data_dir / LOCK_FILE_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing lets the lock go
