"""Erasing a player on request, on both stores: their names leave every table, their results stay."""

import json
import logging
import sqlite3
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.sqlite import SQLiteDatastore

from service.application import MauMau, credentials
from service.domain.errors import RuleError
from service.domain.league import ERASED_NAME
from service.domain.tournament_plan import Plan
from service.persistence.erasure import truncate_wal
from service.projections.deliveries import DELIVERED
from service.projections.reader import ReadModels
from service.projections.runner import Runner, rebuild
from service.settings import Settings
from tests.integration.projecting import catch_up
from tests.integration.tables import play_out
from tests.integration.test_projections_standings import SCRIPTED, scripted_match
from tests.integration.test_webhooks import ADMIN, send_due, steps
from tests.privacy import tables_holding
from tests.receiver import Receiver, receiving
from workers.webhooks import SIGNATURE_HEADER, verify

pytestmark = pytest.mark.own_store  # the scan reads every table: a store of the test's own


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving() as found:
        yield found


def test_an_erased_players_names_leave_every_table_and_their_results_stay_under_erased_player(
    app: MauMau, settings: Settings
):
    first, second = f"Zelda{uuid.uuid4().hex[:10]}", f"Quux{uuid.uuid4().hex[:10]}"
    zelda = app.register_player(first)
    token = credentials.issue(app, "player", str(zelda), first)
    app.rename_player(zelda, second)
    other = app.register_player("Bob")
    league = app.found_league("Erasure club", "club", SCRIPTED)
    app.admit_member(league, zelda)
    app.admit_member(league, other)
    scripted_match(app, league, loser=zelda, winner=other, losers_card="KS", starter="5C", play="5H")
    catch_up(settings)
    # the scan finds what is there: both names, before the erasure
    assert tables_holding(settings, first) and tables_holding(settings, second)

    revoked = app.erase_player(zelda)
    catch_up(settings)

    assert revoked == [token.credential_id]
    assert tables_holding(settings, first) == [] and tables_holding(settings, second) == []
    assert app.get_player(zelda).name == ERASED_NAME
    assert app.get_league(league).members == (other,)
    erased_token = credentials.get(app, token.credential_id)
    assert erased_token.revoked and erased_token.name == ERASED_NAME
    reader = ReadModels(settings)
    try:
        standings = reader.standings(league)
        assert standings is not None
        rows = {row.player_id: row for row in standings.rows}
        assert rows[zelda].name == ERASED_NAME and rows[zelda].matches_played == 1
        assert rows[zelda].points == 10 and rows[other].name == "Bob"
        # the read models made again from the log read the scrubbed events: the same
        rebuild(settings)
        rebuilt = reader.standings(league)
        assert rebuilt is not None and rebuilt.rows == standings.rows
    finally:
        reader.close()
    assert tables_holding(settings, first) == [] and tables_holding(settings, second) == []


def test_erasing_again_records_nothing_more_and_an_erased_player_is_not_renamed_or_admitted(
    app: MauMau, settings: Settings
):
    zelda = app.register_player("Zelda")
    league = app.found_league("Erasure club")
    app.erase_player(zelda)
    position = app.recorder.max_notification_id()
    assert app.erase_player(zelda) == []
    assert app.recorder.max_notification_id() == position
    for refused in (lambda: app.rename_player(zelda, "Zed"), lambda: app.admit_member(league, zelda)):
        with pytest.raises(RuleError) as error:
            refused()
        assert error.value.code == "player_erased"
    assert app.recorder.max_notification_id() == position


