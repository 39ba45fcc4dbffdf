"""A seat's play socket (``/games/{id}/me/socket``) through the real app: moves as messages, answered
as ``POST /games/{id}/moves`` answers them, refusals as its problem+json with the socket open, the
same idempotency, and every seat's views pushed, never another seat's cards."""

import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from litestar.exceptions import WebSocketDisconnect
from litestar.testing import TestClient
from litestar.testing.websocket_test_session import WebSocketTestSession

from service.http.play_socket import ROUTE
from tests.e2e.club import ADMIN, bearer, cards_named, moves, unseen_cards, whole_log
from tests.e2e.test_metrics import scrape, value
from tests.e2e.test_moves import HANDS
from tests.e2e.test_web_sessions import sign_in
from tests.integration.tables import play_out

WAIT = 10.0


def socket_path(game: dict[str, Any], seat: int | None = None) -> str:
    return f"/games/{game['game_id']}/me/socket" + ("" if seat is None else f"?seat={seat}")


class Seat:
    """One socket, and every message it carried (for the secrecy checks)."""

    def __init__(self, socket: WebSocketTestSession) -> None:
        self.socket = socket
        self.texts: list[str] = []
        # what came while another kind of message was awaited: a seat's own view may be pushed
        # before the answer to its move, and a later wait for that view must still find it
        self.kept: list[dict[str, Any]] = []

    def next(self) -> dict[str, Any]:
        text = self.socket.receive_text(timeout=WAIT)
        self.texts.append(text)
        found: dict[str, Any] = json.loads(text)
        return found

    def until(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        for index, kept in enumerate(self.kept):
            if wanted(kept):
                return self.kept.pop(index)
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            found = self.next()
            if wanted(found):
                return found
            self.kept.append(found)
        raise AssertionError("the socket did not carry it")

    def view(self, version: int) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "view" and m["version"] >= version)

    def send(self, body: dict[str, Any], key: str | None = None, kind: str = "move") -> dict[str, Any]:
        """A move, and its answer or refusal (the views that came meanwhile are kept for later)."""
        self.socket.send_text(json.dumps({"type": kind, "body": body, **({"key": key} if key else {})}))
        return self.until(lambda m: m["type"] in ("answer", "problem"))

    def raw(self, text: str) -> dict[str, Any]:
        self.socket.send_text(text)
        return self.until(lambda m: m["type"] in ("answer", "problem"))


@contextmanager
def seated(client: TestClient[Any], path: str, headers: dict[str, str]) -> Iterator[Seat]:
    with client.websocket_connect(path, headers=headers) as socket:
        yield Seat(socket)


@pytest.fixture
def table(club) -> dict[str, Any]:
    """A fresh game of Ada (seat 0, to move first) and Bob, ``test_moves``' hands; the starter is 5H."""
    return {**club.heads_up(HANDS), "stranger": club.player("Stranger")[1]}


def refused(answer: dict[str, Any], status: int, code: str, key: str | None = None) -> dict[str, Any]:
    assert answer["type"] == "problem" and answer["status"] == status and answer["key"] == key, answer
    body: dict[str, Any] = answer["data"]
    assert body["status"] == status and body["code"] == code, body
    assert body["type"] == f"urn:maumau:problem:{code}" and body["title"] and body["detail"]
    return body


def test_a_move_is_answered_as_the_post_answers_it_and_every_seat_sees_it(client, club, table):
    game, version = table["game"], table["game"]["version"]
    with (
        seated(client, socket_path(game), table["ada"]) as ada,
        seated(client, socket_path(game), table["bob"]) as bob,
    ):
        first = ada.view(version)
        assert first["data"]["seat"] == 0 and sorted(first["data"]["cards"]) == sorted(HANDS[0])
        assert bob.view(version)["data"]["seat"] == 1
        answer = ada.send({"kind": "play", "card": "9H", "version": version}, key="socket-9h")
        assert answer["type"] == "answer" and answer["status"] == 200 and answer["key"] == "socket-9h"
        result = answer["data"]
        assert result["version"] == version + 1 and [e["type"] for e in result["events"]] == ["CardPlayed"]
        # committed before it was answered: the game reads it at once
        assert club.table({**game, "position": result["position"]})["top"] == "9H"
        pushed = bob.view(version + 1)  # the other seat's socket, pushed
        assert pushed["version"] == version + 1 and pushed["data"]["legal"]
        assert ada.view(version + 1)["data"]["legal"] == []
        # the same key over HTTP: the first answer, the same JSON, nothing done twice
        again = client.post(
            moves(game),
            json={"kind": "play", "card": "9H", "version": version},
            headers={**table["ada"], "Idempotency-Key": "socket-9h"},
        )
        assert again.status_code == 200 and again.json() == result
    assert club.table(game)["version"] == version + 1


