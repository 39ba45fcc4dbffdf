"""Webhooks end to end: events made through the HTTP API, deliveries sent by a real Celery worker
(``maumau worker``, its beat's tick queueing them) over the real Redis broker, to a real HTTP
receiver the test starts on 127.0.0.1.

The API (litestar's TestClient) runs the projection, which makes the deliveries; a worker and a
beat run as processes of their own, on the test's PostgreSQL schema and Redis key prefix. Retries
back off from 0.3 s, so a receiver that fails twice takes about a second to recover.
"""

import json
import re
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient

from service.app import create_app
from tests.e2e.club import ADMIN, Club, bearer
from tests.e2e.test_embedded import FAST, admin_token, free_port, serving
from tests.e2e.test_tournament_run import Stack, worker_stack
from tests.receiver import Receiver, receiving
from tests.secrecy import card_lists
from workers.webhooks import REPLAY_WINDOW, SIGNATURE_HEADER, verify

BACKOFF = 0.3
WORKER_ENV = {
    "MAUMAU_WEBHOOK_RETRIES": "2",
    "MAUMAU_WEBHOOK_BACKOFF": str(BACKOFF),
    "MAUMAU_WEBHOOK_TIMEOUT": "2",
    "MAUMAU_WEBHOOK_DISABLE_AFTER": "2",
    "MAUMAU_STALLED_AFTER": "5",
}
CARD = re.compile(r"\b(?:10|[2-9JQKA])[CDHS]\b")
ALL_BUT_TURNS = ["table_ready", "dispute_raised", "ruling_given", "round_started", "tournament_finished"]


class Running:
    def __init__(self, client: TestClient[Any], stack: Stack) -> None:
        self.client = client
        self.club = Club(client)
        self.stack = stack

    def hook(self, league: str, url: str, events: list[str], players: list[str] = ()) -> tuple[str, str]:  # type: ignore[assignment]
        made = self.club.ok(
            "POST",
            f"/leagues/{league}/webhooks",
            json={"url": url, "events": events, "players": list(players)},
        )
        return made["webhook"]["webhook_id"], made["secret"]

    def league_with(self, members: int) -> tuple[str, list[str]]:
        players = [self.club.player()[0] for _ in range(members)]
        return self.club.league(members=players), players

    def deliveries(self, hook: str) -> list[dict[str, Any]]:
        return self.club.ok("GET", f"/webhooks/{hook}/deliveries")["deliveries"]

    def wait_for(self, what: str, done: Any, timeout: float = 90.0) -> None:
        self.stack.wait_for(what, done, timeout)


@pytest.fixture
def running(database_url: str, broker_url: str, tmp_path: Path) -> Iterator[Running]:
    with (
        worker_stack(database_url, broker_url, tmp_path, "hooks", WORKER_ENV) as (settings, stack),
        TestClient(create_app(settings)) as client,
    ):
        stack.start_worker()
        stack.start("beat", "workers.cli", "beat", "--loglevel", "INFO")
        yield Running(client, stack)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving() as found:
        yield found


def assert_public(bodies: list[bytes]) -> None:
    """No payload names a card: not as a text, not in any list of texts (``tests.secrecy``)."""
    for body in bodies:
        assert CARD.findall(body.decode()) == []
        assert [
            found for found in card_lists(json.loads(body)) if any(CARD.fullmatch(t) for t in found)
        ] == []


def test_every_event_kind_reaches_the_receiver_signed_with_a_fresh_timestamp_and_no_card(running, receiver):
    league, (ann,) = running.league_with(1)
    hook, secret = running.hook(league, receiver.url, ALL_BUT_TURNS)
    turns, turn_secret = running.hook(league, receiver.url, ["turn"], [ann])
    plan = {
        "name": "Hook cup",
        "format": "swiss",
        "table_size": 2,
        "rounds": 1,
        "places": 4,
        "single_round": True,
    }
    tournament = running.club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    running.club.ok("POST", f"/tournaments/{tournament}/start")
    game = running.club.game([ann, "bot:heuristic"], league_id=league)["game_id"]
    receiver.wait_for(lambda: receiver.taken("turn"), "turn notice for ann")
    running.club.ok("POST", f"/games/{game}/disputes", json={"reason": "she held 10H"})
    running.club.ok("POST", f"/games/{game}/rulings", json={"kind": "penalty", "seat": 1, "cards": 2})

    kinds = {
        "table_ready": 2,
        "round_started": 1,
        "tournament_finished": 1,
        "dispute_raised": 1,
        "ruling_given": 1,
    }
    receiver.wait_for(
        lambda: all(len(receiver.taken(kind)) >= count for kind, count in kinds.items()), "every event kind"
    )
    secrets = {hook: secret, turns: turn_secret}
    for received in receiver.taken():
        body = received.json
        signed_by = turns if body["event"] == "turn" else hook
        header = received.headers[SIGNATURE_HEADER]
        assert verify(secrets[signed_by], received.body, header, time.time())
        assert not verify(secrets[signed_by], received.body + b" ", header, time.time())
        assert not verify(secrets[signed_by], received.body, header, time.time() + REPLAY_WINDOW + 60)
        assert (
            received.headers["Maumau-Delivery"] == body["id"]
            and received.headers["Maumau-Event"] == body["event"]
        )
    assert {kind: len(receiver.taken(kind)) for kind in kinds} == kinds  # each once
    turn = receiver.taken("turn")[0].json["data"]
    assert turn["game_id"] == game and turn["player_id"] == ann and turn["seat"] == 0
    ruling = receiver.taken("ruling_given")[0].json["data"]
    assert ruling == ruling | {"game_id": game, "ruling": "penalty", "seat": 1, "cards": 2}
    dispute = receiver.taken("dispute_raised")[0].json["data"]
    assert "reason" not in dispute  # a free text could name a card (this one does)
    finished = receiver.taken("tournament_finished")[0].json["data"]
    assert finished["tournament_id"] == tournament and len(finished["ranking"]) == 4
    ready = receiver.taken("table_ready")
    assert {table.json["data"]["table"] for table in ready} == {0, 1}
    assert_public([received.body for received in receiver.received])
    # the worker marks a delivery delivered once the receiver's answer is back: a moment after it got it
    running.wait_for(
        "every delivery marked delivered",
        lambda: {d["status"] for d in running.deliveries(hook)} == {"delivered"},
    )
    listed = running.deliveries(hook)
    assert len(listed) == sum(kinds.values()) and {d["status"] for d in listed} == {"delivered"}


