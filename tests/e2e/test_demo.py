"""The demo: ``maumau serve --demo``, and ``maumau demo`` beside a running ``maumau serve``, on the
embedded default; the tournament's ranking, at the URL printed, moves as its bots play."""

import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.application import MauMau
from service.demo import LEAGUE, PLAYER, set_up
from service.settings import Settings
from tests.e2e.club import bearer
from tests.e2e.test_embedded import FAST, MAUMAU, WAIT, free_port, serving, stop
from tests.environment import without_settings
from workers.conduct import Conductor
from workers.inline import Inline

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


def wait_until(what: str, done: Callable[[], Any]) -> Any:
    deadline = time.monotonic() + WAIT
    while not (found := done()):
        assert time.monotonic() < deadline, f"no {what} after {WAIT:.0f} s"
        time.sleep(0.1)
    return found


def test_serve_demo_prints_what_to_watch_and_the_standings_move_as_the_bots_play(tmp_path):
    data_dir, port = tmp_path / "var", free_port()
    base = f"http://127.0.0.1:{port}"
    with serving(data_dir, port, "--demo", env=FAST) as (server, lines):
        text = "\n".join(lines)
        found = TOURNAMENT_LINE.search(text)
        assert found is not None, text
        bracket_url = f"{base}/tournaments/{found.group(1)}"
        assert bracket_url in text
        (game_id,) = re.findall(rf"curl -N {base}/games/([0-9a-f-]{{36}})/stream", text)
        assert f"{base}/games/{game_id}" in text
        # the pages a person opens come first, before the API's routes
        web_tournament, web_game = f"{base}/web/tournaments/{found.group(1)}", f"{base}/web/games/{game_id}"
        assert text.index(web_tournament) < text.index(web_game) < text.index(bracket_url)
        # the game to watch is there as the server starts, and so is the tournament, at the URLs printed
        assert httpx.get(f"{base}/games/{game_id}").status_code == 200
        page = httpx.get(web_game)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")

        def ranking() -> list[dict[str, Any]]:
            response = httpx.get(bracket_url)
            assert response.status_code in (200, 404), response.text  # 404: not in the read models yet
            return response.json()["ranking"] if response.status_code == 200 else []

        assert len(wait_until("ranking", ranking)) == 8
        page = httpx.get(web_tournament)
        assert page.status_code == 200 and "Demo cup" in page.text
        moved = wait_until("table finished", lambda: [p for p in ranking() if p["tables"] > 0])
        assert all(placing["entrant"].startswith("bot:heuristic#") for placing in moved)
        stop(server)


def run_demo(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``maumau demo ARGS``, as a person types it beside the server."""
    return subprocess.run(
        [MAUMAU, "demo", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


def demo(
    cwd: Path, env: dict[str, str], *args: str
) -> tuple[subprocess.CompletedProcess[str], re.Match[str]]:
    """``maumau demo ARGS`` that succeeds, and the line naming the tournament it made."""
    done = run_demo(cwd, env, *args)
    assert done.returncode == 0, done.stderr
    found = TOURNAMENT_LINE.search(done.stdout)
    assert found is not None, done.stdout
    return done, found


def test_the_demo_command_beside_a_running_serve_starts_a_tournament_its_workers_finish(tmp_path):
    data_dir, port = tmp_path / "var", free_port()
    env = without_settings(
        MAUMAU_DATA_DIR=str(data_dir),
        MAUMAU_PORT=str(port),
    )
    # the bots play straight through: this one is about the command beside a server, not the pace
    straight = {**FAST, "MAUMAU_BOT_THINK": "0"}
    with serving(data_dir, port, env=straight) as (server, _):
        done, found = demo(tmp_path, env, "--bots", "6", "--table-size", "3", "--rounds", "2")
        assert "6 bots, swiss, 2 rounds at tables of up to 3" in done.stdout
        bracket_url = f"http://127.0.0.1:{port}/tournaments/{found.group(1)}"
        assert bracket_url in done.stdout

        def finished() -> dict[str, Any] | None:
            response = httpx.get(bracket_url)
            return (
                response.json()
                if response.status_code == 200 and response.json()["status"] == "finished"
                else None
            )

        bracket = wait_until("finished tournament", finished)
        assert [len(played["tables"]) for played in bracket["rounds"]] == [2, 2]
        assert sorted(placing["tables"] for placing in bracket["ranking"]) == [2] * 6
        stop(server)


@pytest.mark.parametrize(
    ("option", "value"),
    [("--bots", "1"), ("--table-size", "7"), ("--url", "ftp://127.0.0.1:8000"), ("--url", "127.0.0.1:8000")],
)
def test_the_demo_command_refuses_options_out_of_range_and_stores_nothing(tmp_path, option, value):
    env = without_settings(
        MAUMAU_DATA_DIR=str(tmp_path / "var"),
    )
    done = run_demo(tmp_path, env, option, value)
    assert done.returncode == 2 and option in done.stderr
    assert not (tmp_path / "var").exists()


def test_the_demo_prints_its_links_on_the_url_given_not_maumau_port_and_seats_six_at_a_table(tmp_path):
    data_dir = tmp_path / "var"
    # the server would listen on 5555 (`serve --port 5555`) while MAUMAU_PORT says 1234
    env = without_settings(MAUMAU_DATA_DIR=str(data_dir), MAUMAU_PORT="1234")
    done, found = demo(
        tmp_path, env, "--bots", "6", "--table-size", "6", "--rounds", "1", "--url", "http://demo.test:5555/"
    )
    assert f"http://demo.test:5555/tournaments/{found.group(1)}" in done.stdout
    assert f"http://demo.test:5555/web/tournaments/{found.group(1)}" in done.stdout
    assert ":1234" not in done.stdout
    assert "6 bots, swiss, 1 rounds at tables of up to 6" in done.stdout
    app = MauMau(Settings(data_dir=data_dir))
    try:
        tournament = app.get_tournament(found.group(1))
        assert [len(table) for table in tournament.rounds[0].tables] == [6]
    finally:
        app.close()
