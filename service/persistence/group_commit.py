"""Group commit: the moves of many games, saved by many threads, in one transaction.

eventsourcing's PostgreSQL recorder takes ``LOCK TABLE ... IN EXCLUSIVE
MODE`` for every insert, so that notification ids commit in the order they
were issued (a reader tailing the notification log then never passes over an
id that commits later). The price: every save is its own transaction and
they all queue for the lock, each holding it through its own commit.

``GroupCommitRecorder`` keeps a lock, so the log stays gap-free in commit
order, but takes it once for many saves. The lock is the log's advisory lock,
not the table's, so that a vacuum holds no move up (``log_lock``).

A caller of ``insert_events`` leads when fewer than ``LEADERS`` commits are in
flight: it commits its own save together with everything queued (up to
``MAX_BATCH_EVENTS``), then hands the lead to the first caller queued
meanwhile; other callers queue and wait. One transaction, in one round trip: a
call of a PL/pgSQL function (made with the table, and replaced whenever the
tables are made) that takes the lock (writers of other processes wait),
inserts the whole batch and ``NOTIFY``s it; each caller gets its notification
ids. (eventsourcing's own ``POSTGRES_ENABLE_DB_FUNCTIONS`` function leaves the
lock out, which lets ids commit out of order: unsafe.)

If a version is stored already (someone else saved that game first), that
transaction fails whole and the batch is tried again, checked: under the lock,
the saves colliding with stored events are refused with ``IntegrityError``,
each on its own, and the others are stored. The lock makes the check exact:
no one else inserts meanwhile. (Two saves of one batch writing the same
version: the later is refused before anything is sent.)

A batch never waits to fill up: a move waits at most for the commit in flight
and its own, and a lone writer commits at once, in its own thread. Saves that
pass a tracking record (process applications) keep the stock path.

The leader sends the batch on a connection the recorder keeps out of the pool
(one per leader, taken from the pool on first use, given back when it breaks
or the application closes): a pool checkout and return per batch cost about
as much CPU as the insert itself, and the batches are the hot path.
"""

import threading
from collections import deque
from collections.abc import Sequence
from typing import Any

import psycopg
from eventsourcing.persistence import (
    IntegrityError,
    InterfaceError,
    OperationalError,
    PersistenceError,
    StoredEvent,
)
from eventsourcing.postgres import PostgresDatastore
from psycopg.pq import TransactionStatus
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier, Literal

from service.persistence.log_lock import LogLockedRecorder, log_lock_key

MAX_BATCH_EVENTS = 1000
# The note each batch sends names the aggregates it stored (their ids, space-separated), so that a
# process following some games live (``service.projections.live``) reads only theirs; then, on a
# line of its own, the events themselves, so that it folds them without reading them back: a JSON
# array of ``[originator_id, originator_version, topic, state (base64), notification_id]`` in log
# order. A batch whose events do not fit in a note (PostgreSQL's limit is 8000 bytes) sends only
# the names, and one naming more than fits an empty note: "look at all of yours". (A process that
# knows only names, of an earlier version, reads a note's names and passes over the rest.)
# A note reaches only the database's own sessions that LISTEN, which may read the table anyway:
# the events it carries (hidden cards among them) go to no one new, and no note is ever logged.
NOTE_LIMIT = 7900
# Batches in flight at once: the second sends its transaction while the first commits, and
# waits for the log's lock in the server, so no round trip is lost between commits.
LEADERS = 1


class _Save:
    __slots__ = ("done", "error", "events", "ids", "leads", "wake")

    def __init__(self, events: Sequence[StoredEvent]) -> None:
        self.events = events
        self.done = False
        self.leads = False  # this caller commits the next batch, for everyone queued
        self.ids: list[int] | None = None
        self.error: BaseException | None = None
        self.wake = threading.Lock()  # held until the save is done or its caller is to lead
        self.wake.acquire()


