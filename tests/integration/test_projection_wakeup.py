"""An idle projection runner reads the log when something was written, not every poll interval: a
20 ms poll read the log fifty times a second on a service nobody used (on PostgreSQL a tenth of a
core, and the database's work besides; on SQLite 2.5% of a core). PostgreSQL's runner waits for the
store's note; SQLite's looks at the file's data_version each poll, which a commit changes."""

import threading
import time
from typing import Any

import psycopg
import pytest
from psycopg.sql import SQL, Identifier

from service.application import MauMau
from service.persistence.log_lock import log_channel
from service.projections.runner import Runner

WAIT = 10.0


@pytest.mark.parametrize("store_kind", ["postgres", "sqlite"])
def test_an_idle_runner_reads_the_log_when_something_was_written_and_not_every_poll(fresh_settings):
    assert fresh_settings.projection_poll_ms == 20
    runner = Runner(fresh_settings)
    reads = 0
    read = runner.source.read

    def counted(after: int, limit: int) -> list[tuple[Any, int]]:
        nonlocal reads
        reads += 1
        return read(after, limit)

    runner.source.read = counted  # type: ignore[method-assign]
    stop = threading.Event()
    following = threading.Thread(target=runner.run, args=(stop,), daemon=True)
    following.start()
    app = MauMau(fresh_settings)  # another connection, as the API's or another process's
    try:
        deadline = time.monotonic() + WAIT
        # on PostgreSQL: listening, then read once more (the channel is the schema's own: the other
        # tests' writes in the database do not wake it)
        while fresh_settings.uses_postgres and runner.source._listener is None:
            assert time.monotonic() < deadline, "the runner never listened"
            time.sleep(0.01)
        time.sleep(0.2)
        before = reads
        time.sleep(1.5)
        assert reads - before <= 3  # a backstop each second at most; reading every poll: ~75 times
        created = app.create_game(["bot:random"] * 2, seed=1)
        while runner.position < created.position:
            assert time.monotonic() < deadline + WAIT, "the runner did not follow the write"
            time.sleep(0.01)
    finally:
        stop.set()
        following.join(timeout=WAIT)
        app.close()
        runner.close()


@pytest.mark.parametrize("store_kind", ["postgres"])
def test_a_write_notifies_its_own_schemas_channel_and_no_other(fresh_settings, settings):
    assert fresh_settings.database_schema != settings.database_schema
    app = MauMau(fresh_settings)
    elsewhere = MauMau(settings)
    try:
        channel = app.recorder.channel_name  # type: ignore[attr-defined]
        assert channel == log_channel(fresh_settings.database_schema, app.recorder.events_table_name)  # type: ignore[attr-defined]
        assert channel != elsewhere.recorder.channel_name  # type: ignore[attr-defined]
        with psycopg.connect(fresh_settings.database_url, autocommit=True) as listening:
            listening.execute(SQL("LISTEN {}").format(Identifier(channel)))
            elsewhere.create_game(["bot:random"] * 2, seed=1)
            assert list(listening.notifies(timeout=0.5)) == []
            app.create_game(["bot:random"] * 2, seed=1)
            assert [note.channel for note in listening.notifies(timeout=WAIT, stop_after=1)] == [channel]
    finally:
        app.close()
        elsewhere.close()


def test_a_channel_name_too_long_for_postgresql_is_shortened_and_still_the_schemas_own():
    long_schema = "s" * 70
    channel = log_channel(long_schema, "stored_events")
    assert len(channel.encode()) <= 63
    assert channel != log_channel(long_schema + "x", "stored_events")
    assert log_channel("club_a", "maumau_events") == "club_a.maumau_events"
