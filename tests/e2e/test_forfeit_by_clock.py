"""A league's turn clock and the forfeit by clock through the HTTP API, with the real worker and beat
(``maumau serve`` on the embedded default: its worker times the turns out), and a Swiss tournament
run by a real Celery worker and beat on PostgreSQL and Redis, in which an absent player ends last.
"""

import time
from typing import Any

import httpx

from service.domain.tournament_plan import Plan
from tests.e2e.club import ADMIN, bearer, problem
from tests.e2e.test_embedded import FAST, admin_token, free_port, serving
from tests.e2e.test_tournament_run import (  # noqa: F401  (fixtures: pytest finds them by name here)
    app,
    due_tournament,
    finished,
    make_stack,
)

WAIT = 60.0  # seconds: two clocks of two seconds each, and the bots between them, take far less


def admitted(base: str, admin: dict[str, str], league_id: str, name: str) -> tuple[str, dict[str, str]]:
    made = httpx.post(f"{base}/players", json={"name": name}, headers=admin)
    assert made.status_code == 201, made.text
    player_id = made.json()["player"]["player_id"]
    joined = httpx.post(f"{base}/leagues/{league_id}/members", json={"player_id": player_id}, headers=admin)
    assert joined.status_code == 201, joined.text
    return player_id, bearer(made.json()["token"]["token"])


