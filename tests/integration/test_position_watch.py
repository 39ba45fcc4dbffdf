"""On PostgreSQL the runner tells the read models' position as it writes; a waiting reader is woken."""

import random
import time
from collections.abc import Iterator

import msgspec
import psycopg
import pytest
from psycopg import sql

from service.application import MauMau
from service.projections.reader import ReadModels
from service.projections.runner import start_projections
from service.settings import Settings
from tests.gameplay import next_command
from tests.integration.tables import players
from tests.schemas import own_schema


@pytest.fixture
def pg_settings(database_url: str) -> Iterator[Settings]:
    with own_schema(database_url) as schema:
        yield Settings(database_url=database_url, database_schema=schema, pool_size=2)


@pytest.fixture
def parts(pg_settings: Settings) -> Iterator[tuple[MauMau, ReadModels]]:
    app, reader = MauMau(pg_settings), ReadModels(pg_settings)
    yield app, reader
    reader.close()
    app.close()


def listening(reader: ReadModels, timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    reader.wait_for(0, timeout=0)  # the first wait starts the watch
    while time.monotonic() < deadline:
        if reader._watch is not None and reader._watch.latest is not None:
            return True
        time.sleep(0.01)
    return False


def test_a_reader_waiting_for_a_position_is_told_it_when_the_runner_writes_it(pg_settings, parts):
    app, reader = parts
    assert listening(reader)
    running = start_projections(pg_settings)
    try:
        ann, bob = players(app, 2)
        created = app.create_game([ann, bob], seed=3)
        # only the runner's note can move the watch: it never asks the database once listening
        assert reader._watch is not None
        assert reader._watch.wait_for(created.position, timeout=30) >= created.position
        assert reader.position() >= created.position
        assert reader.table(created.game_id).version == created.version
    finally:
        running.stop()


def test_a_watch_whose_connection_is_cut_falls_back_to_asking_and_listens_again(
    pg_settings, parts, database_url
):
    app, reader = parts
    assert listening(reader)
    channel = f"maumau_views_{pg_settings.database_schema}"
    with psycopg.connect(database_url, autocommit=True) as admin:
        cut = admin.execute(
            "select pg_terminate_backend(pid) from pg_stat_activity"
            " where application_name = 'maumau:watch' and query like %s",
            (f'%LISTEN "{channel}"%',),
        ).fetchall()
    assert cut == [(True,)]
    running = start_projections(pg_settings)
    try:
        ann, bob = players(app, 2)
        created = app.create_game([ann, bob], seed=3)
        assert reader.wait_for(created.position, timeout=30) >= created.position  # asked, or told again
        assert listening(reader)  # connected again
        game = app.get_game(created.game_id)
        moved = app.execute(created.game_id, next_command(game.state, random.Random(0), challenge_rate=0))
        assert reader._watch is not None
        assert reader._watch.wait_for(moved.position, timeout=30) >= moved.position
    finally:
        running.stop()


def test_a_runner_told_to_gather_writes_moves_that_come_apart_in_one_write(pg_settings, database_url):
    settings = msgspec.structs.replace(pg_settings, projection_batch_ms=3000)
    app, reader = MauMau(settings), ReadModels(settings)
    running = start_projections(settings)
    try:
        ann, bob = players(app, 2)
        created = app.create_game([ann, bob], seed=3)
        assert reader.wait_for(created.position, timeout=30) >= created.position
        with psycopg.connect(database_url, autocommit=True) as listener:
            listener.execute(
                sql.SQL("LISTEN {}").format(sql.Identifier(f"maumau_views_{settings.database_schema}"))
            )
            rng = random.Random(0)
            for _ in range(4):  # each alone would be a write of its own: the runner wakes in milliseconds
                time.sleep(0.2)
                game = app.get_game(created.game_id)
                moved = app.execute(created.game_id, next_command(game.state, rng, challenge_rate=0))
            written = []
            for note in listener.notifies(timeout=30):
                written.append(int(note.payload))
                if written[-1] >= moved.position:
                    break
        assert written[-1] == moved.position
        assert len(written) <= 2  # the first perhaps at once, the rest gathered
    finally:
        running.stop()
        reader.close()
        app.close()
