"""Group commit on PostgreSQL: one save's conflict fails only that save; the log stays gap-free."""

import contextlib
import random
import threading
import time
import uuid
from collections.abc import Iterator

import msgspec
import psycopg
import pytest
from eventsourcing.persistence import IntegrityError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from psycopg import sql

from service.application import MauMau
from service.domain.errors import RuleError
from service.domain.game import Game
from service.persistence.group_commit import GroupCommitRecorder, _Save
from service.persistence.log_lock import LogLockedRecorder, log_lock
from service.settings import Settings
from tests.gameplay import next_command
from tests.schemas import own_schema

TABLE_LOCKING = "eventsourcing.postgres:PostgresApplicationRecorder"  # as earlier versions wrote


@pytest.fixture(scope="module")
def pg_settings(database_url) -> Iterator[Settings]:
    """A schema of this file's own: its tests store events no application reads ("test:Event"), which
    a test in the same process folding the shared schema's whole log would trip on."""
    with own_schema(database_url) as schema:
        yield Settings(database_url=database_url, database_schema=schema, pool_size=4)


def stored(originator_id: uuid.UUID, version: int) -> StoredEvent:
    return StoredEvent(originator_id, version, "test:Event", b"x")


def test_a_conflicting_save_is_refused_alone_and_the_rest_of_the_batch_is_stored(pg_settings):
    app = MauMau(pg_settings)
    try:
        recorder = app.recorder
        assert isinstance(recorder, GroupCommitRecorder)
        one, two, three = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
        recorder.insert_events([stored(three, 1)])
        batch = [
            _Save([stored(one, 1), stored(one, 2)]),
            _Save([stored(two, 1)]),
            _Save([stored(one, 2), stored(one, 3)]),  # collides with the first save of the batch
            _Save([stored(three, 1)]),  # stored already
            _Save([stored(three, 2)]),
        ]
        recorder._commit(batch)
        assert [type(save.error) for save in batch] == [
            type(None),
            type(None),
            IntegrityError,
            IntegrityError,
            type(None),
        ]
        ids = [i for save in batch if save.ids for i in save.ids]
        assert len(ids) == 4 and ids == sorted(ids)
        assert [e.originator_version for e in recorder.select_events(one)] == [1, 2]
        assert [e.originator_version for e in recorder.select_events(three)] == [1, 2]
        assert len(recorder.select_events(two)) == 1
    finally:
        app.close()


MOVES_PER_WRITER = 60  # nine writers: more than 500 events


def test_the_notification_log_is_gap_free_in_commit_order_under_concurrent_writers(pg_settings):
    """Writers in four "processes" (two group committers, one without group commit, and one that
    locks the table as earlier versions did) and a reader tailing the log: an id that committed after
    a higher one was read would be skipped for ever."""
    apps = [
        MauMau(pg_settings),
        MauMau(pg_settings),
        MauMau(msgspec.structs.replace(pg_settings, group_commit=False)),
        MauMau(pg_settings, env={"APPLICATION_RECORDER_TOPIC": TABLE_LOCKING}),
    ]
    reader = apps[0].recorder
    start = reader.max_notification_id() or 0
    seen: list[int] = []
    writing = threading.Event()
    writing.set()
    errors: list[BaseException] = []

    give_up = time.monotonic() + 60  # a hang fails the test instead of holding up the run

    def tail() -> None:
        last = start
        while time.monotonic() < give_up:
            still_writing = writing.is_set()
            rows = reader.select_notifications(start=last + 1, limit=500)
            for row in rows:
                seen.append(row.id)
                last = row.id
            if not rows and not still_writing:
                return

    def write(index: int) -> None:
        try:
            app = apps[index % len(apps)]
            rng = random.Random(index)
            outcome = app.create_game(["bot:random"] * 3, seed=index, options={"target_score": 1000})
            state = app.get_game(outcome.game_id).state
            version = outcome.version
            # a number of moves, not a time: a loaded machine writes fewer moves in a given time
            moved, deadline = 0, time.monotonic() + 30
            while moved < MOVES_PER_WRITER and time.monotonic() < deadline:
                try:
                    done = app.execute(outcome.game_id, next_command(state, rng), expected_version=version)
                except RuleError:
                    state = app.get_game(outcome.game_id).state
                    version = app.get_game(outcome.game_id).version
                    continue
                for event in done.events:
                    if isinstance(event, Game.Fact):
                        event.fact.apply(state)
                version = done.version
                moved += 1
        except BaseException as error:
            errors.append(error)

    tailer = threading.Thread(target=tail, daemon=True)
    tailer.start()
    writers = [threading.Thread(target=write, args=(i,), daemon=True) for i in range(9)]
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join(timeout=max(0.1, give_up - time.monotonic()))
    writing.clear()
    tailer.join(timeout=max(0.1, give_up - time.monotonic()))
    try:
        assert not any(thread.is_alive() for thread in [*writers, tailer]), "writers or reader stuck"
        assert not errors, errors
        everything = [row.id for row in reader.select_notifications(start=start + 1, limit=10**7)]
        assert len(everything) > 500
        assert seen == everything
        # the moves really went through the group committers, several saves a transaction
        committers = [app.recorder for app in apps[:2]]
        assert all(isinstance(recorder, GroupCommitRecorder) for recorder in committers)
        assert type(apps[2].recorder) is LogLockedRecorder
        assert type(apps[3].recorder) is PostgresApplicationRecorder
        assert sum(r.saves for r in committers) > sum(r.batches for r in committers) > 0
    finally:
        for app in apps:
            app.close()


