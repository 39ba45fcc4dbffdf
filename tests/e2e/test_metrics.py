"""GET /metrics: requests by route template, moves by kind and outcome, events appended, the lag.

The counters belong to the test process, which other tests use too: every
check compares a scrape before with one after.
"""

import socket
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient
from prometheus_client.parser import text_string_to_metric_families

from service.observability import metrics
from tests.e2e.club import Club
from tests.integration.tables import deck_for

HANDS = {0: ["9H", "KH", "2C", "3C", "4C"], 1: ["9S", "KS", "2D", "3D", "4D"]}

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def parse(text: str) -> Samples:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def scrape(client: TestClient[Any]) -> Samples:
    response = client.get("/metrics")
    assert response.status_code == 200, response.text
    return parse(response.text)


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


@pytest.fixture
def table(club: Club) -> dict[str, Any]:
    """A game of Ada (seat 0, to move first) and Bob, people only: nothing moves unless they do."""
    ada, ada_headers = club.player("Ada")
    bob, bob_headers = club.player("Bob")
    game = club.game([ada, bob], deck=deck_for(HANDS, starter="5H", seats=2, dealer=1), first_dealer=1)
    return {"game": game, "ada": ada_headers, "bob": bob_headers}


def test_the_metrics_are_prometheus_text_and_not_part_of_the_openapi_document(client):
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=")
    assert response.headers["content-type"].count("charset") == 1
    for family in ("maumau_http_requests", "maumau_moves", "maumau_events_appended", "maumau_task_runs"):
        assert f"# TYPE {family}_total counter" in response.text
    assert "# TYPE maumau_projection_lag_events gauge" in response.text
    assert "/metrics" not in client.get("/schema/openapi.json").json()["paths"]


def test_a_request_is_counted_by_its_route_template_and_never_by_its_raw_path(client, club, table):
    game_id, position = table["game"]["game_id"], table["game"]["position"]
    before = scrape(client)
    assert client.get(f"/games/{game_id}?after={position}").status_code == 200
    assert client.get(f"/games/{game_id}/nothing-here").status_code == 404
    after_text = client.get("/metrics").text
    after = parse(after_text)
    route = {"route": "/games/{game_id}", "method": "GET", "status": "200"}
    assert (
        value(after, "maumau_http_requests_total", **route)
        == value(before, "maumau_http_requests_total", **route) + 1
    )
    unmatched = {"route": "unmatched", "method": "GET", "status": "404"}
    assert value(after, "maumau_http_requests_total", **unmatched) >= 1
    seconds = {"route": "/games/{game_id}", "method": "GET"}
    assert value(after, "maumau_http_request_duration_seconds_count", **seconds) == (
        value(before, "maumau_http_request_duration_seconds_count", **seconds) + 1
    )
    assert game_id not in after_text and "nothing-here" not in after_text


def test_moves_are_counted_by_kind_and_outcome_and_the_events_a_save_stored(client, table):
    game, ada, bob = table["game"], table["ada"], table["bob"]
    moves = f"/games/{game['game_id']}/moves"
    before = scrape(client)
    refused = client.post(moves, json={"kind": "play", "card": "9S", "version": game["version"]}, headers=bob)
    assert refused.json()["code"] == "not_your_turn"
    played = client.post(moves, json={"kind": "play", "card": "9H", "version": game["version"]}, headers=ada)
    assert played.status_code == 200
    stored = len(played.json()["events"])
    after = scrape(client)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("maumau_moves_total", kind="play", outcome="accepted") == 1
    assert grew("maumau_moves_total", kind="play", outcome="not_your_turn") == 1
    assert grew("maumau_moves_total", kind="draw", outcome="accepted") == 0
    assert stored >= 1
    assert grew("maumau_events_appended_total") == stored
    assert grew("maumau_saves_total") == 1


def test_the_projection_lag_is_the_log_position_less_the_read_models_position(client, club, table):
    game = table["game"]
    played = client.post(
        f"/games/{game['game_id']}/moves",
        json={"kind": "play", "card": "9H", "version": game["version"]},
        headers=table["ada"],
    ).json()
    # a read of the read models after the move's position waits until they have applied it
    assert client.get(f"/players/{game['seats'][0]}/games?after={played['position']}").status_code == 200
    found = scrape(client)
    log, read = value(found, "maumau_log_position"), value(found, "maumau_read_position")
    assert read >= played["position"] and log >= read
    assert log <= club.log_position()
    assert value(found, "maumau_projection_lag_events") == log - read


def test_a_task_run_reported_by_a_worker_is_counted_with_its_duration(client):
    before = scrape(client)
    metrics.task_ran("maumau.tick", "success", seconds=0.02)
    metrics.task_ran("maumau.tick", "failure")
    after = scrape(client)
    for outcome in ("success", "failure"):
        runs = {"task": "maumau.tick", "outcome": outcome}
        assert (
            value(after, "maumau_task_runs_total", **runs)
            == value(before, "maumau_task_runs_total", **runs) + 1
        )
    timed = value(after, "maumau_task_duration_seconds_count", task="maumau.tick")
    assert timed == value(before, "maumau_task_duration_seconds_count", task="maumau.tick") + 1


def test_a_process_without_the_api_serves_its_metrics_on_a_port_of_its_own():
    port = free_port()
    server = metrics.start_exporter(port, host="127.0.0.1")
    try:
        metrics.task_ran("maumau.advance_game", "success")
        response = httpx.get(f"http://127.0.0.1:{port}/metrics")
    finally:
        server.shutdown()
        server.server_close()
    assert response.status_code == 200
    found = parse(response.text)
    assert value(found, "maumau_task_runs_total", task="maumau.advance_game", outcome="success") >= 1