def test_an_erased_players_seat_forfeits_each_game_of_theirs_in_play_and_no_other(
    app: MauMau, settings: Settings
):
    zelda, bob = app.register_player("Zelda"), app.register_player("Bob")
    league = app.found_league("Clockless club", "club", {"single_round": True})
    for player in (zelda, bob):
        app.admit_member(league, player)
    against_a_bot = app.create_game([str(zelda), "bot:heuristic"], league_id=league).game_id
    three = app.create_game([str(bob), "bot:random", str(zelda)]).game_id
    finished = app.create_game([str(zelda), str(bob)], league_id=league).game_id
    play_out(app, finished, seed=3)
    without_her = app.create_game([str(bob), "bot:random"]).game_id

    app.erase_player(zelda)

    assert app.get_game(against_a_bot).over and app.get_game(against_a_bot).result().winners == (1,)
    assert app.get_game(three).forfeited == (2,) and not app.get_game(three).over
    assert [type(e).__name__ for e in app.game_events(finished)][-1] != "SeatForfeited"
    assert app.get_game(without_her).forfeited == ()
    position = app.recorder.max_notification_id()
    assert app.forfeit_seats_of(zelda) == []  # each forfeited once
    assert app.recorder.max_notification_id() == position


def names_of(payload: bytes, player_id: str) -> list[Any]:
    """Every name a delivery's payload gives the player, wherever it seats or ranks them."""
    found: list[Any] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if value.get("player_id") == player_id:
                found.append(value["name"])
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(json.loads(payload))
    return found


def test_an_erased_players_name_leaves_the_stored_webhook_deliveries_which_name_erased_player_instead(
    app: MauMau, settings: Settings, reader: ReadModels, receiver: Receiver
):
    name = f"Zelda{uuid.uuid4().hex[:10]}"
    zelda = app.register_player(name)
    bob = app.register_player("Bob")
    league = app.found_league("Hooked club")
    app.admit_member(league, zelda)
    app.admit_member(league, bob)
    tables, _ = app.register_webhook(league, receiver.url, ["table_ready", "round_started"])
    turns, turns_secret = app.register_webhook(league, receiver.url, ["turn"], [str(zelda)])
    conductor, inline = steps(app, reader)
    cup = app.create_tournament(league, "Hooked cup", Plan(format="swiss", table_size=2, rounds=1))
    app.join_tournament(cup, zelda)
    app.join_tournament(cup, bob)
    app.start_tournament(cup)
    app.start_round(cup, 1)
    game = app.create_game([str(zelda), "bot:heuristic"], league_id=league, first_dealer=1, by=ADMIN).game_id
    # the deal is fresh each run: where the starter passes the turn to the bot, the bot moves first
    conductor.advance_game(game)
    assert app.get_game(game).seat_to_move == 0  # Zelda's turn: a turn notice naming her
    send_due(settings, reader, conductor, inline)
    before = {
        row.delivery_id: row for hook in (tables, turns) for row in reader.views.deliveries.of_hook(hook, 100)
    }
    kinds = sorted(row.kind for row in before.values())
    assert kinds[:2] == ["round_started", "table_ready"] and set(kinds[2:]) == {"turn"} and len(kinds) >= 3
    assert all(row.status == DELIVERED and row.attempts == 1 for row in before.values())
    assert all(names_of(row.payload, str(zelda)) for row in before.values())
    # the scan finds the name in the deliveries before the erasure
    assert any(table.endswith("views_deliveries") for table in tables_holding(settings, name))

    app.erase_player(zelda)
    catch_up(settings)

    assert tables_holding(settings, name) == []
    after = {
        row.delivery_id: row for hook in (tables, turns) for row in reader.views.deliveries.of_hook(hook, 100)
    }
    assert after.keys() == before.keys()
    for delivery_id, row in after.items():
        was = before[delivery_id]
        assert (row.kind, row.position, row.status, row.attempts) == (was.kind, was.position, DELIVERED, 1)
        assert [a.number for a in reader.views.deliveries.attempts(delivery_id)] == [1]
        names = names_of(row.payload, str(zelda))
        assert names and set(names) == {ERASED_NAME}
        # nothing else changed: the body as made, the name put right
        assert json.loads(row.payload) == json.loads(was.payload.decode().replace(name, ERASED_NAME))
    ready = next(row for row in after.values() if row.kind == "table_ready")
    assert "Bob" in names_of(ready.payload, str(bob))

    # a resend sends the rewritten body, signed
    turn = next(row for row in after.values() if row.kind == "turn")
    sent = len(receiver.received)
    assert reader.views.deliveries.resend(turns, turn.delivery_id, time.time())
    send_due(settings, reader, conductor, inline)
    (resent,) = receiver.received[sent:]
    assert resent.body == turn.payload and resent.json["data"]["name"] == ERASED_NAME
    assert verify(turns_secret, resent.body, resent.headers[SIGNATURE_HEADER], time.time())

    # the read models made again from the log send nothing again and bring no name back
    rebuild(settings)
    send_due(settings, reader, conductor, inline)
    assert len(receiver.received) == sent + 1
    assert tables_holding(settings, name) == []


