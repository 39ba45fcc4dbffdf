"""Group commit: the moves of many games, saved by many threads, in one transaction.

eventsourcing's PostgreSQL recorder takes ``LOCK TABLE ... IN EXCLUSIVE
MODE`` for every insert, so that notification ids commit in the order they
were issued (a reader tailing the notification log then never passes over an
id that commits later). The price: every save is its own transaction and
they all queue for the lock, each holding it through its own commit.

``GroupCommitRecorder`` keeps the lock, so the log stays gap-free in commit
order, but takes it once for many saves. ``insert_events`` queues the
caller's events; if no commit is in flight, the caller leads: it takes
everything queued (up to ``MAX_BATCH_EVENTS``) and writes it in one
transaction, while callers arriving meanwhile queue up; when it is done it
hands the lead to the first of them, who commits the next batch for all who
wait. One transaction, in two round trips (pipelined):

1. ``LOCK TABLE`` (as the stock recorder: writers of other processes wait);
2. read the highest stored version of every aggregate in the batch; a save
   whose first event is not above it (someone else stored that version
   first), or that collides with an earlier save of the same batch, is
   refused with ``IntegrityError`` on its own and left out: the others go
   on; the lock makes the check exact, no one else can insert meanwhile;
3. insert the rest with one statement, ``NOTIFY``, commit, and hand each
   caller its notification ids.

A batch never waits to fill up: a move waits at most for the commit in flight
and its own, and a lone writer commits at once, in its own thread. Saves that
pass a tracking record (process applications) keep the stock path.
"""

import threading
from collections import deque
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg.sql import SQL, Identifier

MAX_BATCH_EVENTS = 1000


class _Save:
    __slots__ = ("done", "error", "events", "ids", "leads")

    def __init__(self, events: Sequence[StoredEvent]) -> None:
        self.events = events
        self.done = False
        self.leads = False  # this caller commits the next batch, for everyone queued
        self.ids: list[int] | None = None
        self.error: BaseException | None = None


class GroupCommitRecorder(PostgresApplicationRecorder):
    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        table = SQL("{0}.{1}").format(Identifier(self.datastore.schema), Identifier(self.events_table_name))
        self._select_max_versions = SQL(
            "SELECT originator_id, max(originator_version) AS version FROM {table} "
            "WHERE originator_id = ANY(%s) GROUP BY originator_id"
        ).format(table=table)
        id_type = SQL(self.datastore.originator_id_type)
        self._insert_batch = SQL(
            "INSERT INTO {table} (originator_id, originator_version, topic, state) "
            "SELECT * FROM unnest(%s::{id_type}[], %s::bigint[], %s::text[], %s::bytea[]) "
            "RETURNING originator_id, originator_version, notification_id"
        ).format(table=table, id_type=id_type)
        self.batches = 0  # transactions committed, and the saves in them: saves/batches is the batch size
        self.saves = 0
        self._queue: deque[_Save] = deque()
        self._turns = threading.Condition()
        self._leading = False

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if any(value is not None for value in kwargs.values()) or self.datastore.enable_db_functions:
            return super().insert_events(stored_events, **kwargs)
        if not stored_events:
            return []
        save = _Save(stored_events)
        with self._turns:
            self._queue.append(save)
            if self._leading:
                while not (save.done or save.leads):
                    self._turns.wait()
            else:
                self._leading = save.leads = True
        if save.leads:
            # this caller leads: it commits what is queued (its own save first), then hands over
            with self._turns:
                batch = [self._queue.popleft()]
                size = len(batch[0].events)
                while self._queue and size + len(self._queue[0].events) <= MAX_BATCH_EVENTS:
                    batch.append(self._queue.popleft())
                    size += len(batch[-1].events)
            try:
                self._commit(batch)
            finally:
                with self._turns:
                    for done in batch:
                        done.done = True
                    if self._queue:
                        self._queue[0].leads = True
                    else:
                        self._leading = False
                    self._turns.notify_all()
        if save.error is not None:
            raise save.error
        return save.ids

    def _commit(self, batch: list[_Save]) -> None:
        accepted: list[_Save] = []
        failure: BaseException | None = None
        try:
            with self.datastore.get_connection() as conn:
                with conn.pipeline() as pipeline, conn.transaction(), conn.cursor() as curs:
                    try:
                        self._lock_table(curs)
                        ids = list({event.originator_id for save in batch for event in save.events})
                        curs.execute(self._select_max_versions, (ids,), prepare=True)
                        pipeline.sync()
                        stored = {row["originator_id"]: row["version"] for row in curs.fetchall()}
                        for save in batch:
                            refusal = self._conflict(save, stored)
                            if refusal is None:
                                accepted.append(save)
                            else:
                                save.error = IntegrityError(refusal)
                        if accepted:
                            events = [e for save in accepted for e in save.events]
                            self._notify_channel(curs)
                            curs.execute(
                                self._insert_batch,
                                (
                                    [e.originator_id for e in events],
                                    [e.originator_version for e in events],
                                    [e.topic for e in events],
                                    [e.state for e in events],
                                ),
                                prepare=True,
                            )
                            pipeline.sync()
                            numbers = {
                                (row["originator_id"], row["originator_version"]): row["notification_id"]
                                for row in curs.fetchall()
                            }
                    except BaseException as error:
                        # raised after the pipeline has ended, so psycopg does not warn about it
                        failure = error
                if failure is not None:
                    raise failure
            for save in accepted:
                save.ids = [numbers[(e.originator_id, e.originator_version)] for e in save.events]
            self.batches += 1
            self.saves += len(accepted)
        except BaseException as error:  # the transaction did not commit: no save of the batch is stored
            for save in batch:
                if save.error is None or save in accepted:
                    save.ids = None
                    save.error = _each_their_own(error)

    @staticmethod
    def _conflict(save: _Save, stored: dict[Any, int]) -> str | None:
        """Why this save cannot be stored after what is stored (and accepted so far); records it if it can."""
        first: dict[Any, int] = {}
        last: dict[Any, int] = {}
        for event in save.events:
            key = event.originator_id
            version = event.originator_version
            if key in last and version <= last[key]:
                return f"events of {key} out of order in one save"
            first.setdefault(key, version)
            last[key] = version
        for key, version in first.items():
            if version <= stored.get(key, 0):
                return f"{key} version {version} is stored already"
        stored.update(last)
        return None


def _each_their_own(error: BaseException) -> BaseException:
    """A copy of the error for one waiting caller (one exception object raised in many threads
    would gather all their tracebacks)."""
    try:
        copy = type(error)(*error.args)
    except Exception:
        return error
    copy.__cause__ = error
    return copy
