"""A log stored by commit ccffcb7 loads, folds and plays on, on PostgreSQL and on SQLite.

That version named a tournament table's game only by the key of its creation; this one carries the
table in ``Game.Created``, and the events and snapshots stored before are upcast from that key
(``game.table_of_version_1_key``). The log: ``tests/fixtures/log_ccffcb7.msgpack.gz``, written on that
version by ``tests/fixtures/make_log_ccffcb7.py``, with each game's table as that version found it.
"""

import gzip
from pathlib import Path
from uuid import UUID

import msgspec
import pytest
from eventsourcing.persistence import StoredEvent

from service.application import MauMau
from service.domain.game import Game
from service.domain.seats import TableRef
from service.projections.reader import ReadModels
from service.settings import Settings
from tests.integration.projecting import catch_up
from tests.integration.test_projections_tournaments import assert_tournaments_match
from tests.integration.test_tournaments import clock_plays_out

LOG = Path(__file__).parents[1] / "fixtures" / "log_ccffcb7.msgpack.gz"

Row = tuple[str, bytes, int, bytes]  # topic, originator id, version, state: as stored


class Log(msgspec.Struct, frozen=True):
    events: list[Row]  # in the log's order
    snapshots: list[Row]
    tables: dict[UUID, tuple[UUID, int, int] | None]  # game -> (tournament, round, table) as ccffcb7 saw it


def stored(row: Row) -> StoredEvent:
    topic, originator, version, state = row
    return StoredEvent(UUID(bytes=originator), version, topic, state)


@pytest.fixture
def settings(fresh_settings: Settings) -> Settings:
    """The projection reads the whole log: a store of its own (see ``fresh_settings``)."""
    return fresh_settings


@pytest.fixture
def log(app: MauMau) -> Log:
    """The old log, stored in the test's store as that version stored it."""
    found = msgspec.msgpack.decode(gzip.decompress(LOG.read_bytes()), type=Log)
    app.recorder.insert_events([stored(row) for row in found.events])
    assert app.snapshots is not None
    app.snapshots.recorder.insert_events([stored(row) for row in found.snapshots])
    return found


def table_of(log: Log, game_id: UUID) -> TableRef | None:
    found = log.tables[game_id]
    return None if found is None else TableRef(*found)


def the_tournament(log: Log) -> UUID:
    (tournament_id,) = {table[0] for table in log.tables.values() if table is not None}
    return tournament_id


def test_each_game_of_the_old_log_is_at_the_table_that_version_found_from_its_key(app: MauMau, log: Log):
    assert sum(table is not None for table in log.tables.values()) == 2  # round 1's table and round 2's
    assert None in log.tables.values()  # and a league game at no table
    for game_id in log.tables:
        table = table_of(log, game_id)
        created = app.game_events(game_id)[0]
        assert isinstance(created, Game.Created) and created.table == table
        game = app.get_game(game_id)
        assert game.table == table
        assert app.tournament_of(game) == (None if table is None else table.tournament_id)
    # the snapshot that version took of round 1's game, which holds no table either
    (snapshot,) = log.snapshots
    game_id = UUID(bytes=snapshot[1])
    assert app.mapper.to_domain_event(stored(snapshot)).mutate(None).table == table_of(log, game_id)


def test_the_read_models_fold_the_old_log_with_no_stale_part(app: MauMau, log: Log, reader: ReadModels):
    assert catch_up(app.settings) == len(log.events)
    assert reader.views.stale_views() == []
    assert_tournaments_match(app, reader, [the_tournament(log)])


def test_the_tournament_of_the_old_log_is_played_on_to_its_end(app: MauMau, log: Log, reader: ReadModels):
    tournament_id = the_tournament(log)
    played = app.get_tournament(tournament_id).rounds[1]
    (game_id,) = played.games.values()
    position = app.recorder.max_notification_id()
    # round 2 was started by that version: starting it again finds its game (the same key and digest)
    assert app.start_round(tournament_id, 2) == [game_id]
    assert app.recorder.max_notification_id() == position
    clock_plays_out(app, game_id)
    app.record_table_result(tournament_id, game_id)
    assert app.get_tournament(tournament_id).finished
    catch_up(app.settings)
    assert reader.views.stale_views() == []
    assert_tournaments_match(app, reader, [tournament_id])