def files_holding(data_dir: Path, text: str) -> dict[str, int]:
    """Each file in the data dir holding ``text``'s bytes, read raw (databases and their write-ahead
    logs alike), and how often."""
    needle = text.encode()
    counts = {path.name: path.read_bytes().count(needle) for path in data_dir.iterdir() if path.is_file()}
    return {name: count for name, count in counts.items() if count}


def test_on_sqlite_no_file_holds_an_erased_name_once_the_erasure_is_folded_write_ahead_logs_included(
    tmp_path: Path,
):
    settings = Settings(data_dir=tmp_path / "var")
    app = MauMau(settings)
    # kept open, as a running service keeps them: the last connection to close would truncate the logs
    runner, reader = Runner(settings), ReadModels(settings)
    try:
        first, second = f"Zelda{uuid.uuid4().hex[:10]}", f"Quux{uuid.uuid4().hex[:10]}"
        zelda = app.register_player(first)
        credentials.issue(app, "player", str(zelda), first)
        runner.catch_up()
        app.rename_player(zelda, second)
        other = app.register_player("Bob")
        league = app.found_league("Erasure club", "club", SCRIPTED)
        app.admit_member(league, zelda)
        app.admit_member(league, other)
        scripted_match(app, league, loser=zelda, winner=other, losers_card="KS", starter="5C", play="5H")
        runner.catch_up()
        assert reader.standings(league) is not None
        logs = {"maumau.sqlite3-wal", "projections.sqlite3-wal"}
        before = files_holding(settings.data_dir, first) | files_holding(settings.data_dir, second)
        assert logs <= before.keys()  # both logs hold the names before the erasure

        app.erase_player(zelda)
        runner.catch_up()

        assert files_holding(settings.data_dir, first) == files_holding(settings.data_dir, second) == {}
        assert {path.name for path in settings.data_dir.glob("*-wal")} == logs  # truncated, not gone
        standings = reader.standings(league)
        assert standings is not None and {row.name for row in standings.rows} == {ERASED_NAME, "Bob"}
    finally:
        reader.close()
        runner.close()
        app.close()


def test_a_reader_holding_the_write_ahead_log_leaves_it_as_it_is_and_the_warning_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    path = tmp_path / "store.sqlite3"
    datastore = SQLiteDatastore(str(path), lock_timeout=1)
    with datastore.transaction(commit=True) as cursor:
        cursor.execute("CREATE TABLE names (name text)")
        cursor.execute("INSERT INTO names VALUES ('Zelda')")
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN")
        assert other.execute("SELECT name FROM names").fetchall() == [("Zelda",)]  # reading from the log
        with caplog.at_level(logging.WARNING, logger="service.persistence.erasure"):
            truncate_wal(datastore)
        assert "not truncated" in caplog.text
        assert b"Zelda" in Path(f"{path}-wal").read_bytes()
        other.execute("COMMIT")
        truncate_wal(datastore)
        assert Path(f"{path}-wal").read_bytes() == b""
    finally:
        other.close()
        datastore.close()
