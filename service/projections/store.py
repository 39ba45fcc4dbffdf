"""Where the read models live: their tables written with their tracking record in one transaction.

``PostgresViews`` is an eventsourcing ``PostgresTrackingRecorder`` and ``SQLiteViews`` an
``SQLiteTrackingRecorder`` (the embedded default, in its own file beside the event store, so the
projection never waits for the application's writer). Both make the same tables (``views_*``; on
PostgreSQL in ``MAUMAU_DATABASE_SCHEMA``) and answer the same queries; only the ``Dialect`` differs.

The tables are the views' (``service.projections.views``: each view's module makes its own, and
says what is in them), ``views_stale`` (the parts that stopped at an event: ``parts``), and what the
store keeps that is no read model (``service.persistence``: token use and last writes, the web
sessions, the runner's failure). ``write`` stores a whole batch of changes and the last position
applied in one transaction: the single-row tracking record refuses a position that is not past the
stored one, so a batch is applied once or not at all.

A rebuild replaces ``TABLES`` (``aside``) and keeps the rest: the notes and sessions cannot be
rebuilt from the log, nor the webhook deliveries and their attempts, whose sending is recorded
nowhere else. A column added to a kept table after it was first made (``notices.ADDED_COLUMNS``) is
added by ``create_table`` to a table an earlier version made. A batch that folds a player's erasure
rewrites the deliveries' payloads naming them (``deliveries.erase_names``), and on SQLite truncates
the file's write-ahead log after it (``erasure.truncate_wal``).
"""

import contextlib
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.persistence import InfrastructureFactory, PersistenceError, Tracking, TrackingRecorder
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder
from eventsourcing.utils import Environment
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Composed, Identifier

from service.persistence import notes, notices, runner_failures, sessions
from service.persistence.dialect import Dialect
from service.persistence.erasure import truncate_wal
from service.persistence.notes import LastWrites, TokenUses
from service.persistence.runner_failures import RunnerFailures
from service.persistence.sqlite_wal import in_wal_mode
from service.projections import deliveries
from service.projections.views import VIEWS, Queries, ratings
from service.projections.views.base import Changes, StaleView, tracked_position
from service.projections.views.players import fold_names
from service.projections.watch import channel_for
from service.settings import Settings

NAME = "views"  # the projection's name: its tables are views_*
SQLITE_FILE_NAME = "projections.sqlite3"
ASIDE_FILE_NAME = "projections.rebuild.sqlite3"  # what a rebuild fills before it takes the live file's place
# what a rebuild replaces: the views' tables, the stale parts, the runner's failure (of the store it
# was written to)
TABLES = (*(table for view in VIEWS for table in view.tables), "stale", runner_failures.RUNNER)
# the statements a batch is written with, in this order
WRITES = (*(statement for view in VIEWS for statement in view.writes), "stale")
COLUMNAR = frozenset(statement for view in VIEWS for statement in view.columnar)
KEPT = (notes, sessions, runner_failures, notices)  # no read models (``service.persistence``)


def _create(d: Dialect) -> list[str]:
    stale = (
        f"CREATE TABLE IF NOT EXISTS {d.table('stale')} (view text PRIMARY KEY, "
        f"position {d.integer} NOT NULL, reason text NOT NULL, since {d.real} NOT NULL)"
    )
    return [
        *(sql for view in VIEWS for sql in view.create(d)),
        stale,
        *(sql for kept in KEPT for sql in kept.create(d)),
    ]


def _statements(d: Dialect) -> dict[str, str]:
    stale = d.table("stale")
    own = {
        "position": f"SELECT {tracked_position(d)} AS position",
        # the first failure of a part is the one kept: the part is stale from there on
        "stale": f"INSERT INTO {stale} VALUES ({d.marks(4)}) ON CONFLICT (view) DO NOTHING",
        "stale_views": f"SELECT view, position, reason, since FROM {stale} ORDER BY position, view",
    }
    for view in VIEWS:
        own |= view.statements(d)
    for kept in KEPT:
        own |= kept.statements(d)
    return own


