"""Clients of a running service that play games over HTTP through a fault, and what a club checks after.

A ``Table`` is one game with people at every seat; ``drive`` plays it as its players' clients do: read
each seat's own view (``GET /games/{id}/me``), post a legal move of the seat to move with the version
it saw and an Idempotency-Key, and after a 5xx or a cut connection post the same move with the same key
again. Every answer is noted (``Answers``), every move answered 2xx is an acknowledged move.

The checks: no answer but 2xx or a clean problem+json (never a 500, never a hang past the client's
timeout), every acknowledged move exactly once in the officials' log, a retried key answers the first
result, and the read models equal the log.
"""

import contextlib
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx

from tests.e2e.club import bearer

CLIENT_TIMEOUT = 5.0  # seconds: an answer later than this is a hang
RECOVERY_WAIT = 60.0  # seconds the service has, after a fault ends, to serve every game again
RETRIES = 10  # a client posts a move with the same key this often before it reads the game again
# a player's pause between one move answered and reading the game again: several moves are still in
# flight at any moment of a fault, but the clients no longer take every core the servers need
THINK = 0.03  # seconds
PROBLEM = "application/problem+json"


@dataclass(frozen=True)
class Answer:
    what: str  # "move", "view", "ready"
    phase: str  # the fault's phase when the request was sent
    status: int  # 0: no answer (a timeout or a cut connection)
    code: str | None  # the problem+json code, if any
    detail: str


class Answers:
    """Every answer the clients got, with the phase of the fault it came in."""

    def __init__(self) -> None:
        self.phase = "before"
        self._lock = threading.Lock()
        self.all: list[Answer] = []

    def note(self, what: str, phase: str, response: httpx.Response | None, error: str = "") -> None:
        code = None
        if response is not None and response.headers.get("content-type", "").startswith(PROBLEM):
            with contextlib.suppress(ValueError):  # a problem+json that is not JSON stays without a code
                code = response.json().get("code")
        answer = Answer(
            what,
            phase,
            0 if response is None else response.status_code,
            code,
            error or ("" if response is None or response.status_code < 300 else response.text[:300]),
        )
        with self._lock:
            self.all.append(answer)

    def summary(self, answers: Iterable[Answer] | None = None) -> dict[tuple[str, str, int, str | None], int]:
        """How many answers of each (what, phase, status, code): the failure's message."""
        counts: dict[tuple[str, str, int, str | None], int] = {}
        for a in self.all if answers is None else answers:
            counts[(a.what, a.phase, a.status, a.code)] = (
                counts.get((a.what, a.phase, a.status, a.code), 0) + 1
            )
        return counts

    def assert_clean(self, allowed: Callable[[Answer], bool] = lambda _: False) -> None:
        """No unclean answer (``unclean``); else what they were, counted, and the first few."""
        found = self.unclean(allowed)
        assert not found, f"unclean answers {self.summary(found)}; the first: {found[:3]}"

    def unclean(self, allowed: Callable[[Answer], bool] = lambda _: False) -> list[Answer]:
        """The answers that are neither 2xx nor a problem+json of a stable code below 500 or a 503
        ``unavailable`` / ``not_ready`` (a 500 is a fault of the service; no answer is a hang),
        less those ``allowed``."""
        return [
            answer
            for answer in list(self.all)
            if not (answer.status and answer.status < 300)
            and not (answer.code and (answer.status < 500 or answer.code in ("unavailable", "not_ready")))
            and not allowed(answer)
        ]


@dataclass
class Acknowledged:
    table: "Table"
    key: str
    body: dict[str, Any]
    headers: dict[str, str]
    result: dict[str, Any]


@dataclass
class Table:
    game_id: str
    seats: list[dict[str, str]]  # each seat's authorization header
    position: int = 0
    acknowledged: list[Acknowledged] = field(default_factory=list)


