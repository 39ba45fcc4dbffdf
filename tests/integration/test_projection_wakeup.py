"""On PostgreSQL an idle projection runner waits for the store's note, not for its poll interval: a
20 ms poll read the log fifty times a second on a service nobody used (a tenth of a core, and the
database's work besides)."""

import threading
import time
from typing import Any

import psycopg
import pytest
from psycopg.sql import SQL, Identifier

from service.application import MauMau
from service.projections.runner import Runner

WAIT = 10.0


@pytest.mark.parametrize("store_kind", ["postgres"])
def test_an_idle_runner_on_postgresql_reads_on_the_stores_note_and_not_every_poll(fresh_settings):
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
    app = MauMau(fresh_settings)
    try:
        deadline = time.monotonic() + WAIT
        while runner.source._listener is None:  # listening, then read once more
            assert time.monotonic() < deadline, "the runner never listened"
            time.sleep(0.01)
        time.sleep(0.2)
        # the channel is the events table's name, the same in every schema of the database: other
        # tests' writes elsewhere wake the runner too, so each note heard here allows a read
        with psycopg.connect(fresh_settings.database_url, autocommit=True) as listening:
            listening.execute(SQL("LISTEN {}").format(Identifier(runner.source.app.recorder.channel_name)))  # type: ignore[attr-defined]
            before = reads
            time.sleep(1.5)
            woken = reads - before
            notes = sum(1 for _ in listening.notifies(timeout=0.01))
        assert woken <= notes + 3  # a backstop each second at most; polling would have read ~75 times
        created = app.create_game(["bot:random"] * 2, seed=1)
        while runner.position < created.position:
            assert time.monotonic() < deadline + WAIT, "the runner did not follow the write"
            time.sleep(0.01)
    finally:
        stop.set()
        following.join(timeout=WAIT)
        app.close()
        runner.close()
