"""A friendly game's own turn clock (issue 33): ``POST /games`` without a league takes ``turn_clock``
and ``forfeit_after`` as a league does; the views show the deadline, a real worker (``maumau serve``
on the embedded default) times a silent seat out until it forfeits, and a league's game keeps the
league's clock (422 ``invalid_option`` when one is named, as for any setting but the match length).
"""

import time
import uuid
from typing import Any

import httpx

from tests.e2e.club import ADMIN, bearer, problem
from tests.e2e.test_embedded import FAST, admin_token, free_port, serving
from tests.e2e.test_forfeit_by_clock import get

WAIT = 60.0  # seconds: two clocks of a second each and the bot's moves take far less


def test_a_friendly_game_with_a_clock_shows_the_seat_to_move_its_deadline(client, club, queued):
    ada, ada_headers = club.player("Ada")
    bea, bea_headers = club.player("Bea")
    game = club.game([ada, bea], headers=ada_headers, turn_clock=60)  # a player's own friendly game
    assert queued.take_ids() == [("game", game["game_id"])]  # its step sets the first clock
    stored = club.app.get_game(game["game_id"])
    assert (stored.turn_clock, stored.forfeit_after, stored.league_id) == (60, 3, None)  # a league's default
    table = club.table(game)
    mover = ada_headers if table["turn"] == 0 else bea_headers
    view = club.me(game, mover)["table"]
    assert view["turn_deadline"] is not None and 0 < view["seconds_left"] <= 60
    never = club.app.get_game(club.game([ada, bea], turn_clock=30, forfeit_after=None)["game_id"])
    assert (never.turn_clock, never.forfeit_after) == (30, 0)  # null: never, as in a league


def test_a_friendly_game_without_a_clock_has_no_deadline_and_queues_nothing_as_before(client, club, queued):
    ada, ada_headers = club.player("Ada")
    bea, _ = club.player("Bea")
    game = club.game([ada, bea], headers=ada_headers)
    assert queued.take_ids() == []  # nobody to answer, no clock to set
    stored = club.app.get_game(game["game_id"])
    assert (stored.turn_clock, stored.forfeit_after) == (None, 0)
    table = club.table(game)
    assert table["turn_deadline"] is None and table["seconds_left"] is None
    # a forfeit rule without a clock means nothing: the game keeps none
    assert club.app.get_game(club.game([ada, bea], forfeit_after=5)["game_id"]).forfeit_after == 0


def test_bad_clocks_and_a_league_games_own_clock_are_refused_with_stable_codes_and_store_nothing(
    client, club
):
    ada, _ = club.player("Ada")
    bea, _ = club.player("Bea")
    league_id = club.league(members=[ada, bea], turn_clock=60)
    for body, status, code in (
        ({"turn_clock": 0}, 422, "invalid_turn_clock"),
        ({"turn_clock": 86_401}, 422, "invalid_turn_clock"),
        ({"turn_clock": -5}, 422, "invalid_turn_clock"),
        ({"turn_clock": 60, "forfeit_after": 101}, 422, "invalid_forfeit_after"),
        ({"forfeit_after": -1}, 422, "invalid_forfeit_after"),
        ({"turn_clock": "soon"}, 400, "malformed_request"),
        ({"turn_clock": 1.5}, 400, "malformed_request"),
        ({"turn_clock": 60, "league_id": league_id}, 422, "invalid_option"),
        ({"forfeit_after": 2, "league_id": league_id}, 422, "invalid_option"),
        ({"turn_clock": 60, "in_person": True}, 409, "played_in_person"),
    ):
        with club.unchanged():
            problem(client.post("/games", json={"seats": [ada, bea], **body}, headers=ADMIN), status, code)
    # a creation sent again with the same key and another clock is another request
    keyed = {"Idempotency-Key": f"friendly-clock-{uuid.uuid4()}", **ADMIN}
    first = client.post("/games", json={"seats": [ada, bea], "turn_clock": 60}, headers=keyed)
    assert first.status_code == 201, first.text
    again = client.post("/games", json={"seats": [ada, bea], "turn_clock": 60}, headers=keyed)
    assert again.json()["game_id"] == first.json()["game_id"]
    with club.unchanged():
        problem(
            client.post("/games", json={"seats": [ada, bea], "turn_clock": 30}, headers=keyed),
            409,
            "idempotency_key_reused",
        )
    # a league's game without one plays the league's clock, as before
    league_game = club.game([ada, bea], league_id=league_id)
    assert club.app.get_game(league_game["game_id"]).turn_clock == 60


def test_a_real_worker_plays_for_a_silent_seat_of_a_friendly_game_until_it_forfeits(tmp_path):
    data_dir, port = tmp_path / "var", free_port()
    base = f"http://127.0.0.1:{port}"
    with serving(data_dir, port, env=FAST) as (_, lines):
        admin = bearer(admin_token(lines))
        made = httpx.post(f"{base}/players", json={"name": "Ada"}, headers=admin)
        assert made.status_code == 201, made.text
        ada, ada_token = made.json()["player"]["player_id"], bearer(made.json()["token"]["token"])
        body = {"seats": [ada, "bot:heuristic"], "turn_clock": 1, "forfeit_after": 2}
        created = httpx.post(f"{base}/games", json=body, headers=ada_token)  # Ada never moves
        assert created.status_code == 201, created.text
        game_id, written = created.json()["game_id"], created.json()["position"]
        deadlines: list[Any] = []
        deadline = time.monotonic() + WAIT
        while not (table := get(base, f"/games/{game_id}", after=written))["over"]:
            assert time.monotonic() < deadline, f"Ada never forfeited: {table}"
            if table["turn"] == 0:
                deadlines.append(httpx.get(f"{base}/games/{game_id}/me", headers=ada_token).json()["table"])
            time.sleep(0.05)
        # while Ada was to move her own view said when her clock runs out
        assert any(seen["turn"] == 0 and seen["turn_deadline"] is not None for seen in deadlines)
        assert table["forfeited"] == [0] and table["winners"] == [1]
        events = get(base, f"/games/{game_id}/events", after=0, limit=500)["events"]
        timed_out = [event for event in events if event["type"] == "TurnTimedOut"]
        assert [event["data"]["seat"] for event in timed_out] == [0, 0]
        [forfeit] = [event for event in events if event["type"] == "SeatForfeited"]
        assert (forfeit["data"]["seat"], forfeit["data"]["turns"]) == (0, 2)
