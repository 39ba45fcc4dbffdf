"""The event log's lock: an advisory lock named after the events table, not the table's own.

Log positions must commit in the order they were issued, or a reader tailing
the log passes over a position that commits later. eventsourcing's recorder
gets that by taking ``LOCK TABLE ... IN EXCLUSIVE MODE`` in every writing
transaction. But ``VACUUM`` and ``ANALYZE`` (autovacuum's among them) hold the
table's ``SHARE UPDATE EXCLUSIVE`` lock, which ``EXCLUSIVE`` waits for: every
move waited for them. PostgreSQL cancels an autovacuum that blocks a lock after
``deadlock_timeout`` (1 s) unless it runs to prevent wraparound, so on a busy
log each autovacuum stalled the moves for a second and never finished, until
one that could not be cancelled held them for the whole vacuum.

A transaction-level advisory lock keyed by the schema and table serialises the
writers the same way, and a vacuum neither waits for it nor holds it up. A
writer that still takes the table lock (a process of an earlier version) still
takes turns with these: the ``ROW EXCLUSIVE`` lock an ``INSERT`` takes and
``EXCLUSIVE`` wait for each other.
"""

import hashlib
from typing import Any

from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg.sql import SQL, Composed, Literal


def log_lock_key(schema: str, table: str) -> int:
    """The advisory lock the writers of one event log take: the same in every process."""
    digest = hashlib.blake2b(f"maumau event log {schema}.{table}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def log_channel(schema: str, table: str) -> str:
    """The channel every insert into one event log notifies: named after its schema and table.

    eventsourcing's is the table's name alone, the same in every schema: deployments (or tests)
    sharing a database in schemas of their own woke each other's readers with every write. (While
    processes of an earlier version still write, readers hear their writes by the backstop only.)
    """
    channel = f"{schema}.{table}"
    if len(channel.encode()) > 63:  # PostgreSQL's identifier length: pg_notify refuses a longer one
        channel = "log_" + hashlib.blake2b(channel.encode(), digest_size=16).hexdigest()
    return channel


def log_lock(schema: str, table: str) -> Composed:
    """The statement that takes the log's lock until the transaction ends."""
    return SQL("SELECT pg_advisory_xact_lock({key})").format(key=Literal(log_lock_key(schema, table)))


class LogLockedRecorder(PostgresApplicationRecorder):
    """eventsourcing's recorder, its writes taking the log's lock instead of the table's."""

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.channel_name = log_channel(self.datastore.schema, self.events_table_name)
        # the stock statements: SET LOCAL lock_timeout (which bounds any lock's wait), then the lock
        self.log_lock = log_lock(self.datastore.schema, self.events_table_name)
        self.lock_table_statements = [*self.lock_table_statements[:-1], self.log_lock]
