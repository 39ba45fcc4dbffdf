"""The embedded default: SQLite under the data dir, `maumau serve` and `maumau admin token`."""

import contextlib
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from service.app import create_app
from service.http.cli import admin_group, runs_workers, workers_line
from service.settings import Settings, get_settings
from tests.e2e.club import bearer
from tests.environment import without_settings

MAUMAU = str(Path(sys.executable).parent / "maumau")
# the README's first command, `./run serve`: it makes sure of .venv, then execs `maumau serve`
README_SERVE = [str(Path(__file__).resolve().parents[2] / "run"), "serve"]


# the first deal of a test below, first card dealt first
STARTER_AC_DECK = (
    "7C 2D 9S 3D 9C 5H 8S 7H 5D KC 7S 6C 4C 2C QS AC 6H JD JC KD AH 9D 3C 5S KH 2H "
    "10D 6S JH QH 3H 4D AD JS QC KS 3S 5C 7D 10H 8C 10S 2S 8H QD 8D AS 9H 6D 4H 10C 4S"
)


def test_the_api_works_end_to_end_on_sqlite(tmp_path):
    settings = Settings(data_dir=tmp_path / "var", admin_token="sqlite-admin")
    admin = bearer("sqlite-admin")
    with TestClient(create_app(settings)) as client:
        ada = client.post("/players", json={"name": "Ada"}, headers=admin).json()
        game = client.post(
            "/games", json={"seats": [ada["player"]["player_id"], "bot:random"]}, headers=admin
        )
        assert game.status_code == 201
        game_id, position = game.json()["game_id"], game.json()["position"]
        me = client.get(f"/games/{game_id}/me?after={position}", headers=bearer(ada["token"]["token"]))
        assert me.status_code == 200 and len(me.json()["cards"]) == 5
        assert me.json()["position"] >= position
        assert client.get("/ready").json()["status"] == "ready"
    assert (tmp_path / "var" / "maumau.sqlite3").is_file()


@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("MAUMAU_DATA_DIR", str(tmp_path / "var"))
    monkeypatch.delenv("MAUMAU_DATABASE_URL", raising=False)
    monkeypatch.delenv("MAUMAU_ADMIN_TOKEN", raising=False)
    get_settings.cache_clear()
    yield tmp_path / "var"
    get_settings.cache_clear()


def test_admin_token_prints_a_token_an_app_on_the_same_data_accepts(data_dir):
    result = CliRunner().invoke(admin_group, ["token", "--name", "treasurer"])
    assert result.exit_code == 0, result.output
    token = result.stdout.strip()
    assert token.startswith("mm_")
    with TestClient(create_app(Settings(data_dir=data_dir))) as client:
        assert client.post("/players", json={"name": "Ada"}, headers=bearer(token)).status_code == 201


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# bots move at once and the beat ticks often, so a test sees them at work in a moment
FAST = {"MAUMAU_BOT_THINK": "0.02", "MAUMAU_TICK": "0.2"}
WAIT = 45.0  # seconds a test waits for the bots before it gives up (they take a moment)