def get(base: str, path: str, **params: Any) -> dict[str, Any]:
    response = httpx.get(f"{base}{path}", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def test_a_silent_player_forfeits_a_clocked_league_game_and_the_views_and_standings_say_so(tmp_path):
    data_dir, port = tmp_path / "var", free_port()
    base = f"http://127.0.0.1:{port}"
    with serving(data_dir, port, env=FAST) as (_, lines):
        admin = bearer(admin_token(lines))
        founded = httpx.post(
            f"{base}/leagues", json={"name": "Clock club", "turn_clock": 2, "forfeit_after": 2}, headers=admin
        )
        assert founded.status_code == 201, founded.text
        league = founded.json()
        assert (league["turn_clock"], league["forfeit_after"]) == (2, 2)
        ada, _ = admitted(base, admin, league["league_id"], "Ada")  # never moves
        bea, bea_token = admitted(base, admin, league["league_id"], "Bea")
        cyd, _ = admitted(base, admin, league["league_id"], "Cyd")  # plays no match
        created = httpx.post(
            f"{base}/games", json={"seats": [ada, bea], "league_id": league["league_id"]}, headers=admin
        )
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        clocks_seen: list[dict[str, Any]] = []
        deadline = time.monotonic() + WAIT
        written = created.json()["position"]
        while not (table := get(base, f"/games/{game_id}", after=written))["over"]:
            assert time.monotonic() < deadline, f"Ada never forfeited: {table}"
            if table["turn"] is not None and table["seconds_left"] is not None:
                clocks_seen.append(table)
            if table["turn"] == 1:  # Bea moves at once, her first legal move
                me = httpx.get(f"{base}/games/{game_id}/me", headers=bea_token).json()
                moves = [move for move in me["legal"] if move["kind"] != "challenge"]
                if moves and me["table"]["version"] == table["version"]:
                    body = {**moves[0], "version": table["version"]}
                    httpx.post(f"{base}/games/{game_id}/moves", json=body, headers=bea_token)
            time.sleep(0.05)
        # while Ada was to move the views said when her clock runs out, and how long that was from then
        ada_clocks = [seen for seen in clocks_seen if seen["turn"] == 0]
        assert ada_clocks and all(0 <= seen["seconds_left"] <= 2 for seen in ada_clocks)
        assert all(seen["turn_deadline"] is not None for seen in ada_clocks)
        assert table["forfeited"] == [0] and table["winners"] == [1]
        assert table["seats"][0]["forfeited"] and not table["seats"][1]["forfeited"]
        assert table["turn_deadline"] is None and table["seconds_left"] is None
        # the public log's last event: the forfeit, as stored
        [forfeit] = get(base, f"/games/{game_id}/events", after=table["version"] - 1)["events"]
        assert forfeit["type"] == "SeatForfeited" and forfeit["number"] == table["version"]
        assert (forfeit["data"]["seat"], forfeit["data"]["turns"]) == (0, 2)

        standings = get(base, f"/leagues/{league['league_id']}/standings", after=table["position"])
        rows = {row["player_id"]: row for row in standings["rows"]}
        # ranked by what was played: the forfeit a loss; Cyd, who has not played, unranked and last
        assert [(row["player_id"], row["rank"]) for row in standings["rows"]] == [
            (bea, 1),
            (ada, 2),
            (cyd, None),
        ]
        assert rows[bea]["matches_won"] == 1
        assert (rows[ada]["matches_played"], rows[ada]["matches_won"], rows[ada]["forfeits"]) == (1, 0, 1)
        assert rows[cyd]["matches_played"] == rows[cyd]["points"] == rows[cyd]["forfeits"] == 0
        assert standings["tie_breaks"] == [
            "matches_won_or_shared",
            "matches_won",
            "forfeits",
            "average_points",
            "rounds_won",
            "missed_calls",
        ]
        assert "forfeit" in standings["rule"] and "zeros" in standings["rule"]


def test_a_real_worker_runs_a_swiss_tournament_in_which_an_absent_player_ends_last(app, make_stack):  # noqa: F811
    plan = Plan(format="swiss", table_size=2, rounds=3, single_round=True, places=8, turn_clock=1)
    tournament_id, (ann,) = due_tournament(app, plan, members=1)
    stack = make_stack()
    stack.wait_for("finished tournament", finished(app, tournament_id))
    tournament = app.get_tournament(tournament_id)
    ranking = tournament.standings()
    assert ranking[0].entrant != str(ann)
    assert ranking[-1].entrant == str(ann)
    assert (ranking[-1].wins, ranking[-1].forfeits) == (0, 3)  # the league's default: 3 timeouts in a row
    for played in tournament.rounds:
        assert any(result.forfeited for result in played.results.values())


def test_a_league_with_a_bad_clock_setting_is_refused_with_a_stable_code_and_changes_nothing(client, club):
    for body, status, code in (
        ({"turn_clock": 0}, 422, "invalid_turn_clock"),
        ({"turn_clock": 86_401}, 422, "invalid_turn_clock"),
        ({"forfeit_after": -1}, 422, "invalid_forfeit_after"),
        ({"forfeit_after": 101}, 422, "invalid_forfeit_after"),
        ({"turn_clock": "soon"}, 400, "malformed_request"),
        ({"forfeit_after": 1.5}, 400, "malformed_request"),
    ):
        with club.unchanged():
            problem(client.post("/leagues", json={"name": "Bad clock", **body}, headers=ADMIN), status, code)


def test_a_league_without_a_clock_forfeits_never_when_told_and_states_the_default_otherwise(client):
    never = client.post(
        "/leagues", json={"name": "Patient", "turn_clock": 60, "forfeit_after": None}, headers=ADMIN
    )
    assert never.status_code == 201 and (never.json()["turn_clock"], never.json()["forfeit_after"]) == (60, 0)
    default = client.post("/leagues", json={"name": "Plain"}, headers=ADMIN).json()
    assert (default["turn_clock"], default["forfeit_after"]) == (None, 3)


def test_standings_list_a_member_without_a_match_with_zeros_and_no_rank_and_state_their_order(client, club):
    ada, _ = club.player("Ada")
    bea, _ = club.player("Bea")
    league_id = club.league(members=[ada, bea])
    standings = client.get(f"/leagues/{league_id}/standings", params={"after": club.log_position()}).json()
    assert {row["player_id"] for row in standings["rows"]} == {ada, bea}
    assert all(
        row["rank"] is None and row["matches_played"] == row["forfeits"] == 0 for row in standings["rows"]
    )
    assert standings["tie_breaks"][:3] == ["matches_won_or_shared", "matches_won", "forfeits"]
    assert standings["rule"].startswith("Most matches won")


def test_a_tournament_view_states_its_ranking_order_in_keys_and_a_sentence(client, club):
    ada, _ = club.player("Ada")
    league_id = club.league(members=[ada])
    made = client.post(
        f"/leagues/{league_id}/tournaments",
        json={"name": "Cup", "format": "swiss", "table_size": 2, "rounds": 2},
        headers=ADMIN,
    )
    assert made.status_code == 201, made.text
    view = made.json()
    assert view["tie_breaks"] == ["points", "wins", "forfeits", "opponents", "seed"]
    assert view["rule"].startswith("Fewest points") and "forfeit" in view["rule"]


def test_a_new_game_of_people_only_is_queued_for_its_clock_only_when_its_league_has_one(client, club, queued):
    ada, _ = club.player("Ada")
    bea, _ = club.player("Bea")
    clocked = club.league(members=[ada, bea], turn_clock=60)
    plain = club.league(members=[ada, bea])
    game = club.game([ada, bea], league_id=clocked)
    assert queued.take_ids() == [("game", game["game_id"])]  # its step sets the first clock
    club.game([ada, bea], league_id=plain)
    assert queued.take_ids() == []  # nobody to answer, no clock to set