def test_the_same_key_sent_again_answers_the_first_move_once(client, club, table):
    game, version = table["game"], table["game"]["version"]
    body = {"kind": "play", "card": "9H", "version": version}
    with seated(client, socket_path(game), table["ada"]) as ada:
        first = ada.send(body, key="twice")
        with club.unchanged():
            second = ada.send(body, key="twice")
        assert second == first and first["type"] == "answer"
        refused(
            ada.send({"kind": "draw", "version": version}, key="twice"),
            409,
            "idempotency_key_reused",
            "twice",
        )
    assert club.table(game)["version"] == version + 1


def test_each_refusal_is_the_post_s_problem_and_the_socket_stays_open(client, club, table):
    game, version = table["game"], table["game"]["version"]
    cases = [
        ({"kind": "play", "card": "9H", "version": version - 1}, 409, "stale_version"),
        ({"kind": "play", "card": "AS", "version": version}, 422, "card_not_in_hand"),
        ({"kind": "play", "card": "2C", "version": version}, 422, "card_does_not_match"),
        ({"kind": "play", "card": "ZZ", "version": version}, 400, "malformed_card"),
        ({"kind": "play", "card": "9H", "version": "three"}, 400, "malformed_request"),
        ({"kind": "play", "card": "9H", "version": 17.5}, 400, "malformed_request"),
        ({"kind": "play", "card": "9H", "version": version, "colour": "red"}, 400, "malformed_request"),
        ({"kind": "fly", "version": version}, 400, "malformed_request"),
        ({"kind": "play", "card": "9H", "version": version, "seat": 1}, 403, "not_your_seat"),
    ]
    with (
        seated(client, socket_path(game), table["ada"]) as ada,
        seated(client, socket_path(game), table["bob"]) as bob,
    ):
        for body, status, code in cases:
            with club.unchanged():
                found = refused(ada.send(body, key=f"k-{code}"), status, code, f"k-{code}")
            posted = client.post(moves(game), json=body, headers=table["ada"]).json()
            assert found == posted  # the POST's problem, word for word
            assert not {"KS", "2D", "3D", "4D"} & cards_named([found["detail"]])
        with club.unchanged():
            refused(bob.send({"kind": "play", "card": "9S", "version": version}), 422, "not_your_turn")
            for text in ("{", "[]", "null", '"move"'):
                refused(ada.raw(text), 400, "malformed_request")
            refused(ada.raw(json.dumps({"type": "move"})), 400, "malformed_request")
            refused(ada.raw(json.dumps({"type": "jump", "body": {}})), 400, "malformed_request")
            long_key = {"type": "move", "key": "k" * 201, "body": {"kind": "draw", "version": version}}
            assert (
                refused(ada.raw(json.dumps(long_key)), 400, "malformed_request")["errors"][0]["key"] == "key"
            )
        # still open: the right move is made
        assert ada.send({"kind": "play", "card": "9H", "version": version})["type"] == "answer"
        assert bob.view(version + 1)["version"] == version + 1


def test_a_wrong_version_is_refused_once_the_game_moved_on(client, club, table):
    game, version = table["game"], table["game"]["version"]
    with (
        seated(client, socket_path(game), table["ada"]) as ada,
        seated(client, socket_path(game), table["bob"]) as bob,
    ):
        assert ada.send({"kind": "play", "card": "9H", "version": version})["type"] == "answer"
        with club.unchanged():
            # Bob moves on the view before Ada's move: stale
            refused(bob.send({"kind": "play", "card": "9S", "version": version}), 409, "stale_version")
        assert bob.send({"kind": "play", "card": "9S", "version": version + 1})["type"] == "answer"


def opening_refused(
    client: TestClient[Any], path: str, headers: dict[str, str], status: int, code: str
) -> str:
    """The socket sends the problem, then closes with 4000 + its status; the close's reason."""
    with client.websocket_connect(path, headers=headers) as socket:
        first = json.loads(socket.receive_text(timeout=WAIT))
        refused(first, status, code)
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_text(timeout=WAIT)
    assert closed.value.code == 4000 + status
    reason = str(closed.value.detail)
    assert reason.startswith(f"{code}: ") and len(reason.encode()) <= 123
    return reason


def test_an_opening_without_the_right_to_the_seat_is_closed_with_its_code(client, club, table):
    game = table["game"]
    path = socket_path(game)
    with club.unchanged():
        opening_refused(client, path, {}, 401, "unauthorized")
        assert "token" in opening_refused(client, path, bearer("mm_not_a_token"), 401, "unauthorized")
        opening_refused(client, path, {"Authorization": "Basic eA=="}, 401, "unauthorized")
        opening_refused(client, path, table["stranger"], 403, "not_seated")
        opening_refused(client, socket_path(game, 1), table["ada"], 403, "not_your_seat")
        opening_refused(client, path, ADMIN, 422, "seat_required")
        opening_refused(client, socket_path(game, 2), ADMIN, 422, "not_a_seat")
        opening_refused(client, f"{path}?seat=one", ADMIN, 400, "malformed_request")
        opening_refused(client, f"{path}?seat=%C2%B2", ADMIN, 400, "malformed_request")  # a digit, not ASCII
        unknown = "/games/00000000-0000-0000-0000-0000000000ee/me/socket"
        opening_refused(client, unknown, table["ada"], 404, "game_not_found")