def test_a_batch_on_a_dropped_connection_fails_and_the_next_batch_connects_again(pg_settings, database_url):
    app = MauMau(pg_settings)
    try:
        recorder = app.recorder
        assert isinstance(recorder, GroupCommitRecorder)
        game = uuid.uuid4()
        recorder.insert_events([stored(game, 1)])
        (held,) = recorder._held
        with psycopg.connect(database_url, autocommit=True) as admin:
            admin.execute("select pg_terminate_backend(%s)", (held.connection.info.backend_pid,))
        with pytest.raises(OperationalError):
            recorder.insert_events([stored(game, 2)])
        assert recorder._held == []  # the broken connection went back to the pool, not kept
        recorder.insert_events([stored(game, 2)])  # nothing of the failed batch was stored
        assert [e.originator_version for e in recorder.select_events(game)] == [1, 2]
    finally:
        app.close()
    assert recorder._held == []


def in_a_thread(save) -> threading.Thread:
    thread = threading.Thread(target=save, daemon=True)
    thread.start()
    return thread


@contextlib.contextmanager
def vacuum_holding(database_url: str, schema: str, recorder) -> Iterator[None]:
    """Another session holding the lock a VACUUM or ANALYZE holds on the events table, meanwhile."""
    table = sql.Identifier(schema, recorder.events_table_name)
    with psycopg.connect(database_url) as vacuum:
        vacuum.execute(sql.SQL("LOCK TABLE {} IN SHARE UPDATE EXCLUSIVE MODE").format(table))
        try:
            yield
        finally:
            vacuum.rollback()


def test_saves_are_stored_while_a_vacuum_holds_the_event_log(pg_settings, database_url):
    """VACUUM and ANALYZE, autovacuum's too, hold the table's SHARE UPDATE EXCLUSIVE lock while they
    run. A save that took the table's EXCLUSIVE lock waited for them: an autovacuum was cancelled
    after a second of stalled moves, and one preventing wraparound never was."""
    app = MauMau(pg_settings)
    try:
        recorder = app.recorder
        assert isinstance(recorder, GroupCommitRecorder)
        one, two = uuid.uuid4(), uuid.uuid4()
        recorder.insert_events([stored(two, 1)])
        checked = [_Save([stored(one, 2)]), _Save([stored(two, 1)])]  # the second is stored already
        with vacuum_holding(database_url, pg_settings.database_schema, recorder):
            batch = in_a_thread(lambda: recorder.insert_events([stored(one, 1)]))
            batch.join(timeout=10)
            collided = in_a_thread(lambda: recorder._commit(checked))  # the checked path
            collided.join(timeout=10)
            assert not batch.is_alive() and not collided.is_alive(), "a save waited for the vacuum"
        assert [type(save.error) for save in checked] == [type(None), IntegrityError]
        assert [e.originator_version for e in recorder.select_events(one)] == [1, 2]
    finally:
        app.close()


