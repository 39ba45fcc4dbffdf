"""The seat's own stream takes the pages' session cookie (a browser's EventSource sends no bearer
header), with the same rule as a bearer token: one's own seat only; the bearer API is unchanged."""

from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import msgspec

from tests.e2e.club import Club
from tests.web.conftest import new_scene, sign_in_over_http


@contextmanager
def signed_in(base: str, token: str) -> Iterator[httpx.Client]:
    """A client that signed in as a browser does (the link with the token) and keeps the cookie."""
    with httpx.Client(base_url=base, timeout=30) as client:
        sign_in_over_http(client, token)
        assert "maumau_session" in client.cookies
        yield client


def first_message(client: httpx.Client, path: str, **headers: str) -> tuple[int, str]:
    """The status and the first message (or the problem) of a stream, then it is let go."""
    with client.stream("GET", path, headers=headers) as response:
        if response.status_code != 200:
            response.read()
            return response.status_code, response.text
        lines = []
        for line in response.iter_lines():
            if not line and lines:
                return 200, "\n".join(lines)
            if line and not line.startswith(":"):
                lines.append(line)
    raise AssertionError("the stream ended without a message")


def test_the_seated_players_session_cookie_opens_their_own_stream(club: Club, base: str):
    scene = new_scene(club)
    ada = next(iter(scene.players))
    with signed_in(base, scene.tokens[ada]) as browser:
        status, message = first_message(browser, f"/games/{scene.game}/me/stream")
    assert status == 200, message
    data = next(line for line in message.splitlines() if line.startswith("data:"))[5:]
    view = msgspec.json.decode(data)
    assert "event: view" in message
    own = club.ok("GET", f"/games/{scene.game}/me", params={"seat": view["seat"]})
    assert view["table"]["seats"][view["seat"]]["player_id"] == scene.players[ada]
    assert (
        sorted(view["cards"]) == sorted(own["cards"]) or view["table"]["version"] != own["table"]["version"]
    )


def test_without_a_cookie_or_a_token_the_stream_is_401(club: Club, base: str):
    scene = new_scene(club)
    with httpx.Client(base_url=base, timeout=30) as anonymous:
        status, body = first_message(anonymous, f"/games/{scene.game}/me/stream")
    assert status == 401 and msgspec.json.decode(body)["code"] == "unauthorized"


def test_a_players_cookie_does_not_open_another_seat(club: Club, base: str):
    scene = new_scene(club)
    ada, bo = scene.players
    seat_of_bo = next(
        seat["seat"] for seat in club.ok("GET", f"/games/{scene.game}")["seats"] if seat["name"] == bo
    )
    with signed_in(base, scene.tokens[ada]) as browser:
        status, body = first_message(browser, f"/games/{scene.game}/me/stream?seat={seat_of_bo}")
    assert status == 403 and msgspec.json.decode(body)["code"] == "not_your_seat"


def test_a_player_not_seated_gets_403_through_the_cookie(club: Club, base: str):
    scene, elsewhere = new_scene(club), new_scene(club)
    stranger = next(iter(elsewhere.players))
    with signed_in(base, elsewhere.tokens[stranger]) as browser:
        status, body = first_message(browser, f"/games/{scene.game}/me/stream")
    assert status == 403 and msgspec.json.decode(body)["code"] == "not_seated"


def test_a_bearer_header_is_judged_as_ever_even_beside_a_valid_cookie(club: Club, base: str):
    scene = new_scene(club)
    ada = next(iter(scene.players))
    with signed_in(base, scene.tokens[ada]) as browser:
        status, body = first_message(
            browser, f"/games/{scene.game}/me/stream", Authorization="Bearer mm_not_a_token"
        )
        assert status == 401 and msgspec.json.decode(body)["code"] == "unauthorized"
        # the cookie opens no other route of the API: GET /games/{id}/me still wants a bearer token
        response = browser.get(f"/games/{scene.game}/me")
    assert response.status_code == 401 and response.json()["code"] == "unauthorized"


def test_a_seated_players_cookie_opens_their_own_seat_of_a_mao_match_and_no_other(club: Club, base: str):
    made = [club.ok("POST", "/players", json={"name": f"Ada {n}"}) for n in range(2)]
    seats = [player["player"]["player_id"] for player in made]
    league = club.league(members=seats, ruleset="mao")
    body = {"league_id": league, "seats": [*seats, "bot:random"], "judge": "server", "first_dealer": 2}
    path = f"/mao-games/{club.ok('POST', '/mao-games', json=body)['game_id']}/me/stream"
    with signed_in(base, made[0]["token"]["token"]) as browser:
        status, message = first_message(browser, path)
        other, body = first_message(browser, f"{path}?seat=1")
    assert status == 200 and "event: view" in message, message
    view = msgspec.json.decode(next(line for line in message.splitlines() if line.startswith("data:"))[5:])
    assert view["seat"] == 0 and view == club.ok("GET", path.removesuffix("/stream"), params={"seat": 0})
    assert other == 403 and msgspec.json.decode(body)["code"] == "not_your_seat"