def test_an_official_names_the_seat_and_moves_for_it(client, club, table):
    game, version = table["game"], table["game"]["version"]
    with seated(client, socket_path(game, 0), ADMIN) as seat:
        assert seat.view(version)["data"]["seat"] == 0
        refused(seat.send({"kind": "play", "card": "9H", "version": version}), 422, "seat_required")
        answer = seat.send({"kind": "play", "card": "9H", "version": version, "seat": 0})
        assert answer["type"] == "answer" and answer["data"]["events"][0]["cause"]["role"] == "admin"


def test_a_seat_s_socket_never_carries_another_seat_s_cards(client, club):
    ada, ada_headers = club.player("Ada")
    bob, _ = club.player("Bob")
    game = club.game([ada, bob], options={"single_round": True}, seed="socket-secrecy")
    game_id = game["game_id"]
    with seated(client, socket_path(game), ada_headers) as seat:
        seat.view(game["version"])
        playing = threading.Thread(target=lambda: play_out(club.app, game_id, seed=31))
        playing.start()
        try:
            last = seat.until(lambda m: m["type"] == "view" and m["data"]["table"]["over"])
        finally:
            playing.join()
        # a refusal's words, too
        refused(seat.send({"kind": "draw", "version": 0}), 409, "stale_version")
    assert last["data"]["legal"] == [] and len(seat.texts) > 2
    assert all(
        isinstance(s["cards"], int)
        for m in map(json.loads, seat.texts)
        if m["type"] == "view"
        for s in m["data"]["table"]["seats"]
    )
    assert not cards_named(seat.texts) & unseen_cards(whole_log(client, game_id, ADMIN), 0)


def test_a_browser_s_session_opens_it_from_this_site_only(client, club, table):
    browser = TestClient(client.app, base_url="http://testserver.local")
    browser.blocking_portal = client.blocking_portal  # the app runs where its lifespan runs
    browser.follow_redirects = False
    sign_in(browser, table["ada"]["Authorization"].removeprefix("Bearer "))
    path, version = socket_path(table["game"]), table["game"]["version"]
    with seated(browser, path, {"Origin": "http://testserver.local"}) as ada:
        assert ada.view(version)["data"]["seat"] == 0
        assert ada.send({"kind": "play", "card": "9H", "version": version})["type"] == "answer"
    with club.unchanged():
        opening_refused(browser, path, {"Origin": "http://elsewhere.example"}, 403, "forbidden")
        opening_refused(browser, path, {}, 403, "forbidden")


def test_the_opening_and_each_message_have_a_log_line_and_a_count(client, club, table, caplog):
    game, version = table["game"], table["game"]["version"]
    caplog.set_level(logging.INFO, logger="maumau.http")
    answers = (("GET", "101"), ("WS", "200"), ("WS", "409"))
    labels = [{"route": ROUTE, "method": method, "status": status} for method, status in answers]
    before = scrape(client)
    with seated(client, socket_path(game), table["ada"]) as ada:
        ada.send({"kind": "play", "card": "9H", "version": version - 1})
        ada.send({"kind": "play", "card": "9H", "version": version})
    after = scrape(client)
    for each in labels:
        assert value(after, "maumau_http_requests_total", **each) == (
            value(before, "maumau_http_requests_total", **each) + 1
        ), each
    lines = [r for r in caplog.records if r.name == "maumau.http" and getattr(r, "route", None) == ROUTE]
    assert [(r.method, r.status, r.role) for r in lines] == [
        ("GET", 101, "player"),
        ("WS", 409, "player"),
        ("WS", 200, "player"),
    ]
    assert len({r.request_id for r in lines}) == 3
    assert not cards_named(str(r.__dict__) for r in lines)  # never a body


def test_a_game_the_live_fold_cannot_follow_closes_the_socket_for_the_client_to_open_anew(
    client, club, table, monkeypatch
):
    # the fault is put into the app's own live fold (its ``follow``), as ``same_deals`` puts the app's
    # entropy hook: a store that fails between the socket's check and its follow cannot be had on
    # cue; the store, the broker and the HTTP stack stay real
    def lost(*_: Any) -> None:
        raise RuntimeError("the store does not answer")

    monkeypatch.setattr(client.app.state.services.live, "follow", lost)
    opened = client.websocket_connect(socket_path(table["game"]), headers=table["ada"])
    with opened as socket, pytest.raises(WebSocketDisconnect) as closed:
        socket.receive_text(timeout=WAIT)
    assert closed.value.code == 1011 and "open the socket again" in str(closed.value.detail)
