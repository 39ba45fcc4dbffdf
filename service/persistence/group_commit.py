"""Group commit: the moves of many games, saved by many threads, in one transaction.

eventsourcing's PostgreSQL recorder takes ``LOCK TABLE ... IN EXCLUSIVE
MODE`` for every insert, so that notification ids commit in the order they
were issued (a reader tailing the notification log then never passes over an
id that commits later). The price: every save is its own transaction and
they all queue for the lock, each holding it through its own commit.

``GroupCommitRecorder`` keeps the lock, so the log stays gap-free in commit
order, but takes it once for many saves: ``insert_events`` puts the caller's
events on a queue and waits; one committer thread per process takes
everything queued (up to ``MAX_BATCH_EVENTS``) and writes it in one
transaction:

1. ``LOCK TABLE`` (as the stock recorder: writers of other processes wait);
2. read the highest stored version of every aggregate in the batch; a save
   whose first event is not above it (someone else stored that version
   first), or that collides with an earlier save of the same batch, is
   refused with ``IntegrityError`` on its own and left out: the others go
   on; the lock makes the check exact, no one else can insert meanwhile;
3. insert the rest with one statement, ``NOTIFY``, commit, and hand each
   caller its notification ids.

A batch never waits to fill up: the committer takes what is there the moment
the previous commit is done, so a move waits at most for the commit in flight
and its own. Saves that pass other arguments (a tracking record) keep the
stock path.
"""

import threading
from collections import deque
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg.sql import SQL, Identifier

MAX_BATCH_EVENTS = 1000
IDLE_SECONDS = 1.0  # the committer thread ends after this long without work (a new one starts on demand)


class _Save:
    __slots__ = ("done", "error", "events", "ids")

    def __init__(self, events: Sequence[StoredEvent]) -> None:
        self.events = events
        self.done = threading.Event()
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
        self._insert_batch = SQL(
            "INSERT INTO {table} (originator_id, originator_version, topic, state) "
            "SELECT originator_id, originator_version, topic, state FROM unnest(%s::{schema}.{kind}[]) "
            "RETURNING originator_id, originator_version, notification_id"
        ).format(
            table=table,
            schema=Identifier(self.datastore.schema),
            kind=Identifier(self.stored_event_type_name),
        )
        self._queue: deque[_Save] = deque()
        self._wakeup = threading.Condition()
        self._committer: threading.Thread | None = None

    # ------------------------------------------------------------------
    # the callers' side

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if kwargs or self.datastore.enable_db_functions:
            return super().insert_events(stored_events, **kwargs)
        if not stored_events:
            return []
        save = _Save(stored_events)
        with self._wakeup:
            self._queue.append(save)
            if self._committer is None:
                self._committer = threading.Thread(
                    target=self._commit_forever, name="group-commit", daemon=True
                )
                self._committer.start()
            self._wakeup.notify()
        save.done.wait()
        if save.error is not None:
            raise save.error
        return save.ids

    # ------------------------------------------------------------------
    # the committer's side

    def _commit_forever(self) -> None:
        while True:
            with self._wakeup:
                if not self._queue:
                    self._wakeup.wait(IDLE_SECONDS)
                if not self._queue:
                    self._committer = None
                    return
                batch = [self._queue.popleft()]
                size = len(batch[0].events)
                while self._queue and size + len(self._queue[0].events) <= MAX_BATCH_EVENTS:
                    save = self._queue.popleft()
                    batch.append(save)
                    size += len(save.events)
            self._commit(batch)

    def _commit(self, batch: list[_Save]) -> None:
        accepted: list[_Save] = []
        try:
            with self.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:
                self._lock_table(curs)
                ids = list({event.originator_id for save in batch for event in save.events})
                curs.execute(self._select_max_versions, (ids,), prepare=True)
                stored = {row["originator_id"]: row["version"] for row in curs.fetchall()}
                for save in batch:
                    refusal = self._conflict(save, stored)
                    if refusal is None:
                        accepted.append(save)
                    else:
                        save.error = IntegrityError(refusal)
                if accepted:
                    rows = [
                        self.construct_pg_stored_event(
                            e.originator_id, e.originator_version, e.topic, e.state
                        )
                        for save in accepted
                        for e in save.events
                    ]
                    self._notify_channel(curs)
                    curs.execute(self._insert_batch, (rows,), prepare=True)
                    numbers = {
                        (row["originator_id"], row["originator_version"]): row["notification_id"]
                        for row in curs.fetchall()
                    }
                    for save in accepted:
                        save.ids = [numbers[(e.originator_id, e.originator_version)] for e in save.events]
        except BaseException as error:  # the transaction did not commit: no save of the batch is stored
            for save in accepted:
                save.ids = None
                save.error = None
            for save in batch:
                if save.error is None:
                    save.error = _each_their_own(error)
        finally:
            for save in batch:
                save.done.set()

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