def test_a_receiver_that_fails_then_recovers_gets_the_delivery_after_retries_each_try_logged(
    running, receiver
):
    league, (ann, bob) = running.league_with(2)
    hook, _ = running.hook(league, receiver.url, ["dispute_raised"])
    game = running.club.game([ann, bob], league_id=league)["game_id"]
    receiver.answers = [500, 502]
    running.club.ok("POST", f"/games/{game}/disputes", json={})

    receiver.wait_for(lambda: receiver.taken("dispute_raised"), "the delivery, at the third try")
    running.wait_for("its three tries listed", lambda: running.deliveries(hook)[0]["status"] == "delivered")
    (delivery,) = running.deliveries(hook)
    assert [(a["number"], a["status_code"]) for a in delivery["attempts"]] == [(1, 500), (2, 502), (3, 200)]
    assert delivery["attempts"][0]["error"] == "the receiver answered 500"
    assert [r.answered for r in receiver.received] == [500, 502, 200]
    assert len({r.body for r in receiver.received}) == 1
    # the back-off: a retry waits at least its pause (0.3 s, then 0.6 s) after the try before
    first, second, third = (datetime.fromisoformat(a["at"]) for a in delivery["attempts"])
    assert (second - first).total_seconds() >= BACKOFF and (third - second).total_seconds() >= 2 * BACKOFF
    assert running.club.ok("GET", f"/webhooks/{hook}")["enabled"]


def test_a_receiver_that_always_fails_gets_its_hook_disabled_with_a_reason_and_a_resend_delivers_later(
    running, receiver
):
    league, (ann, bob) = running.league_with(2)
    hook, _ = running.hook(league, receiver.url, ["dispute_raised", "ruling_given"])
    game = running.club.game([ann, bob], league_id=league)["game_id"]
    receiver.then = 503
    running.club.ok("POST", f"/games/{game}/disputes", json={})
    running.club.ok("POST", f"/games/{game}/rulings", json={"kind": "resume"})

    running.wait_for("the hook disabled", lambda: not running.club.ok("GET", f"/webhooks/{hook}")["enabled"])
    found = running.club.ok("GET", f"/webhooks/{hook}")
    assert found["disabled_reason"].startswith("its last 2 deliveries failed")
    assert "503" in found["disabled_reason"]
    deliveries = running.deliveries(hook)
    assert {d["status"] for d in deliveries} == {"failed"}
    assert all(len(d["attempts"]) == 3 for d in deliveries)  # the first try and two retries

    receiver.then = 200
    failed = deliveries[0]["delivery_id"]
    with running.club.unchanged():
        refused = running.client.post(f"/webhooks/{hook}/deliveries/{failed}/resend", headers=ADMIN)
    assert (refused.status_code, refused.json()["code"]) == (409, "webhook_disabled")
    assert running.club.ok("POST", f"/webhooks/{hook}/enable")["enabled"]
    resent = running.client.post(f"/webhooks/{hook}/deliveries/{failed}/resend", headers=ADMIN)
    assert resent.status_code == 202 and resent.json()["status"] == "pending"
    running.wait_for(
        "the resent delivery delivered",
        lambda: (
            next(d for d in running.deliveries(hook) if d["delivery_id"] == failed)["status"] == "delivered"
        ),
    )
    again = next(d for d in running.deliveries(hook) if d["delivery_id"] == failed)
    assert [a["status_code"] for a in again["attempts"]] == [503, 503, 503, 200]
    assert len(receiver.taken()) == 1 and receiver.taken()[0].json["id"] == failed


def test_the_embedded_serve_sends_deliveries_with_its_own_worker_and_beat(tmp_path, receiver):
    port = free_port()
    with serving(tmp_path / "var", port, env=FAST) as (_, lines):
        base, admin = f"http://127.0.0.1:{port}", bearer(admin_token(lines))

        def ok(method: str, path: str, body: dict[str, Any] | None = None) -> Any:
            answer = httpx.request(method, f"{base}{path}", json=body, headers=admin)
            assert answer.status_code < 300, answer.text
            return answer.json()

        ann = ok("POST", "/players", {"name": "Ann"})["player"]["player_id"]
        league = ok("POST", "/leagues", {"name": "Embedded club"})["league_id"]
        ok("POST", f"/leagues/{league}/members", {"player_id": ann})
        made = ok(
            "POST", f"/leagues/{league}/webhooks", {"url": receiver.url, "events": ["turn"], "players": [ann]}
        )
        ok("POST", "/games", {"seats": [ann, "bot:heuristic"], "league_id": league})
        receiver.wait_for(
            lambda: receiver.taken("turn"), "ann's turn, sent by the embedded worker", timeout=45
        )
        (told,) = receiver.taken("turn")[:1]
        assert verify(made["secret"], told.body, told.headers[SIGNATURE_HEADER], time.time())
        assert told.json["data"]["player_id"] == ann