def serve_until_healthy(
    data_dir: Path, port: int, *args: str, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[str], list[str]]:
    """``maumau serve ARGS`` on the embedded default, its output up to its last line before it serves."""
    env = without_settings(
        MAUMAU_DATA_DIR=str(data_dir),
        MAUMAU_PORT=str(port),
        **(env or {}),
    )
    server = subprocess.Popen(
        [*README_SERVE, *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,  # a group of its own: a test can kill it with whatever it started
    )
    lines: list[str] = []
    assert server.stdout is not None
    while not any(line.startswith("workers:") for line in lines):
        line = server.stdout.readline()
        assert line, f"serve stopped: {lines}"
        lines.append(line.strip())
    for _ in range(200):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                return server, lines
        except httpx.TransportError:
            time.sleep(0.05)
    server.kill()
    raise AssertionError(f"serve did not answer: {lines}")


def stop(server: subprocess.Popen[str], how: signal.Signals = signal.SIGTERM) -> list[str]:
    """Stop it as a service manager (SIGTERM) or Ctrl-C (SIGINT) does; the lines it printed meanwhile."""
    server.send_signal(how)
    rest, _ = server.communicate(timeout=30)
    return rest.splitlines()


@contextlib.contextmanager
def serving(
    data_dir: Path, port: int, *args: str, env: dict[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    """``serve_until_healthy``, and the process killed at the end if the test has not stopped it."""
    server, lines = serve_until_healthy(data_dir, port, *args, env=env)
    try:
        yield server, lines
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate(timeout=30)


def admin_token(lines: list[str]) -> str:
    (token_line,) = [line for line in lines if "admin token" in line]
    return token_line.rsplit(" ", 1)[-1]


def test_serve_prints_where_it_listens_and_the_first_admin_token_once(data_dir):
    port = free_port()
    with serving(data_dir, port, env=FAST) as (server, lines):
        assert f"http://127.0.0.1:{port}" in "\n".join(lines)
        assert any(str(data_dir.resolve() / "maumau.sqlite3") in line for line in lines)
        created = httpx.post(
            f"http://127.0.0.1:{port}/players", json={"name": "Ada"}, headers=bearer(admin_token(lines))
        )
        assert created.status_code == 201
        stop(server)
    with serving(data_dir, port, env=FAST) as (server, lines):
        stop(server)
    assert not [line for line in lines if "admin token" in line]


def test_serve_runs_the_worker_and_beat_itself_only_on_the_embedded_broker_in_one_server_process():
    embedded, distributed = Settings(), Settings(broker_url="redis://127.0.0.1:6379/0")
    assert runs_workers(embedded, workers=1)
    assert not runs_workers(embedded, workers=2)  # each server process would run a beat
    assert not runs_workers(distributed, workers=1)
    assert workers_line(embedded, False).startswith("none in this process (several server processes)")
    assert workers_line(distributed, False).startswith("none in this process (MAUMAU_BROKER_URL is set)")


# ----------------------------------------------------------------------
# the worker and the beat in the serve process: a person's game against bots


def my_view(base: str, game_id: str, headers: dict[str, str], after: int = 0) -> dict[str, Any]:
    response = httpx.get(f"{base}/games/{game_id}/me", params={"after": after}, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def to_move(view: dict[str, Any]) -> bool:
    return any(move["kind"] != "challenge" for move in view["legal"])


def wait_for_my_turn(base: str, game_id: str, headers: dict[str, str], past: int) -> dict[str, Any]:
    """The seat's view once the game has gone past version ``past`` and the seat is to move again."""
    deadline = time.monotonic() + WAIT
    while True:
        view = my_view(base, game_id, headers)
        if view["table"]["version"] > past and to_move(view):
            return view
        assert time.monotonic() < deadline, f"the bots did not move: {view['table']}"
        time.sleep(0.05)


def move_until_the_turn_passes(base: str, game_id: str, headers: dict[str, str], view: dict[str, Any]) -> int:
    """Make the first legal move listed until another seat is to move; the version then."""
    while to_move(view):
        move = next(move for move in view["legal"] if move["kind"] != "challenge")
        body = {**move, "version": view["table"]["version"]}
        response = httpx.post(f"{base}/games/{game_id}/moves", json=body, headers=headers)
        assert response.status_code == 200, response.text
        view = my_view(base, game_id, headers, after=response.json()["position"])
    return view["table"]["version"]


def wait_for_the_mao_bot(base: str, admin: dict[str, str], ada_id: str, ada: dict[str, str]) -> None:
    """A Mao match whose bot (seat 0) leads: the same worker plays its turn, then Ada is on turn."""
    league = httpx.post(f"{base}/leagues", json={"name": "Mao night", "ruleset": "mao"}, headers=admin).json()
    members = f"{base}/leagues/{league['league_id']}/members"
    assert httpx.post(members, json={"player_id": ada_id}, headers=admin).status_code == 201
    body = {
        "league_id": league["league_id"],
        "seats": ["bot:random", ada_id, "bot:learning"],
        "judge": "server",
        "first_dealer": 2,
    }
    created = httpx.post(f"{base}/mao-games", json=body, headers=admin)
    assert created.status_code == 201, created.text
    match = f"{base}/mao-games/{created.json()['game_id']}"
    deadline = time.monotonic() + WAIT
    while (view := httpx.get(f"{match}/me", headers=ada).json())["turn"] != 1:
        assert time.monotonic() < deadline, f"the Mao bot did not move: {view}"
        time.sleep(0.05)
    events = httpx.get(f"{match}/events").json()["events"]
    assert any(event.get("seat") == 0 and event["type"] in {"CardPlayed", "CardDrawn"} for event in events)


def test_serve_runs_the_bots_of_a_game_and_keeps_it_across_a_restart(tmp_path):
    data_dir, port = tmp_path / "var", free_port()
    base = f"http://127.0.0.1:{port}"
    with serving(data_dir, port, env=FAST) as (server, lines):
        broker = data_dir.resolve() / "broker"
        assert f"workers: a Celery worker and its beat in this process; tasks queue in {broker}" in lines
        admin = bearer(admin_token(lines))
        ada = httpx.post(f"{base}/players", json={"name": "Ada"}, headers=admin).json()
        ada_id, ada_token = ada["player"]["player_id"], bearer(ada["token"]["token"])
        # seat 2 deals, and this deck's starter (AC) passes nobody over: the bot at seat 0 moves
        # first (a shuffled deal can start with an 8, which gives Ada the first move)
        deck = STARTER_AC_DECK.split()
        created = httpx.post(
            f"{base}/games",
            json={"seats": ["bot:heuristic", ada_id, "bot:random"], "first_dealer": 2, "deck": deck},
            headers=admin,
        )
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        view = wait_for_my_turn(base, game_id, ada_token, past=created.json()["version"])
        passed = move_until_the_turn_passes(base, game_id, ada_token, view)
        before = wait_for_my_turn(base, game_id, ada_token, past=passed)
        assert stop(server) == ["maumau: the worker and the beat stopped"]
    with serving(data_dir, port, env=FAST) as (server, lines):
        assert not [line for line in lines if "admin token" in line]
        after = my_view(base, game_id, ada_token)
        assert after == {**before, "position": after["position"]}  # Ada's turn still, her cards the same
        passed = move_until_the_turn_passes(base, game_id, ada_token, after)
        wait_for_my_turn(base, game_id, ada_token, past=passed)  # the worker runs after the restart too
        wait_for_the_mao_bot(base, admin, ada_id, ada_token)
        assert stop(server, signal.SIGINT) == ["maumau: the worker and the beat stopped"]
        assert server.returncode == 0  # Ctrl-C stops the service, it does not abort it
