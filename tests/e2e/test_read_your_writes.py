"""A naive client reads right after each write, sends no ``?after=`` and no header but its token, and
sees its write: never a 404 for the game it just created, never an old view, so never a 409.

The read models are made to lag: the runner pauses ``LAG_MS`` after each batch it writes
(``MAUMAU_PROJECTION_BATCH_MS``), so a read served from them right after a write would show the
state before it (as the issue saw: a 404 after ``201``, the old version in 7 of 12 tries). Played on
PostgreSQL with the runner in the API process, on the embedded SQLite, and on two API processes and a
projection runner of their own (the distributed mode), each write sent to one API process and each
read to the other.
"""

import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import httpx
import psycopg
import pytest
from litestar.testing import TestClient
from psycopg import sql

from service.app import create_app
from service.settings import Settings
from service.tasks import configure
from tests.e2e.club import ADMIN, ADMIN_TOKEN, bearer
from tests.e2e.test_distributed import ADMIN_TOKEN as DISTRIBUTED_ADMIN_TOKEN
from tests.e2e.test_distributed import Processes, distributed_env, forget_prefix, ready
from tests.e2e.test_embedded import free_port
from tests.schemas import own_schema

LAG_MS = 150
MOST_MOVES = 1500  # a single round of two ends long before


class Requests(Protocol):
    def request(self, method: str, url: str, **kwargs: Any) -> Any: ...


class Naive:
    """Writes through ``writes``, reads through ``reads`` (the same server, or another process)."""

    def __init__(self, writes: Requests, reads: Requests, admin: dict[str, str]) -> None:
        self.writes, self.reads, self.admin = writes, reads, admin

    def write(self, path: str, body: dict[str, Any], headers: dict[str, str]) -> Any:
        response = self.writes.request("POST", path, json=body, headers=headers)
        assert response.status_code in (200, 201), (path, body, response.status_code, response.text)
        return response.json()

    def read(self, path: str, headers: dict[str, str] | None = None) -> Any:
        response = self.reads.request("GET", path, headers=headers or {})
        assert response.status_code == 200, (path, response.status_code, response.text)
        return response.json()

    def player(self) -> tuple[str, dict[str, str]]:
        created = self.write("/players", {"name": f"Naive {uuid.uuid4().hex[:8]}"}, self.admin)
        return created["player"]["player_id"], bearer(created["token"]["token"])