class Club:
    """An admin's shortcuts over a real server."""

    def __init__(self, base: str, admin_token: str) -> None:
        self.token = admin_token
        self.http = httpx.Client(base_url=base, headers=bearer(admin_token), timeout=CLIENT_TIMEOUT * 2)

    def ok(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.http.request(method, path, **kwargs)
        assert response.status_code < 300, (method, path, response.status_code, response.text)
        return response.json()

    def players(self, count: int) -> list[tuple[str, dict[str, str]]]:
        made = [self.ok("POST", "/players", json={"name": f"Player {n}"}) for n in range(count)]
        return [(m["player"]["player_id"], bearer(m["token"]["token"])) for m in made]

    def tables(self, count: int, seats: int = 2, league: bool = True, bots: int = 0) -> list[Table]:
        """``count`` games of ``seats`` people (moved by the test's clients) and ``bots`` bots (moved by
        the workers)."""
        people = self.players(count * seats)
        body: dict[str, Any] = {}
        if league:
            # the longest match a league allows (to 1000 points): it outlasts the moves a test makes, so
            # every table can always move
            league = {"name": "Fault club", "options": {"target_score": 1000}}
            league_id = self.ok("POST", "/leagues", json=league)["league_id"]
            for player_id, _ in people:
                self.ok("POST", f"/leagues/{league_id}/members", json={"player_id": player_id})
            body["league_id"] = league_id
        made = []
        for number in range(count):
            sitting = people[number * seats : (number + 1) * seats]
            chairs = [p for p, _ in sitting] + ["bot:random"] * bots
            created = self.ok("POST", "/games", json={"seats": chairs, **body})
            made.append(Table(created["game_id"], [h for _, h in sitting], created["position"]))
        return made

    def bot_tournament(self, places: int = 8) -> str:
        """An all-bot Swiss tournament due now: the beat's next tick starts it, the workers play it."""
        league_id = self.ok("POST", "/leagues", json={"name": "Bot club"})["league_id"]
        plan = {"format": "swiss", "table_size": 4, "rounds": 2, "single_round": True, "places": places}
        created = self.ok(
            "POST",
            f"/leagues/{league_id}/tournaments",
            json={"name": "Fault cup", **plan, "starts_at": datetime.now(UTC).isoformat()},
        )
        return created["tournament_id"]

    def wait_until_finished(self, tournament_id: str) -> dict[str, Any]:
        """The tournament's bracket once it is finished, within ``RECOVERY_WAIT`` seconds."""
        deadline = time.monotonic() + RECOVERY_WAIT
        found: Any = None
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.TransportError):
                response = self.http.get(f"/tournaments/{tournament_id}")
                found = response.json() if response.status_code == 200 else response.text
                if response.status_code == 200 and found["status"] == "finished":
                    return found
            time.sleep(0.2)
        raise AssertionError(f"the tournament did not finish within {RECOVERY_WAIT:.0f} s: {found}")

    def close(self) -> None:
        self.http.close()


