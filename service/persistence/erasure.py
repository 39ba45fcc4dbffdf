"""Scrubbing a person's personal data out of stored events, in place, on PostgreSQL and SQLite.

The one place the service changes a stored event: erasure on request
(``docs/privacy.md``). Each event of the given aggregates that holds personal
fields (``service.domain.privacy``) is encoded again with those fields set to
the label of the erased and written over its old state, under the same
originator, version, topic and position in the log; snapshots of those
aggregates are deleted (a snapshot is a cache, taken again from the events).

No query finds the old bytes afterwards. On disk, SQLite overwrites the freed
content (``secure_delete``) and truncates its write-ahead log after the scrub
(``truncate_wal``; the read models' file likewise after the batch that folds the
erasure, ``service.projections.store``); PostgreSQL keeps the old row version in
the table's file until a vacuum reclaims its space, and its write-ahead log until
a checkpoint recycles it (``docs/privacy.md``).
"""

import logging
from collections.abc import Iterable
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Mapper
from eventsourcing.postgres import PostgresAggregateRecorder, PostgresDatastore
from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteDatastore
from psycopg.sql import SQL, Identifier

from service.domain.privacy import scrubbed

log = logging.getLogger(__name__)


def scrub(recorder: Any, snapshots: Any, mapper: Mapper[UUID], originators: Iterable[UUID]) -> int:
    """Write the events of ``originators`` that hold personal data over with it scrubbed; how many.

    ``recorder``: the application's (events); ``snapshots``: its snapshot recorder, or None.
    """
    rows: list[tuple[bytes, UUID, int]] = []
    originators = list(originators)
    for originator in originators:
        for stored in recorder.select_events(originator):
            clean = scrubbed(mapper.to_domain_event(stored))
            if clean is not None:
                rows.append((mapper.to_stored_event(clean).state, originator, stored.originator_version))
    if isinstance(recorder, PostgresAggregateRecorder):
        _scrub_postgres(recorder, snapshots, rows, originators)
    elif isinstance(recorder, SQLiteAggregateRecorder):
        _scrub_sqlite(recorder, snapshots, rows, originators)
    else:
        raise TypeError(f"no way to scrub events in {type(recorder).__name__}")
    return len(rows)


def _scrub_postgres(
    recorder: PostgresAggregateRecorder, snapshots: Any, rows: list[tuple[bytes, UUID, int]], ids: list[UUID]
) -> None:
    datastore: PostgresDatastore = recorder.datastore
    table = SQL("{}.{}").format(Identifier(datastore.schema), Identifier(recorder.events_table_name))
    update = SQL("UPDATE {} SET state = %s WHERE originator_id = %s AND originator_version = %s")
    with datastore.transaction(commit=True) as cursor:
        cursor.executemany(update.format(table), rows)
        if isinstance(snapshots, PostgresAggregateRecorder):
            snapshot_table = SQL("{}.{}").format(
                Identifier(datastore.schema), Identifier(snapshots.events_table_name)
            )
            cursor.execute(SQL("DELETE FROM {} WHERE originator_id = ANY(%s)").format(snapshot_table), (ids,))


def _scrub_sqlite(
    recorder: SQLiteAggregateRecorder, snapshots: Any, rows: list[tuple[bytes, UUID, int]], ids: list[UUID]
) -> None:
    table = recorder.events_table_name
    update = f"UPDATE {table} SET state = ? WHERE originator_id = ? AND originator_version = ?"
    with recorder.datastore.transaction(commit=True) as cursor:
        # freed and overwritten content is zeroed in the file, not left in free pages
        cursor.execute("PRAGMA secure_delete = ON")
        for state, originator, version in rows:
            cursor.execute(update, (state, originator.hex, version))
        if isinstance(snapshots, SQLiteAggregateRecorder):
            delete = f"DELETE FROM {snapshots.events_table_name} WHERE originator_id = ?"
            for originator in ids:
                cursor.execute(delete, (originator.hex,))
    truncate_wal(recorder.datastore)


def truncate_wal(datastore: SQLiteDatastore) -> None:
    """Copy the write-ahead log into the database file and cut it to nothing.

    Every page an SQLite write changes is appended to the log whole, so the log holds the pages'
    earlier images (a name before its erasure) until a checkpoint copies the last ones back and
    truncates it. The checkpoint waits (up to the connection's lock timeout) for readers still on
    the log; one reading for longer leaves the log as it is, which is logged: the next erasure's
    checkpoint, or the process's last connection closing, truncates it.
    """
    with datastore.get_connection(commit=True) as conn, conn.cursor() as cursor:
        busy, _, _ = cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    if busy:
        log.warning("erasure: a reader held the SQLite write-ahead log; it was not truncated")