class GroupCommitRecorder(LogLockedRecorder):
    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        table = SQL("{0}.{1}").format(Identifier(self.datastore.schema), Identifier(self.events_table_name))
        id_type = SQL(self.datastore.originator_id_type)
        self._insert_batch = SQL(
            "INSERT INTO {table} (originator_id, originator_version, topic, state) "
            "SELECT * FROM unnest(%s::{id_type}[], %s::bigint[], %s::text[], %s::bytea[]) "
            "RETURNING originator_id, originator_version, notification_id"
        ).format(table=table, id_type=id_type)
        self._select_stored = SQL(
            "SELECT t.originator_id, t.originator_version"
            " FROM unnest(%s::{id_type}[], %s::bigint[]) AS b(originator_id, originator_version)"
            " JOIN LATERAL (SELECT originator_id, originator_version FROM {table} s"
            " WHERE s.originator_id = b.originator_id"
            " AND s.originator_version = b.originator_version) t ON true"
        ).format(table=table, id_type=id_type)
        key = Literal(log_lock_key(self.datastore.schema, self.events_table_name))
        # The usual batch: one statement, run as its own transaction. Unlike eventsourcing's
        # POSTGRES_ENABLE_DB_FUNCTIONS function, this one takes the log's lock first.
        function = Identifier(f"{self.events_table_name}_insert_batch")
        timeout = self.datastore.lock_timeout
        self.sql_create_statements.append(
            SQL(
                "CREATE OR REPLACE FUNCTION {schema}.{function}"
                "(ids {id_type}[], versions bigint[], topics text[], states bytea[]) "
                "RETURNS TABLE (originator_id {id_type}, originator_version bigint, notification_id bigint) "
                "LANGUAGE plpgsql AS $BODY$ DECLARE note text; carried text; "
                "stored_ids {id_type}[]; stored_versions bigint[]; positions bigint[]; BEGIN "
                "{set_timeout}"
                "PERFORM pg_advisory_xact_lock({key}); "
                "WITH stored AS (INSERT INTO {table} AS t (originator_id, originator_version, topic, state) "
                "SELECT * FROM unnest(ids, versions, topics, states) "
                "RETURNING t.originator_id, t.originator_version, t.topic, t.state, t.notification_id) "
                "SELECT array_agg(s.originator_id ORDER BY s.notification_id), "
                "array_agg(s.originator_version ORDER BY s.notification_id), "
                "array_agg(s.notification_id ORDER BY s.notification_id), "
                "json_agg(json_build_array(s.originator_id, s.originator_version, s.topic, "
                "translate(encode(s.state, 'base64'), E'\\n', ''), s.notification_id) "
                "ORDER BY s.notification_id)::text "
                "INTO stored_ids, stored_versions, positions, carried FROM stored s; "
                "note := array_to_string(ARRAY(SELECT DISTINCT unnest(ids)), ' '); "
                f"IF length(note) > {NOTE_LIMIT} THEN note := ''; "
                f"ELSIF length(note) + length(carried) < {NOTE_LIMIT} THEN "
                "note := note || E'\\n' || carried; "
                "END IF; "
                "PERFORM pg_notify({channel}, note); "
                "RETURN QUERY SELECT * FROM unnest(stored_ids, stored_versions, positions); "
                "END; $BODY$"
            ).format(
                schema=Identifier(self.datastore.schema),
                function=function,
                id_type=id_type,
                table=table,
                key=key,
                channel=Literal(self.channel_name),
                set_timeout=SQL(f"SET LOCAL lock_timeout = '{int(timeout)}s'; " if timeout else ""),
            )
        )
        # rendered once: psycopg renders a composed query again at every execute
        self._call_insert_batch = (
            SQL("SELECT * FROM {schema}.{function}(%s::{id_type}[], %s::bigint[], %s::text[], %s::bytea[])")
            .format(
                id_type=id_type,
                schema=Identifier(self.datastore.schema),
                function=function,
            )
            .as_string(None)
        )
        # the stock recorder sets lock_timeout (0 by default: wait as long as it takes) before locking;
        # the table's ROW EXCLUSIVE (a vacuum does not wait for it) keeps a writer that takes the table
        # lock from inserting between the check of a batch and its insert
        self._lock = [
            *(self.lock_table_statements if self.datastore.lock_timeout else [self.log_lock]),
            SQL("LOCK TABLE {table} IN ROW EXCLUSIVE MODE").format(table=table),
        ]
        self._notify = SQL("SELECT pg_notify({channel}, %s)").format(channel=Literal(self.channel_name))
        self.batches = 0  # transactions committed, and the saves in them: saves/batches is the batch size
        self.saves = 0
        self._queue: deque[_Save] = deque()
        self._mutex = threading.Lock()
        self._leaders = 0
        self._held: list[psycopg.Cursor[Any]] = []  # the leaders' connections, each with its cursor

    def close(self) -> None:
        """Give the leaders' connections back to the pool (which closes them if it is closed)."""
        with self._mutex:
            held, self._held = self._held, []
        for cursor in held:
            self.datastore.pool.putconn(cursor.connection)

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if any(value is not None for value in kwargs.values()) or self.datastore.enable_db_functions:
            return super().insert_events(stored_events, **kwargs)
        if not stored_events:
            return []
        save = _Save(stored_events)
        with self._mutex:
            if self._leaders < LEADERS:
                self._leaders += 1
                save.leads = True
            else:
                self._queue.append(save)
        if not save.leads:
            save.wake.acquire()  # until a leader has committed this save, or hands it the lead
        if not save.done:
            self._lead(save)
        if save.error is not None:
            raise save.error
        return save.ids

    def _lead(self, save: _Save) -> None:
        """Commit this save with what is queued, then hand the lead to the first caller queued
        meanwhile: it takes whatever has queued by then, so batches grow with the load. (A
        leader that went on committing for the others made smaller batches and longer waits.)"""
        batch = [save]
        with self._mutex:
            size = len(save.events)
            while self._queue and size + len(self._queue[0].events) <= MAX_BATCH_EVENTS:
                batch.append(self._queue.popleft())
                size += len(batch[-1].events)
        try:
            self._commit(batch)
        finally:
            with self._mutex:
                for done in batch:
                    done.done = True
                following = None
                if self._queue:  # the lead passes to the first in the queue, out of the queue
                    following = self._queue.popleft()
                    following.leads = True
                else:
                    self._leaders -= 1
            for done in batch[1:]:
                done.wake.release()
            if following is not None:
                following.wake.release()

    def _commit(self, batch: list[_Save]) -> None:
        # a save writing an (id, version) that an earlier save of the batch writes is refused first
        claimed: set[tuple[Any, int]] = set()
        saves: list[_Save] = []
        for save in batch:
            keys = [(e.originator_id, e.originator_version) for e in save.events]
            if len(set(keys)) < len(keys) or not claimed.isdisjoint(keys):
                save.error = IntegrityError("another save of the same batch writes these versions")
            else:
                claimed.update(keys)
                saves.append(save)
        try:
            try:
                rows = self._insert_at_once(saves)
            except IntegrityError:
                # someone stored one of these versions first: find out whose save it spoils
                rows = self._insert(saves, check=True)
        except BaseException as error:  # nothing of the batch is stored
            for save in saves:
                if save.error is None:
                    save.error = _each_their_own(error)
            return
        numbers = {(row[0], row[1]): row[2] for row in rows}  # (id, version) -> notification id
        for save in saves:
            if save.error is None:
                save.ids = [numbers[(e.originator_id, e.originator_version)] for e in save.events]
                self.saves += 1
        self.batches += 1

    def _insert_at_once(self, saves: list[_Save]) -> list[Any]:
        """Insert the saves in one statement (its own transaction): all or, on a collision, none."""
        events = [e for save in saves for e in save.events]
        # array literals made here: psycopg's adaptation of Python lists costs more than the insert
        columns = (
            "{" + ",".join([str(e.originator_id) for e in events]) + "}",
            "{" + ",".join([str(e.originator_version) for e in events]) + "}",
            "{" + ",".join([_quoted(e.topic) for e in events]) + "}",
            "{" + ",".join(['"\\\\x' + e.state.hex() + '"' for e in events]) + "}",
        )
        with self._mutex:
            cursor = self._held.pop() if self._held else None
        if cursor is None:
            timeout = self.datastore.pool_open_timeout
            try:
                self.datastore.pool.open(timeout is not None, timeout or 30.0)  # as the datastore does
                cursor = self.datastore.pool.getconn().cursor(row_factory=tuple_row)
            except psycopg.Error as error:  # no connection to be had (the pool's timeout is one)
                raise _translated(error) from error
        try:
            cursor.execute(self._call_insert_batch, columns, prepare=True)
            rows = cursor.fetchall()
        except psycopg.Error as error:
            connection = cursor.connection
            if connection.broken or connection.closed:  # the pool throws it away and connects again
                self.datastore.pool.putconn(connection)
                cursor = None
            raise _translated(error) from error
        finally:
            if cursor is not None:
                with self._mutex:
                    self._held.append(cursor)
        return rows

    def _insert(self, saves: list[_Save], check: bool) -> list[Any]:
        """Insert the saves in one transaction; with ``check``, first refuse those that collide
        with stored events. Without, one collision fails all (``IntegrityError``, nothing stored)."""
        with self.datastore.get_connection() as conn:
            failure: BaseException | None = None
            rows: list[Any] = []
            with conn.pipeline() as pipeline, conn.cursor(row_factory=tuple_row) as curs:
                try:
                    curs.execute("BEGIN")
                    for statement in self._lock:
                        curs.execute(statement, prepare=True)
                    if check:
                        events = [e for save in saves for e in save.events]
                        keys = ([e.originator_id for e in events], [e.originator_version for e in events])
                        curs.execute(self._select_stored, keys, prepare=True)
                        pipeline.sync()
                        stored = {(row[0], row[1]) for row in curs.fetchall()}
                        for save in saves:
                            if any((e.originator_id, e.originator_version) in stored for e in save.events):
                                save.error = IntegrityError("a version of this save is stored already")
                    events = [e for save in saves if save.error is None for e in save.events]
                    if events:
                        curs.execute(self._notify, (note_of(events),), prepare=True)
                        columns = (
                            [e.originator_id for e in events],
                            [e.originator_version for e in events],
                            [e.topic for e in events],
                            [e.state for e in events],
                        )
                        with conn.cursor(row_factory=tuple_row) as insert:
                            insert.execute(self._insert_batch, columns, prepare=True)
                            curs.execute("COMMIT")  # BEGIN to COMMIT in one round trip
                            pipeline.sync()
                            rows = insert.fetchall()
                    else:
                        curs.execute("COMMIT")
                        pipeline.sync()
                except BaseException as error:
                    failure = error  # raised once the pipeline has ended: psycopg warns otherwise
            if failure is not None:
                if conn.info.transaction_status != TransactionStatus.IDLE:
                    conn.rollback()
                raise failure
            return rows


def _translated(error: psycopg.Error) -> PersistenceError:
    """The error as eventsourcing's datastore raises it (callers catch ``IntegrityError``)."""
    for raised, ours in (
        (psycopg.IntegrityError, IntegrityError),
        (psycopg.OperationalError, OperationalError),
        (psycopg.InterfaceError, InterfaceError),
    ):
        if isinstance(error, raised):
            return ours(str(error))
    return PersistenceError(str(error))


def note_of(events: Sequence[StoredEvent]) -> str:
    """The note of a batch: its aggregates' ids, or nothing when they would not fit."""
    note = " ".join({str(e.originator_id): None for e in events})
    return "" if len(note) > NOTE_LIMIT else note


def _quoted(text: str) -> str:
    """``text`` as an element of a PostgreSQL array literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _each_their_own(error: BaseException) -> BaseException:
    """A copy of the error for one waiting caller (one exception object raised in many threads
    would gather all their tracebacks)."""
    try:
        copy = type(error)(*error.args)
    except Exception:
        return error
    copy.__cause__ = error
    return copy
