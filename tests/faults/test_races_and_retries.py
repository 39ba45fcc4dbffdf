"""Racing moves over HTTP and idempotent retries after a cut connection, in the distributed mode (two
API processes, each with its own game cache, on a throwaway PostgreSQL and Redis).

Many clients post a move at one version at once, through both API processes: exactly one is stored,
the others are refused with a clean 409/422, never a 500. A client whose connection is cut before the
answer retries with the same Idempotency-Key, through either API process: it gets the first result,
and the move is stored once.
"""

import random
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import msgspec
import pytest

from tests.e2e.test_distributed import ADMIN_TOKEN, start_service
from tests.faults.distributed import admin_club, throwaway_service
from tests.faults.driving import (
    CLIENT_TIMEOUT,
    Acknowledged,
    Club,
    Table,
    assert_each_acknowledged_move_stored_once,
    assert_read_models_equal_the_log,
    to_move,
    whole_log,
)


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    """One service for both tests (each plays its own game): its start is most of their time."""
    with throwaway_service(tmp_path_factory.mktemp("races") / "logs") as service:
        yield start_service(service.processes, apis=2, workers=1)


@dataclass
class Game:
    club: Club
    table: Table
    clients: list[httpx.Client]  # one per API process


@pytest.fixture
def game(bases: list[str]) -> Iterator[Game]:
    """A new game of two people, and a client for each API process."""
    club = admin_club(bases[0])
    (table,) = club.tables(1)
    clients = [httpx.Client(base_url=base, timeout=CLIENT_TIMEOUT) for base in bases]
    yield Game(club, table, clients)


RACERS = 8  # clients posting at one version at once
ROUNDS = 12  # races, and cut connections, per test


def mover(clients: list[httpx.Client], table: Table) -> tuple[dict[str, str], dict[str, Any]]:
    for headers in table.seats:
        view = clients[0].get(f"/games/{table.game_id}/me", params={"after": table.position}, headers=headers)
        assert view.status_code == 200, view.text
        if to_move(view.json()):
            return headers, view.json()
    raise AssertionError(f"nobody is to move at {table.game_id}")


def race(clients: list[httpx.Client], table: Table, rng: random.Random) -> list[httpx.Response]:
    """``RACERS`` clients post moves of the seat to move at the version it saw, all at once."""
    headers, view = mover(clients, table)
    version = view["table"]["version"]
    start = threading.Barrier(RACERS)
    answers: list[Any] = [None] * RACERS

    def post(number: int) -> None:
        body = {**rng.choice(to_move(view)), "version": version}
        keyed = {**headers, "Idempotency-Key": uuid.uuid4().hex}
        start.wait(timeout=10)
        try:
            answers[number] = clients[number % len(clients)].post(
                f"/games/{table.game_id}/moves", json=body, headers=keyed
            )
        except httpx.TransportError as error:
            answers[number] = error

    threads = [threading.Thread(target=post, args=(n,)) for n in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=CLIENT_TIMEOUT * 3)
    return answers


def test_many_clients_racing_at_one_version_store_exactly_one_move(bases, game):
    club, table, clients = game.club, game.table, game.clients
    rng = random.Random(7)
    for _ in range(ROUNDS):
        before = len(whole_log(club.http, table.game_id))
        answers = race(clients, table, rng)
        assert all(isinstance(a, httpx.Response) for a in answers), answers  # no hang, no cut
        won = [a for a in answers if a.status_code == 200]
        assert len(won) == 1, [(a.status_code, a.text[:200]) for a in answers]
        for lost in answers:
            if lost.status_code != 200:
                assert lost.status_code in (409, 422), lost.text
                assert lost.headers["content-type"].startswith("application/problem+json")
        stored = whole_log(club.http, table.game_id)
        assert len(stored) == before + len(won[0].json()["events"])
        table.position = won[0].json()["position"]
    assert_read_models_equal_the_log(bases, ADMIN_TOKEN, [table])


def cut_post(base: str, path: str, body: dict[str, Any], headers: dict[str, str], wait: float) -> None:
    """The request sent in full, then the connection closed ``wait`` seconds later, before the answer
    is read (a phone going into a tunnel)."""
    host, port = base.removeprefix("http://").split(":")
    payload = msgspec.json.encode(body)
    head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    request = (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\n{head}\r\n"
    ).encode() + payload
    with socket.create_connection((host, int(port)), timeout=CLIENT_TIMEOUT) as conn:
        conn.sendall(request)
        time.sleep(wait)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # RST


def test_a_move_whose_connection_is_cut_is_retried_with_its_key_and_stored_once(bases, game):
    club, table, clients = game.club, game.table, game.clients
    rng = random.Random(11)
    for number in range(ROUNDS):
        headers, view = mover(clients, table)
        body = {**rng.choice(to_move(view)), "version": view["table"]["version"]}
        keyed = {**headers, "Idempotency-Key": uuid.uuid4().hex}
        path = f"/games/{table.game_id}/moves"
        cut_post(bases[number % 2], path, body, keyed, wait=rng.choice([0.0, 0.005, 0.05]))
        retried = retry(clients[(number + 1) % 2], path, body, keyed)
        assert retried.status_code == 200, retried.text
        again = clients[number % 2].post(path, json=body, headers=keyed)
        assert again.status_code == 200, again.text
        assert again.json()["version"] == retried.json()["version"]
        assert again.json()["events"] == retried.json()["events"]
        table.acknowledged.append(Acknowledged(table, keyed["Idempotency-Key"], body, keyed, retried.json()))
        table.position = retried.json()["position"]
    assert_each_acknowledged_move_stored_once(club.http, [table])
    assert_read_models_equal_the_log(bases, ADMIN_TOKEN, [table])


def retry(client: httpx.Client, path: str, body: dict[str, Any], headers: dict[str, str]) -> httpx.Response:
    """The client's retry: at once; once more a moment later if the cut request was still being
    stored when the retry came (then the key's first result is the answer)."""
    answer = client.post(path, json=body, headers=headers)
    if answer.status_code == 409:
        time.sleep(0.5)
        answer = client.post(path, json=body, headers=headers)
    return answer
