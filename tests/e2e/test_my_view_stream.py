"""A seat's own view, live (``GET /games/{id}/me/stream``): pushed at every change, only ever its own."""

import threading
import time
from typing import Any

from service.domain.cards import format_cards
from tests.e2e.club import ADMIN, problem
from tests.e2e.test_stream import messages
from tests.integration.tables import play_out


def views(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/event-stream")
    found = messages(response.text)
    assert {m["event"] for m in found} == {"view"}
    return found


def test_my_view_is_pushed_as_the_game_moves_until_the_match_is_over(client, club):
    ada, ada_headers = club.player("Ada")
    game = club.game([ada, "bot:random"], options={"single_round": True})
    game_id = game["game_id"]
    playing = threading.Thread(target=lambda: (time.sleep(0.3), play_out(club.app, game_id, seed=21)))
    playing.start()
    try:
        response = client.get(f"/games/{game_id}/me/stream", headers=ada_headers)
    finally:
        playing.join()
    found = views(response)
    versions = [int(m["id"]) for m in found]
    assert versions == sorted(set(versions))  # newer each time, never one twice
    assert versions[0] == game["version"] and len(versions) > 2
    assert versions[-1] == len(club.app.game_events(game_id))
    for message in found:
        view = message["data"]
        assert view["seat"] == 0 and view["table"]["version"] == int(message["id"])
        at = club.app.game_at(game_id, view["table"]["version"]).state
        assert sorted(view["cards"]) == sorted(format_cards(at.hands[0]))
        # the other seat's cards appear nowhere: only counts
        assert all(isinstance(seat["cards"], int) for seat in view["table"]["seats"])
    assert found[-1]["data"]["table"]["over"] and found[-1]["data"]["legal"] == []


def played_out(club: Any, seed: int) -> tuple[dict[str, Any], dict[str, str]]:
    """A finished one-round game of Ada (seat 0) and Bob, and Ada's authorization header."""
    ada, ada_headers = club.player("Ada")
    bob, _ = club.player("Bob")
    game = club.game([ada, bob], options={"single_round": True})
    play_out(club.app, game["game_id"], seed=seed)
    return game, ada_headers


def test_the_pushed_view_is_the_view_the_read_models_answer(client, club):
    game, ada_headers = played_out(club, seed=22)
    (last,) = views(client.get(f"/games/{game['game_id']}/me/stream", headers=ada_headers))
    read = club.me({**game, "position": last["data"]["position"]}, ada_headers)
    pushed = last["data"]
    assert read["table"]["version"] == pushed["table"]["version"]
    # the same view, but for how far each source had got when it answered
    for view in (read, pushed):
        view.pop("position")
        view["table"].pop("position")
    assert pushed == read


def test_a_move_over_http_reaches_the_next_seat_s_stream(client, club):
    ada, ada_headers = club.player("Ada")
    bob, bob_headers = club.player("Bob")
    game = club.game([ada, bob], options={"single_round": True}, seed="stream-move")
    game_id = game["game_id"]
    first = club.me(game, ada_headers)
    mover, headers = (0, ada_headers) if first["legal"] else (1, bob_headers)
    other_headers = bob_headers if mover == 0 else ada_headers
    view = club.me(game, headers)
    move = dict(view["legal"][0], version=view["table"]["version"])
    if move["kind"] == "play" and len(view["cards"]) == 2:
        move["call"] = "mau"

    def make_move() -> None:
        time.sleep(0.3)
        club.ok("POST", f"/games/{game_id}/moves", headers=headers, json=move)
        time.sleep(0.2)
        play_out(club.app, game_id, seed=23)  # so that the stream ends

    moving = threading.Thread(target=make_move)
    moving.start()
    try:
        response = client.get(f"/games/{game_id}/me/stream", headers=other_headers)
    finally:
        moving.join()
    versions = [int(m["id"]) for m in views(response)]
    assert versions[0] == view["table"]["version"]
    assert versions[1] > versions[0]  # the move, pushed


def test_an_official_names_the_seat_to_follow(client, club):
    game, _ = played_out(club, seed=24)
    (last,) = views(client.get(f"/games/{game['game_id']}/me/stream?seat=1", headers=ADMIN))
    at = club.app.get_game(game["game_id"]).state
    assert last["data"]["seat"] == 1 and sorted(last["data"]["cards"]) == sorted(format_cards(at.hands[1]))


def test_only_the_seated_player_or_an_official_may_follow_a_seat(client, club):
    ada, ada_headers = club.player("Ada")
    bob, _ = club.player("Bob")
    _, carl_headers = club.player("Carl")
    game = club.game([ada, bob], options={"single_round": True})
    path = f"/games/{game['game_id']}/me/stream"
    problem(client.get(path), 401, "unauthorized")
    problem(client.get(path, headers=carl_headers), 403, "not_seated")
    problem(client.get(f"{path}?seat=1", headers=ada_headers), 403, "not_your_seat")
    problem(client.get(path, headers=ADMIN), 422, "seat_required")
    problem(client.get(f"{path}?seat=2", headers=ADMIN), 422, "not_a_seat")
    problem(client.get(f"{path}?seat=-1", headers=ADMIN), 400, "malformed_request")
    problem(
        client.get("/games/00000000-0000-0000-0000-0000000000ee/me/stream", headers=ADMIN),
        404,
        "game_not_found",
    )