def test_without_group_commit_a_save_is_stored_while_a_vacuum_holds_the_event_log(pg_settings, database_url):
    app = MauMau(msgspec.structs.replace(pg_settings, group_commit=False))
    try:
        recorder = app.recorder
        assert type(recorder) is LogLockedRecorder
        game = uuid.uuid4()
        with vacuum_holding(database_url, pg_settings.database_schema, recorder):
            save = in_a_thread(lambda: recorder.insert_events([stored(game, 1)]))
            save.join(timeout=10)
            assert not save.is_alive(), "the save waited for the vacuum"
        assert [e.originator_version for e in recorder.select_events(game)] == [1]
    finally:
        app.close()


@pytest.mark.parametrize(
    "holder",
    [
        pytest.param(
            lambda schema, table: sql.SQL("LOCK TABLE {} IN EXCLUSIVE MODE").format(
                sql.Identifier(schema, table)
            ),
            id="a writer of an earlier version",
        ),
        pytest.param(log_lock, id="a writer of this version"),
    ],
)
def test_a_save_waits_for_another_writer_s_commit(pg_settings, database_url, holder):
    """Each writer takes the log's lock; a process of an earlier version took the table's instead, and
    the two still wait for each other (an INSERT's ROW EXCLUSIVE and EXCLUSIVE conflict), so the log
    stays in commit order while the versions are mixed."""
    app = MauMau(pg_settings)
    try:
        recorder = app.recorder
        assert isinstance(recorder, GroupCommitRecorder)
        game = uuid.uuid4()
        with psycopg.connect(database_url) as writer:
            writer.execute(holder(pg_settings.database_schema, recorder.events_table_name))
            try:
                save = in_a_thread(lambda: recorder.insert_events([stored(game, 1)]))
                save.join(timeout=1.0)
                assert save.is_alive(), "the save did not wait for the other writer"
                assert recorder.select_events(game) == []
            finally:
                writer.rollback()
        save.join(timeout=10)
        assert not save.is_alive()
        assert [e.originator_version for e in recorder.select_events(game)] == [1]
    finally:
        app.close()


def notes_of(database_url: str, channel: str, save, game: uuid.UUID) -> list[str]:
    """The notes sent on ``channel`` while ``save()`` runs that tell of ``game`` (other tests may
    write to the same table meanwhile)."""
    with psycopg.connect(database_url, autocommit=True) as listener:
        listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
        save()
        return [note.payload for note in listener.notifies(timeout=2.0) if str(game) in note.payload]


def test_a_batch_s_note_names_its_games_then_carries_its_events_with_their_log_positions(
    pg_settings, database_url
):
    app = MauMau(pg_settings)
    try:
        recorder = app.recorder
        one, two = uuid.uuid4(), uuid.uuid4()
        events = [
            StoredEvent(one, 1, "test:Dealt", b"\x00\n\xff" * 40),
            StoredEvent(two, 1, "test:Event", b"x"),
        ]
        ids: list[int] = []
        (note,) = notes_of(
            database_url, recorder.channel_name, lambda: ids.extend(recorder.insert_events(events)), one
        )
        names, _, events_carried = note.partition("\n")
        assert sorted(names.split()) == sorted([str(one), str(two)])
        carried = msgspec.json.decode(events_carried, type=list[tuple[uuid.UUID, int, str, bytes, int]])
        assert carried == [
            (event.originator_id, event.originator_version, event.topic, event.state, position)
            for event, position in zip(events, ids, strict=True)
        ]
    finally:
        app.close()


def test_a_batch_whose_events_do_not_fit_in_a_note_only_names_its_games(pg_settings, database_url):
    app = MauMau(pg_settings)
    try:
        recorder = app.recorder
        one, two = uuid.uuid4(), uuid.uuid4()
        events = [
            StoredEvent(one, 1, "test:Event", b"x" * 4000),
            StoredEvent(two, 1, "test:Event", b"y" * 4000),
        ]
        (note,) = notes_of(database_url, recorder.channel_name, lambda: recorder.insert_events(events), one)
        assert "\n" not in note and sorted(note.split()) == sorted([str(one), str(two)])
    finally:
        app.close()