class Views(TrackingRecorder, Queries):
    """The store both kinds answer for (``PostgresViews`` and ``SQLiteViews`` run the statements)."""

    aside = False  # the store a rebuild fills (``open_views``)

    def write(self, changes: Changes, tracking: Tracking) -> None:
        raise NotImplementedError

    def drop(self) -> None:
        """Drop every table of the read models, the tracking record's too."""
        raise NotImplementedError

    def stale_views(self) -> list[StaleView]:
        """The parts that stopped at an event they could not fold (none while all are sound)."""
        return [
            StaleView(view=view, position=position, reason=reason, since=since)
            for view, position, reason, since in self.query("stale_views", ())
        ]

    @property
    def token_uses(self) -> TokenUses:
        return TokenUses(self)

    @property
    def last_writes(self) -> LastWrites:
        return LastWrites(self)

    @property
    def runner_failures(self) -> RunnerFailures:
        return RunnerFailures(self, NAME)


def _rows(changes: Changes) -> Iterable[tuple[str, list[Any]]]:
    """Each statement with its rows, in the order they are written."""
    unknown = changes.rows.keys() - set(WRITES)
    if unknown:
        raise ValueError(f"rows for statements no view writes: {sorted(unknown)}")
    for key in WRITES:
        rows = changes.rows.get(key)
        if rows:
            yield key, rows