def said(view: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    """A careful player says "mau" with the last card but one and "mau_mau" with the last."""
    call = {2: "mau", 1: "mau_mau"}.get(len(view["cards"])) if move["kind"] == "play" else None
    return {**move, "call": call} if call else move


def play_a_league_match(naive: Naive, seed: int) -> None:
    """Two players of a new league play a round to its end, each reading their view right after every
    move; the one who made the last move reads the standings at once and finds the match counted."""
    rng = random.Random(seed)
    (ada, ada_headers), (bob, bob_headers) = naive.player(), naive.player()
    league = naive.write("/leagues", {"name": "Naive league", "options": {"single_round": True}}, naive.admin)
    for player_id in (ada, bob):
        naive.write(f"/leagues/{league['league_id']}/members", {"player_id": player_id}, naive.admin)
    game = naive.write("/games", {"seats": [ada, bob], "league_id": league["league_id"]}, naive.admin)
    game_id, version, headers = game["game_id"], game["version"], [ada_headers, bob_headers]
    finisher = None
    for _ in range(MOST_MOVES):
        views = [naive.read(f"/games/{game_id}/me", seat) for seat in headers]
        public = naive.read(f"/games/{game_id}")
        assert [view["table"]["version"] for view in views] == [version, version]
        assert public["version"] == version
        if public["over"]:
            break
        (mover,) = [view["seat"] for view in views if any(m["kind"] != "challenge" for m in view["legal"])]
        moves = [move for move in views[mover]["legal"] if move["kind"] != "challenge"]
        move = said(views[mover], rng.choice(moves))
        version = naive.write(f"/games/{game_id}/moves", {**move, "version": version}, headers[mover])[
            "version"
        ]
        finisher = headers[mover]
    else:
        pytest.fail(f"the round did not end in {MOST_MOVES} moves")
    assert finisher is not None
    totals = naive.read(f"/games/{game_id}/totals")
    assert totals["over"] and totals["winners"]
    standings = naive.read(f"/leagues/{league['league_id']}/standings", finisher)
    assert sorted(row["player_id"] for row in standings["rows"]) == sorted([ada, bob])
    assert [row["matches_played"] for row in standings["rows"]] == [1, 1]
    history = naive.read(f"/players/{ada}/games", finisher)
    assert [played["game_id"] for played in history["games"]] == [game_id]


def create_and_read_at_once(naive: Naive, tries: int) -> None:
    """``POST /games`` then, at once, the game, the seated player's view and the totals."""
    player_id, headers = naive.player()
    for _ in range(tries):
        created = naive.write("/games", {"seats": [player_id, "bot:random"]}, headers)
        game_id = created["game_id"]
        assert naive.read(f"/games/{game_id}")["version"] == created["version"]
        mine = naive.read(f"/games/{game_id}/me", headers)
        assert mine["table"]["version"] == created["version"] and len(mine["cards"]) == 5
        assert mine["position"] >= created["position"]
        assert naive.read(f"/games/{game_id}/totals")["over"] is False


@pytest.fixture
def lagging(database_url: str, broker_data: Settings) -> Iterator[TestClient[Any]]:
    """The app on PostgreSQL in a schema of its own, its read models lagging ``LAG_MS`` behind."""
    with own_schema(database_url, "maumau_ryw") as schema:
        settings = Settings(
            database_url=database_url,
            database_schema=schema,
            pool_size=4,
            admin_token=ADMIN_TOKEN,
            projection_batch_ms=LAG_MS,
        )
        configure(broker_data)  # a bot's move queued goes where no worker takes it
        with TestClient(create_app(settings)) as client:
            yield client


@pytest.fixture
def lagging_sqlite(tmp_path: Path, broker_data: Settings) -> Iterator[TestClient[Any]]:
    settings = Settings(data_dir=tmp_path / "var", admin_token=ADMIN_TOKEN, projection_batch_ms=LAG_MS)
    configure(broker_data)
    with TestClient(create_app(settings)) as client:
        yield client


def test_a_naive_client_plays_a_whole_league_match_on_postgresql_without_a_404_or_409(lagging):
    play_a_league_match(Naive(lagging, lagging, ADMIN), seed=1)


def test_a_naive_client_plays_a_whole_league_match_on_sqlite_without_a_404_or_409(lagging_sqlite):
    play_a_league_match(Naive(lagging_sqlite, lagging_sqlite, ADMIN), seed=2)


def test_a_game_just_created_is_there_at_once_every_time(lagging, lagging_sqlite):
    for client in (lagging, lagging_sqlite):
        create_and_read_at_once(Naive(client, client, ADMIN), tries=20)


def test_a_tournament_just_announced_is_read_at_once_by_its_announcer(lagging):
    naive = Naive(lagging, lagging, ADMIN)
    league = naive.write("/leagues", {"name": "Announced"}, ADMIN)["league_id"]
    for number in range(5):
        plan = {"name": f"Cup {number}", "format": "swiss", "rounds": 2, "table_size": 2}
        announced = naive.write(f"/leagues/{league}/tournaments", plan, ADMIN)
        read = naive.read(f"/tournaments/{announced['tournament_id']}", ADMIN)
        assert read["name"] == f"Cup {number}" and read["position"] >= announced["position"]
        listed = naive.read(f"/leagues/{league}/tournaments", ADMIN)
        assert len(listed["tournaments"]) == number + 1


def test_a_write_whose_position_cannot_be_noted_is_answered_and_the_reads_go_on(lagging, caplog):
    naive = Naive(lagging, lagging, ADMIN)
    player_id, headers = naive.player()
    settings = lagging.app.state.services.settings
    with psycopg.connect(settings.database_url, autocommit=True) as conn:
        conn.execute(sql.SQL("drop table {}.views_written").format(sql.Identifier(settings.database_schema)))
    created = naive.write("/games", {"seats": [player_id, "bot:random"]}, headers)  # stored: 201
    assert any("position not noted" in record.getMessage() for record in caplog.records)
    # a game's own read does not look the last write up at all; a read of the read models does
    assert naive.read(f"/games/{created['game_id']}/me", headers)["table"]["version"] == created["version"]
    assert not any("last write not read" in record.getMessage() for record in caplog.records)
    assert naive.read(f"/players/{player_id}/games", headers)["player_id"] == player_id
    assert any("last write not read" in record.getMessage() for record in caplog.records)


@pytest.fixture
def two_apis(database_url: str, broker_url: str, tmp_path: Path) -> Iterator[list[str]]:
    """Two API processes and a projection runner (lagging ``LAG_MS``) on PostgreSQL, as deploy/ runs
    them; no workers: the games here seat people only."""
    schema = f"maumau_ryw_{uuid.uuid4().hex[:12]}"
    settings = Settings(database_url=database_url, database_schema=schema, data_dir=tmp_path / "var")
    prefix = f"maumau-test-{uuid.uuid4().hex[:8]}:"
    logs = tmp_path / "logs"
    logs.mkdir()
    env = distributed_env(settings, broker_url, prefix, MAUMAU_PROJECTION_BATCH_MS=str(LAG_MS))
    processes = Processes(env, logs)
    try:
        assert "tables ready" in processes.run("db", "init")
        bases = [f"http://127.0.0.1:{free_port()}" for _ in range(2)]
        for number, base in enumerate(bases, 1):
            processes.start(f"api-{number}", "serve", "--port", base.rsplit(":", 1)[1])
        processes.start("projections", "projections", "run")
        processes.wait_for("ready API processes", lambda: all(ready(base) for base in bases))
        yield bases
    finally:
        processes.stop()
        forget_prefix(broker_url, prefix)
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(sql.SQL("drop schema if exists {} cascade").format(sql.Identifier(schema)))


def test_a_naive_client_writing_to_one_api_process_and_reading_from_another_sees_its_writes(two_apis):
    admin = bearer(DISTRIBUTED_ADMIN_TOKEN)
    with (
        httpx.Client(base_url=two_apis[0], timeout=10) as one,
        httpx.Client(base_url=two_apis[1], timeout=10) as other,
    ):
        naive = Naive(one, other, admin)
        create_and_read_at_once(naive, tries=12)
        play_a_league_match(naive, seed=3)
