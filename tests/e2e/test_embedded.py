"""The embedded default: SQLite under the data dir, `maumau serve` and `maumau admin token`."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from service.http.app import create_app
from service.http.cli import admin_group
from service.settings import Settings, get_settings
from tests.e2e.club import bearer

# the console script itself, as the README's first command runs it
MAUMAU = str(Path(sys.executable).parent / "maumau")


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


def serve_until_healthy(data_dir: Path, port: int) -> tuple[subprocess.Popen[str], list[str]]:
    env = {**os.environ, "MAUMAU_DATA_DIR": str(data_dir), "MAUMAU_PORT": str(port)}
    env.pop("MAUMAU_DATABASE_URL", None)
    env.pop("MAUMAU_ADMIN_TOKEN", None)
    server = subprocess.Popen(
        [MAUMAU, "serve"], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    lines: list[str] = []
    assert server.stdout is not None
    while not any(line.startswith("data:") for line in lines):
        line = server.stdout.readline()
        assert line, f"serve stopped: {lines}"
        lines.append(line.strip())
    for _ in range(200):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                return server, lines
        except httpx.TransportError:
            time.sleep(0.05)
    server.terminate()
    raise AssertionError(f"serve did not answer: {lines}")


def stop(server: subprocess.Popen[str]) -> None:
    server.terminate()
    server.wait(timeout=30)


def test_serve_prints_where_it_listens_and_the_first_admin_token_once(data_dir):
    port = free_port()
    server, lines = serve_until_healthy(data_dir, port)
    try:
        assert f"http://127.0.0.1:{port}" in "\n".join(lines)
        assert any(str(data_dir.resolve() / "maumau.sqlite3") in line for line in lines)
        (token_line,) = [line for line in lines if "admin token" in line]
        token = token_line.rsplit(" ", 1)[-1]
        created = httpx.post(f"http://127.0.0.1:{port}/players", json={"name": "Ada"}, headers=bearer(token))
        assert created.status_code == 201
    finally:
        stop(server)
    server, lines = serve_until_healthy(data_dir, port)
    stop(server)
    assert not [line for line in lines if "admin token" in line]
