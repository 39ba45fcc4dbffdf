"""The demo: ``maumau serve --demo``, and ``python -m service.demo`` (``maumau demo``) beside a running
``maumau serve``, on the embedded default; the tournament's standings move as its bots play."""

import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from litestar.testing import TestClient

from service.application import MauMau
from service.demo import LEAGUE, PLAYER, set_up
from service.domain.tournament import Tournament
from service.http.app import create_app
from service.settings import Settings
from tests.e2e.club import bearer
from tests.e2e.test_embedded import FAST, WAIT, free_port, serving, stop
from workers.conduct import Conductor
from workers.inline import Inline

ROOT = Path(__file__).resolve().parents[2]
TOURNAMENT_LINE = re.compile(r"tournament 'Demo cup' ([0-9a-f-]{36}):")


def test_the_demo_tournament_is_started_with_its_games_and_plays_to_the_end(tmp_path):
    settings = Settings(data_dir=tmp_path / "var", admin_token="demo-admin")
    app = MauMau(settings)
    try:
        inline = Inline()
        made = set_up(app, dispatch=inline)
        tournament = app.get_tournament(made.tournament_id)
        assert tournament.started and len(tournament.rounds) == 1
        assert made.games == [tournament.rounds[0].games[table] for table in (0, 1)]
        assert sorted(inline.queued("advance_game")) == sorted((game,) for game in made.games)
        league = app.get_league(made.league_id)
        assert (league.name, made.league_id) == (LEAGUE, tournament.league_id)
        assert made.player_id in league.members and app.get_player(made.player_id).name == PLAYER
        inline.run(Conductor(app, inline))
        tournament = app.get_tournament(made.tournament_id)
        assert tournament.finished and len(tournament.rounds) == 3
        assert sorted(tournament.order) == sorted(f"bot:heuristic#{n}" for n in range(1, 9))
        assert all(placing.tables == 3 for placing in tournament.standings())
    finally:
        app.close()
    # the player's token is a working one: they sit down to a friendly game
    with TestClient(create_app(settings)) as client:
        game = {"seats": [str(made.player_id), "bot:heuristic"]}
        assert client.post("/games", json=game, headers=bearer(made.player_token)).status_code == 201


def standings_of(data_dir: Path, tournament_id: str) -> Callable[[], Tournament]:
    """The tournament as the store has it now, read beside the server (the SQLite file is shared)."""

    def read() -> Tournament:
        app = MauMau(Settings(data_dir=data_dir))
        try:
            return app.get_tournament(tournament_id)
        finally:
            app.close()

    return read


def wait_until(what: str, done: Callable[[], Any]) -> Any:
    deadline = time.monotonic() + WAIT
    while not (found := done()):
        assert time.monotonic() < deadline, f"no {what} after {WAIT:.0f} s"
        time.sleep(0.1)
    return found


def tables_played(tournament: Tournament) -> int:
    return sum(placing.tables for placing in tournament.standings())


def test_serve_demo_prints_what_to_watch_and_the_standings_move_as_the_bots_play(tmp_path):
    data_dir, port = tmp_path / "var", free_port()
    base = f"http://127.0.0.1:{port}"
    with serving(data_dir, port, "--demo", env=FAST) as (server, lines):
        text = "\n".join(lines)
        found = TOURNAMENT_LINE.search(text)
        assert found is not None, text
        tournament_id = found.group(1)
        assert f"{base}/tournaments/{tournament_id}" in text
        (game_id,) = re.findall(rf"curl -N {base}/games/([0-9a-f-]{{36}})/stream", text)
        assert f"{base}/games/{game_id}" in text
        # the game to watch is there as the server starts: its public table, then its bots' moves
        assert httpx.get(f"{base}/games/{game_id}").status_code == 200
        read = standings_of(data_dir, tournament_id)
        assert tables_played(read()) == 0
        wait_until("table finished", lambda: tables_played(read()) > 0)
        stop(server)


def test_the_demo_command_beside_a_running_serve_starts_a_tournament_its_workers_finish(tmp_path):
    data_dir, port = tmp_path / "var", free_port()
    env = {
        **{key: value for key, value in os.environ.items() if not key.startswith("MAUMAU_")},
        "MAUMAU_DATA_DIR": str(data_dir),
        "MAUMAU_PORT": str(port),
        **FAST,
    }
    with serving(data_dir, port, env=FAST) as (server, _):
        done = subprocess.run(
            [sys.executable, "-m", "service.demo", "--bots", "6", "--table-size", "3", "--rounds", "2"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        found = TOURNAMENT_LINE.search(done.stdout)
        assert found is not None, done.stdout
        assert "6 bots, swiss, 2 rounds at tables of up to 3" in done.stdout
        read = standings_of(data_dir, found.group(1))
        tournament = wait_until("finished tournament", lambda: (t := read()).finished and t)
        assert [len(played.tables) for played in tournament.rounds] == [2, 2]
        assert tables_played(tournament) == 12  # six entrants, two tables each
        stop(server)


def test_the_demo_command_refuses_options_out_of_range_and_stores_nothing(tmp_path):
    env = {
        **{key: value for key, value in os.environ.items() if not key.startswith("MAUMAU_")},
        "MAUMAU_DATA_DIR": str(tmp_path / "var"),
    }
    done = subprocess.run(
        [sys.executable, "-m", "service.demo", "--bots", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "--bots" in done.stderr
    assert not (tmp_path / "var").exists()
