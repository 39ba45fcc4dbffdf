"""Request ids and the request log: one line per request, its id on every response and log line."""

import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest

from service.observability.logs import JsonFormatter, TextFormatter
from tests.e2e.club import ADMIN, Club, cards_named, problem

GENERATED = re.compile(r"[0-9a-f]{32}")


class Lines(logging.Handler):
    """Formats each record as it is emitted: in the thread that logs it, with its request id."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[dict[str, Any]] = []
        self.setFormatter(JsonFormatter())

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))


@pytest.fixture
def logged() -> Iterator[Lines]:
    handler = Lines()
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)  # as the app configures it, whatever a test before set
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def requests_logged(lines: Lines, request_id: str) -> list[dict[str, Any]]:
    return [
        line for line in lines.lines if line["logger"] == "maumau.http" and line["request_id"] == request_id
    ]


def test_every_response_has_a_request_id_refusals_and_unknown_paths_included(client):
    responses = [
        client.get("/health"),
        client.get("/no/such/path"),
        client.post("/players", json={"name": "Ada"}),
        client.post("/players", content=b"{not json", headers=ADMIN),
        client.get("/ready", headers={"Authorization": "Bearer mm_not_a_token"}),
    ]
    assert [response.status_code for response in responses] == [200, 404, 401, 400, 401]
    problem(responses[1], 404, "not_found")
    ids = [response.headers["x-request-id"] for response in responses]
    assert all(GENERATED.fullmatch(found) for found in ids)
    assert len(set(ids)) == len(ids)


def test_the_clients_request_id_comes_back_and_is_in_the_log_line(client, logged):
    response = client.get("/health", headers={"X-Request-ID": "trace-7f3a.1"})
    assert response.headers["x-request-id"] == "trace-7f3a.1"
    (line,) = requests_logged(logged, "trace-7f3a.1")
    assert (line["method"], line["route"], line["status"]) == ("GET", "/health", 200)


def test_a_request_id_that_could_forge_a_log_line_is_replaced(client, logged):
    response = client.get("/health", headers={"X-Request-ID": 'x", "level": "ERROR'})
    replaced = response.headers["x-request-id"]
    assert GENERATED.fullmatch(replaced)
    assert len(requests_logged(logged, replaced)) == 1


def test_one_line_per_request_with_its_route_status_time_and_role_never_its_token_or_cards(
    client, club: Club, logged
):
    ada, ada_headers = club.player("Ada")
    bob, _ = club.player("Bob")
    game = club.game([ada, bob])
    token = ada_headers["Authorization"].split(" ", 1)[1]
    response = client.get(f"/games/{game['game_id']}/me?after={game['position']}", headers=ada_headers)
    assert response.status_code == 200 and response.json()["cards"]
    request_id = response.headers["x-request-id"]
    (line,) = requests_logged(logged, request_id)
    assert line["message"] == "request" and line["level"] == "INFO"
    assert (line["method"], line["route"], line["status"], line["role"]) == (
        "GET",
        "/games/{game_id}/me",
        200,
        "player",
    )
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    written = [json.dumps(entry) for entry in logged.lines]
    written += [TextFormatter().format(logging.makeLogRecord(entry)) for entry in logged.lines]
    assert not any(token in text or token.split("_", 2)[2] in text for text in written)
    assert cards_named(written) == set()
    assert not any(game["game_id"] in text for text in written if "maumau.http" in text)


def test_an_anonymous_request_and_a_refused_one_are_logged_with_their_status(client, logged):
    refused = client.post("/players", json={"name": "Ada"})
    (line,) = requests_logged(logged, refused.headers["x-request-id"])
    assert (line["route"], line["status"], line["role"]) == ("/players", 401, "anonymous")
    unknown = client.get("/no/such/path")
    (line,) = requests_logged(logged, unknown.headers["x-request-id"])
    assert (line["route"], line["status"]) == ("unmatched", 404)


def test_what_a_handler_logs_in_its_thread_carries_the_requests_id(tmp_path, logged):
    """The readiness check logs why it failed, from the thread pool: the line has the request's id."""
    from litestar.testing import TestClient

    from service.app import create_app
    from service.settings import Settings

    settings = Settings(data_dir=tmp_path / "var", broker_url="redis://127.0.0.1:1/0")
    with TestClient(create_app(settings)) as own:
        response = own.get("/ready", headers={"X-Request-ID": "ready-check-1"})
    assert response.status_code == 503
    why = [line for line in logged.lines if line["logger"] == "service.observability.readiness"]
    assert why and all(line["request_id"] == "ready-check-1" for line in why)
