"""/ready checks the database, the broker and (when limited) the read models' lag; /health checks nothing."""

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import psycopg
import pytest
from litestar.testing import TestClient
from psycopg import sql

from service.app import create_app
from service.persistence.init import init_database
from service.settings import Settings
from tests.e2e.club import bearer, problem
from tests.schemas import own_schema

ADMIN_TOKEN = "readiness-admin"


def serving(settings: Settings) -> TestClient[Any]:
    return TestClient(create_app(settings))


@pytest.fixture
def empty_schema(database_url: str) -> Iterator[str]:
    with own_schema(database_url, "maumau_ready") as schema:
        yield schema


def test_ready_reports_the_database_the_embedded_broker_and_the_lag(client, club):
    ready = client.get("/ready")
    assert ready.status_code == 200
    body = ready.json()
    assert (body["status"], body["database"], body["broker"]) == ("ready", "ok", "embedded")
    assert body["lag"] == body["log_position"] - body["read_position"] >= 0
    assert body["log_position"] <= club.log_position()


def test_a_broker_that_answers_is_reported_ok(tmp_path: Path, broker_url: str):
    with serving(Settings(data_dir=tmp_path / "var", broker_url=broker_url)) as client:
        ready = client.get("/ready")
    assert ready.status_code == 200 and ready.json()["broker"] == "ok"


def test_a_broker_that_does_not_answer_makes_ready_refuse_without_naming_its_address(tmp_path: Path):
    settings = Settings(data_dir=tmp_path / "var", broker_url="redis://:hunter2@127.0.0.1:1/0")
    with serving(settings) as client:
        ready = client.get("/ready")
        health = client.get("/health")
    body = problem(ready, 503, "not_ready")
    assert "broker" in body["detail"]
    assert "hunter2" not in ready.text and "127.0.0.1" not in ready.text
    assert ready.headers["x-request-id"]
    assert health.status_code == 200  # liveness: the process answers, nothing else is asked


def test_read_models_further_behind_than_the_limit_make_ready_refuse_and_without_a_limit_they_do_not(
    tmp_path: Path,
):
    # no projections run in this process: the read models stay where they are
    behind = Settings(
        data_dir=tmp_path / "var",
        admin_token=ADMIN_TOKEN,
        run_projections=False,
        ready_max_lag=0,
        ready_max_lag_seconds=0,
    )
    with serving(behind) as client:
        assert client.get("/ready").status_code == 200  # nothing stored, nothing behind
        created = client.post("/players", json={"name": "Ada"}, headers=bearer(ADMIN_TOKEN))
        assert created.status_code == 201
        body = problem(client.get("/ready"), 503, "not_ready")
        assert "behind" in body["detail"] and "MAUMAU_READY_MAX_LAG is 0" in body["detail"]
    unlimited = Settings(data_dir=tmp_path / "var", run_projections=False, ready_max_lag=None)
    with serving(unlimited) as client:
        ready = client.get("/ready")
    assert ready.status_code == 200 and ready.json()["lag"] >= 1


def test_without_tables_a_process_is_not_ready_until_db_init_made_them(database_url: str, empty_schema: str):
    settings = Settings(
        database_url=database_url,
        database_schema=empty_schema,
        pool_size=2,
        admin_token=ADMIN_TOKEN,
        create_tables=False,
        run_projections=False,
    )
    with serving(settings) as client:
        body = problem(client.get("/ready"), 503, "not_ready")
        assert "database" in body["detail"]
        init_database(settings)
        assert client.get("/ready").status_code == 200
        created = client.post("/players", json={"name": "Ada"}, headers=bearer(ADMIN_TOKEN))
        assert created.status_code == 201
        assert client.get("/ready").json()["log_position"] >= 1


def eventually(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)


def test_read_models_behind_past_the_event_bound_are_ready_until_the_oldest_waited_past_the_time_bound(
    tmp_path: Path,
):
    settings = Settings(
        data_dir=tmp_path / "var",
        admin_token=ADMIN_TOKEN,
        run_projections=False,  # nothing applies the events: the lag stays
        ready_max_lag=1,
        ready_max_lag_seconds=3600,
    )
    with serving(settings) as client:
        for name in ("Ada", "Bo", "Cy"):
            created = client.post("/players", json={"name": name}, headers=bearer(ADMIN_TOKEN))
            assert created.status_code == 201
        ready = client.get("/ready")
        assert ready.status_code == 200 and ready.json()["lag"] >= 3  # behind, not for long
    with serving(msgspec.structs.replace(settings, ready_max_lag_seconds=0.2)) as client:
        eventually(lambda: client.get("/ready").status_code == 503)
        body = problem(client.get("/ready"), 503, "not_ready")
        assert "behind" in body["detail"] and "MAUMAU_READY_MAX_LAG_SECONDS is 0.2" in body["detail"]
    few = msgspec.structs.replace(settings, ready_max_lag=100, ready_max_lag_seconds=0.2)
    with serving(few) as client:
        assert client.get("/ready").status_code == 200  # old, but fewer events than the bound


def test_ready_answers_at_once_naming_the_database_while_its_queries_hang_and_200_once_they_answer(
    database_url: str, empty_schema: str
):
    settings = Settings(
        database_url=database_url, database_schema=empty_schema, pool_size=2, run_projections=False
    )
    with serving(settings) as client, psycopg.connect(database_url) as locker:
        assert client.get("/ready").status_code == 200
        # another session takes the event log: reading its last position waits for the lock
        events = sql.Identifier(empty_schema, "maumau_events")
        locker.execute(sql.SQL("LOCK TABLE {} IN ACCESS EXCLUSIVE MODE").format(events))
        # a /ready that waited for the database would answer 200 once this lets go, never 503
        letting_go = threading.Timer(20, locker.rollback)
        letting_go.start()
        try:
            body = problem(client.get("/ready"), 503, "not_ready")
            assert "the database did not answer" in body["detail"]
            problem(client.get("/ready"), 503, "not_ready")  # a second probe joins the hung check
        finally:
            letting_go.cancel()
            locker.rollback()
        eventually(lambda: client.get("/ready").status_code == 200)