def to_move(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [move for move in view["legal"] if move["kind"] != "challenge"]


def drive(
    bases: list[str], table: Table, answers: Answers, stop: threading.Event, seed: int, deadline: float
) -> None:
    """Play ``table`` until ``stop`` is set or the deadline passes, through the API processes in turns."""
    rng = random.Random(seed)
    clients = [httpx.Client(base_url=base, timeout=CLIENT_TIMEOUT) for base in bases]
    turn = 0
    try:
        while not stop.is_set() and time.monotonic() < deadline:
            turn += 1
            http = clients[turn % len(clients)]
            found = _mover(http, table, answers)
            if found is None:
                time.sleep(0.1)
                continue
            headers, view = found
            moves = to_move(view)
            body = {**rng.choice(moves), "version": view["table"]["version"]}
            _post_until_answered(http, table, body, headers, answers, stop, deadline)
            stop.wait(THINK)
    finally:
        for client in clients:
            client.close()


def _mover(
    http: httpx.Client, table: Table, answers: Answers
) -> tuple[dict[str, str], dict[str, Any]] | None:
    """The seat to move and its view, or None when no view could be read."""
    for headers in table.seats:
        phase = answers.phase
        try:
            response = http.get(
                f"/games/{table.game_id}/me", params={"after": table.position}, headers=headers
            )
        except httpx.TransportError as error:
            answers.note("view", phase, None, repr(error))
            return None
        answers.note("view", phase, response)
        if response.status_code != 200:
            return None
        view = response.json()
        if view["table"].get("over"):
            return None
        if to_move(view):
            return headers, view
    return None


def _post_until_answered(
    http: httpx.Client,
    table: Table,
    body: dict[str, Any],
    headers: dict[str, str],
    answers: Answers,
    stop: threading.Event,
    deadline: float,
) -> None:
    """Post the move; after a 5xx or no answer, the same move with the same key, as a client retries."""
    key = uuid.uuid4().hex
    keyed = {**headers, "Idempotency-Key": key}
    for _ in range(RETRIES):
        if stop.is_set() or time.monotonic() > deadline:
            return
        phase = answers.phase
        try:
            response = http.post(f"/games/{table.game_id}/moves", json=body, headers=keyed)
        except httpx.TransportError as error:
            answers.note("move", phase, None, repr(error))
            time.sleep(0.2)
            continue
        answers.note("move", phase, response)
        if response.status_code < 300:
            result = response.json()
            table.acknowledged.append(Acknowledged(table, key, body, keyed, result))
            table.position = max(table.position, result["position"])
            return
        if response.status_code < 500:
            return  # refused: nothing stored, read the view again
        time.sleep(0.2)


def moves_after(tables: Iterable[Table], marks: dict[str, int]) -> dict[str, int]:
    """How many moves each table had acknowledged since ``marks`` (game id -> count then)."""
    return {t.game_id: len(t.acknowledged) - marks[t.game_id] for t in tables}


def wait_until_every_table_moves(
    tables: list[Table], answers: Answers, moves: int = 3, base: str | None = None
) -> None:
    """Every table has ``moves`` more acknowledged moves within ``RECOVERY_WAIT`` seconds (``base``: an
    API process to ask what the stuck tables look like, for the failure's message)."""
    marks = {t.game_id: len(t.acknowledged) for t in tables}
    deadline = time.monotonic() + RECOVERY_WAIT
    while time.monotonic() < deadline:
        if all(count >= moves for count in moves_after(tables, marks).values()):
            return
        time.sleep(0.2)
    stuck = [game for game, count in moves_after(tables, marks).items() if count < moves]
    last = [a for a in answers.all[-2000:] if a.status >= 300 or a.status == 0][-10:]
    shown = {}
    if base is not None:
        for game_id in stuck:
            with contextlib.suppress(httpx.HTTPError, ValueError):
                table = httpx.get(f"{base}/games/{game_id}", timeout=CLIENT_TIMEOUT).json()
                keys = ("version", "turn", "phase", "over", "paused")
                shown[game_id] = {key: table.get(key) for key in keys} | {
                    "seats": [seat.get("kind") for seat in table.get("seats", [])]
                }
    raise AssertionError(
        f"{len(stuck)} of {len(tables)} games accepted no {moves} moves in the {RECOVERY_WAIT:.0f} s after "
        f"the fault: {shown or stuck}; the last refusals: {last}"
    )


def whole_log(http: httpx.Client, game_id: str) -> list[dict[str, Any]]:
    """Every event of the game as an official sees it (with each command's idempotency key)."""
    events: list[dict[str, Any]] = []
    page: str | None = f"/games/{game_id}/events?limit=1000"
    while page:
        response = http.get(page)
        assert response.status_code == 200, response.text
        events += response.json()["events"]
        page = response.json()["next"]
    return events


def assert_each_acknowledged_move_stored_once(admin: httpx.Client, tables: list[Table]) -> None:
    """The officials' log holds every acknowledged move's events, each command exactly once, and a
    retry of an acknowledged key now answers its first result."""
    for table in tables:
        log = whole_log(admin, table.game_id)
        assert [e["number"] for e in log] == list(range(1, len(log) + 1))
        by_number = {e["number"]: e for e in log}
        keys = [e["cause"]["key"] for e in log if e.get("cause") and e["cause"].get("key")]
        for ack in table.acknowledged:
            stored = [k for k in keys if k.endswith(":" + ack.key)]
            assert len(stored) == 1, (table.game_id, ack.key, len(stored))
            for event in ack.result["events"]:
                assert by_number[event["number"]]["type"] == event["type"], (table.game_id, event)
        doubled = {k for k in keys if keys.count(k) > 1}
        assert not doubled, (table.game_id, doubled)
        if table.acknowledged:  # the same move with the same key again: the first result, nothing stored
            last = table.acknowledged[-1]
            again = admin.post(f"/games/{table.game_id}/moves", json=last.body, headers=last.headers)
            assert again.status_code == 200, again.text
            assert again.json()["version"] == last.result["version"]
            assert [e["number"] for e in again.json()["events"]] == [
                e["number"] for e in last.result["events"]
            ]
            # nothing more stored by the retry; a bot's answer to the last move may land meanwhile
            after = whole_log(admin, table.game_id)
            assert after[: len(log)] == log
            later_keys = [(e.get("cause") or {}).get("key") or "" for e in after[len(log) :]]
            resent = [key for key in later_keys if key.endswith(":" + last.key)]
            assert resent == [], (table.game_id, resent)


def assert_read_models_equal_the_log(bases: list[str], admin_token: str, tables: list[Table]) -> None:
    """Once ready, each API process's public table of each game is at the log's last event, and the
    standings read alike from every API process."""
    http = [
        httpx.Client(base_url=base, headers=bearer(admin_token), timeout=CLIENT_TIMEOUT * 2) for base in bases
    ]
    try:
        head = wait_ready(bases)
        for table in tables:
            # a bot's move redelivered after the fault may land between reading the log and the views:
            # then read both again, until the game rests (a bot table does at its person's turn)
            deadline = time.monotonic() + RECOVERY_WAIT
            while True:
                last = whole_log(http[0], table.game_id)[-1]["number"]
                versions = []
                for client in http:
                    shown = client.get(f"/games/{table.game_id}", params={"after": head})
                    assert shown.status_code == 200, shown.text
                    versions.append(shown.json()["version"])
                if all(version == last for version in versions):
                    break
                assert time.monotonic() < deadline, ("views != log", table.game_id, versions, last)
                head = wait_ready(bases)  # a position past the move that came between
        tables_shown = [http[0].get(f"/games/{t.game_id}", params={"after": head}).json() for t in tables]
        leagues = {shown["league_id"] for shown in tables_shown} - {None}
        for league_id in leagues:
            standings = [
                c.get(f"/leagues/{league_id}/standings", params={"after": head}).json() for c in http
            ]
            assert all(s == standings[0] for s in standings), standings
    finally:
        for client in http:
            client.close()


def wait_ready(bases: list[str]) -> int:
    """Every API process answers ``/ready`` with 200 within ``RECOVERY_WAIT``; the log position it gives."""
    deadline = time.monotonic() + RECOVERY_WAIT
    last: Any = None
    while time.monotonic() < deadline:
        positions = []
        for base in bases:
            try:
                response = httpx.get(f"{base}/ready", timeout=CLIENT_TIMEOUT)
            except httpx.TransportError as error:
                last = repr(error)
                break
            if response.status_code != 200:
                last = response.text
                break
            positions.append(response.json()["log_position"])
        else:
            return max(positions)
        time.sleep(0.2)
    raise AssertionError(f"the API processes were not ready {RECOVERY_WAIT:.0f} s after the fault: {last}")


def poll_ready(bases: list[str], answers: Answers, stop: threading.Event) -> None:
    """``/ready`` of every API process, over and over, as a load balancer asks it."""
    with httpx.Client(timeout=CLIENT_TIMEOUT) as http:
        while not stop.is_set():
            for base in bases:
                phase = answers.phase
                try:
                    answers.note("ready", phase, http.get(f"{base}/ready"))
                except httpx.TransportError as error:
                    answers.note("ready", phase, None, repr(error))
            stop.wait(0.3)