class PostgresViews(PostgresTrackingRecorder, Views):
    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        schema = Identifier(datastore.schema)

        def table(name: str) -> str:
            return SQL("{}.{}").format(schema, Identifier(f"{NAME}_{name}")).as_string()

        self._table = table
        self._ph = "%s"
        tracking = SQL("{}.{}").format(schema, Identifier(self.tracking_table_name)).as_string()
        holds = "position(%s IN payload) > 0"
        dialect = Dialect(
            table=table,
            ph="%s",
            uuid="uuid",
            blob="bytea",
            integer="bigint",
            real="double precision",
            unlogged="UNLOGGED ",
            holds=holds,
            tracking=tracking,
            postgres=True,
            prefix=NAME,
        )
        self.dialect = dialect
        self.statements = _statements(dialect)
        for statement in _create(dialect):
            self.sql_create_statements.append(Composed([SQL(statement)]))

    def create_table(self) -> None:
        super().create_table()
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                "SELECT 1 FROM information_schema.columns WHERE table_schema = %s AND table_name = %s "
                "AND column_name = 'folded'",
                (self.datastore.schema or "public", f"{NAME}_players"),
            )
            if curs.fetchone() is None:
                players = self._table("players")
                curs.execute(
                    f"ALTER TABLE {players} ADD COLUMN IF NOT EXISTS folded text NOT NULL DEFAULT ''"
                )
                fold_names(curs, players, "%s")
            for table, column, kind in notices.ADDED_COLUMNS:
                # looked for first: an ALTER TABLE would lock the table even when it changes nothing
                curs.execute(
                    "SELECT 1 FROM information_schema.columns WHERE table_schema = %s AND table_name = %s "
                    "AND column_name = %s",
                    (self.datastore.schema or "public", f"{NAME}_{table}", column),
                )
                if curs.fetchone() is None:
                    curs.execute(f"ALTER TABLE {self._table(table)} ADD COLUMN IF NOT EXISTS {column} {kind}")
            ratings.rekey_history(curs, self.dialect)
            compress_with_lz4(curs, self.datastore.schema or "public")

    @property
    def channel(self) -> str:
        """Where each batch's position is told (``service.projections.watch``)."""
        return channel_for(self.datastore.schema)

    def write(self, changes: Changes, tracking: Tracking) -> None:
        s = self.statements
        with self.datastore.transaction(commit=True) as curs:
            for key, rows in _rows(changes):
                if key in COLUMNAR:
                    curs.execute(s[key], [list(column) for column in zip(*rows, strict=True)])
                else:
                    curs.executemany(s[key], rows)
            deliveries.erase_names(curs, s, changes.erased)
            self._insert_tracking(curs, tracking)
            # delivered at commit: a listener told this position finds the rows written
            curs.execute("SELECT pg_notify(%s, %s)", (self.channel, str(tracking.notification_id)))

    def load_states(self, game_ids: Iterable[UUID]) -> list[tuple[UUID, bytes]]:
        ids = list(game_ids)
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self.statements["states"] + " = ANY(%s)", (ids,), prepare=True)
            return [(row["game_id"], bytes(row["state"])) for row in curs.fetchall()]

    def query(self, name: str, params: Sequence[Any], suffix: str = "") -> list[tuple[Any, ...]]:
        # tuples as the rows come: the datastore's default rows are dicts, made per row and unpacked again
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            curs.execute(self.statements[name] + suffix, params, prepare=not suffix)
            return curs.fetchall()

    def select(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            curs.execute(sql, params)
            return curs.fetchall()

    def execute(self, name: str, params: Sequence[Any]) -> None:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(self.statements[name], params)

    def execute_all(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> None:
        with self.datastore.transaction(commit=True) as curs:
            for name, params in steps:
                curs.execute(self.statements[name], params)

    def change(self, name: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(self.statements[name], params)
            return [tuple(row.values()) for row in curs.fetchall()]

    def _in(self, count: int) -> str:
        return " IN (" + ", ".join(["%s"] * count) + ")"

    def drop(self) -> None:
        tables = [self._table(name) for name in TABLES]
        tracking = SQL("{}.{}").format(
            Identifier(self.datastore.schema), Identifier(self.tracking_table_name)
        )
        with self.datastore.transaction(commit=True) as curs:
            for table in tables:
                curs.execute(f"DROP TABLE IF EXISTS {table}")
            curs.execute(SQL("DROP TABLE IF EXISTS {}").format(tracking))


def compress_with_lz4(curs: Any, schema: str) -> None:
    """The read models' documents compressed with lz4 where the server has it, not PostgreSQL's default
    pglz: a batch rewrites each changed document whole (a 256-player tournament's and its state, about
    190 kB), and pglz spent about 2 ms of the server's CPU on that, lz4 a third of it, for the same
    size on disk. A column already set is looked for first: an ALTER TABLE locks its table."""
    curs.execute(
        "SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'"
    )
    found = curs.fetchone()
    if not found or not found["lz4"]:
        return  # a server built without lz4 (or older than 14) keeps its default
    curs.execute(
        "SELECT c.relname, a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
        "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relkind = 'r' "
        "AND c.relname LIKE %s AND a.atttypid = 'bytea'::regtype AND NOT a.attisdropped "
        "AND a.attcompression IS DISTINCT FROM 'l'",
        (schema, f"{NAME}\\_%"),
    )
    for row in curs.fetchall():
        curs.execute(
            SQL("ALTER TABLE {}.{} ALTER COLUMN {} SET COMPRESSION lz4").format(
                Identifier(schema), Identifier(row["relname"]), Identifier(row["attname"])
            )
        )


class SQLiteViews(SQLiteTrackingRecorder, Views):
    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)

        def table(name: str) -> str:
            return f"{NAME}_{name}"

        self._table = table
        self._ph = "?"
        holds = "instr(payload, ?) > 0"
        dialect = Dialect(
            table=table,
            ph="?",
            uuid="text",
            blob="blob",
            integer="integer",
            real="real",
            unlogged="",
            holds=holds,
            tracking="tracking",
            postgres=False,
            prefix=NAME,
        )
        self.dialect = dialect
        self.statements = _statements(dialect)
        self.create_table_statements += _create(dialect)

    def create_table(self) -> None:
        super().create_table()
        players = self._table("players")
        with self.datastore.transaction(commit=True) as c:
            c.execute(f"PRAGMA table_info({players})")
            if "folded" not in {row["name"] for row in c.fetchall()}:
                c.execute(f"ALTER TABLE {players} ADD COLUMN folded text NOT NULL DEFAULT ''")
                fold_names(c, players, "?")
            for table, column, kind in notices.ADDED_COLUMNS:
                c.execute(f"PRAGMA table_info({self._table(table)})")
                if column not in {row["name"] for row in c.fetchall()}:
                    c.execute(f"ALTER TABLE {self._table(table)} ADD COLUMN {column} {kind}")
            ratings.rekey_history(c, self.dialect)

    def write(self, changes: Changes, tracking: Tracking) -> None:
        s = self.statements
        with self.datastore.transaction(commit=True) as c:
            if changes.erased:
                # the erased names' old rows and payloads are zeroed where they lay, not left as free space
                c.execute("PRAGMA secure_delete = ON")
            for key, rows in _rows(changes):
                c.executemany(s[key], rows)
            deliveries.erase_names(c, s, changes.erased)
            self._insert_tracking(c, tracking)
        if changes.erased:
            # the write-ahead log still holds the pages as they were, the names in them
            truncate_wal(self.datastore)

    def load_states(self, game_ids: Iterable[UUID]) -> list[tuple[UUID, bytes]]:
        ids = [str(game_id) for game_id in game_ids]
        found: list[tuple[UUID, bytes]] = []
        # SQLite allows a limited number of parameters per statement
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = self.query("states", chunk, self._in(len(chunk)))
            found += [(UUID(game_id), bytes(state)) for game_id, state in rows]
        return found

    def query(self, name: str, params: Sequence[Any], suffix: str = "") -> list[tuple[Any, ...]]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(self.statements[name] + suffix, params)
            return [tuple(row) for row in c.fetchall()]

    def select(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(sql, params)
            return [tuple(row) for row in c.fetchall()]

    def execute(self, name: str, params: Sequence[Any]) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(self.statements[name], params)

    def execute_all(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> None:
        with self.datastore.transaction(commit=True) as c:
            for name, params in steps:
                c.execute(self.statements[name], params)

    def change(self, name: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self.datastore.transaction(commit=True) as c:
            c.execute(self.statements[name], params)
            return [tuple(row) for row in c.fetchall()]

    def _in(self, count: int) -> str:
        return " IN (" + ", ".join(["?"] * count) + ")"

    def drop(self) -> None:
        with self.datastore.transaction(commit=True) as c:
            for name in TABLES:
                c.execute(f"DROP TABLE IF EXISTS {NAME}_{name}")
            c.execute("DROP TABLE IF EXISTS tracking")


# SQLite keeps ids as text: sqlite3 binds a UUID as its text itself, where rebuilding every row's tuple to
# turn its UUIDs into text cost a rebuild more than the inserts did (bench/ratings.py). Process-wide; no
# other code here binds a UUID to SQLite otherwise (sqlite3 refuses one without an adapter)
sqlite3.register_adapter(UUID, str)


def views_env(settings: Settings, aside: bool = False) -> dict[str, str]:
    """The eventsourcing settings of the read models' store; ``aside``: of the store a rebuild fills
    before it takes the place of the live one (``service.projections.aside``)."""
    env = settings.persistence_env()
    env.pop("APPLICATION_RECORDER_TOPIC", None)
    if not settings.uses_postgres:
        env["SQLITE_DBNAME"] = str(settings.data_dir / (ASIDE_FILE_NAME if aside else SQLITE_FILE_NAME))
    elif aside:
        env["POSTGRES_SCHEMA"] = aside_schema(settings)
    return env


def aside_schema(settings: Settings) -> str:
    return f"{settings.database_schema or 'public'}_rebuild"[:63]  # PostgreSQL's identifier length


def open_views(settings: Settings, connections: int | None = None, aside: bool = False) -> Views:
    """The read models' store for these settings, its tables created when missing.

    ``connections``: the PostgreSQL connections kept open (default ``settings.pool_size``);
    ``aside``: the store a rebuild fills (its schema is made first on PostgreSQL).
    """
    env = views_env(settings, aside)
    if connections is not None and settings.uses_postgres:
        env["POSTGRES_POOL_SIZE"] = str(connections)
    if not settings.uses_postgres:
        in_wal_mode(Path(env["SQLITE_DBNAME"]))
    kind: type[Views] = PostgresViews if settings.uses_postgres else SQLiteViews
    factory: InfrastructureFactory[Views] = InfrastructureFactory.construct(env=Environment(NAME, env))
    for attempt in (1, 2):
        try:
            views = factory.tracking_recorder(kind)
            views.aside = aside
            return views
        except PersistenceError:
            # another process created the tables at the same moment: the second look finds them
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def close_views(views: Views) -> None:
    with contextlib.suppress(Exception):
        views.datastore.close()  # type: ignore[attr-defined]
