"""A runner that cannot fold an event says so: in its log, a metric, /ready of another process and
``maumau projections status``.

The failure is real: the runner's stored state of a finished game is made
unreadable in its table, so the next event of that game (a dispute) cannot
be folded. Putting the state back lets the runner go on, and /ready with it.
"""

import logging
import time
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

import msgspec
import pytest
from click.testing import CliRunner
from litestar.testing import TestClient
from prometheus_client import REGISTRY
from psycopg.sql import SQL, Identifier

from service.app import create_app
from service.application import MauMau
from service.projections.cli import projections
from service.projections.runner import start_projections
from service.projections.store import PostgresViews, Views, close_views, open_views
from service.settings import Settings
from tests.e2e.club import problem
from tests.integration.tables import REFEREE, play_out, players

pytestmark = pytest.mark.own_store  # the runner reads the whole log: a store of the test's own


@pytest.fixture
def views(settings: Settings) -> Iterator[Views]:
    found = open_views(settings, connections=1)
    yield found
    close_views(found)


def put_state(views: Views, game_id: UUID, state: bytes) -> None:
    """Overwrite the runner's stored state of the game, as a broken disk or release might."""
    if isinstance(views, PostgresViews):
        table = SQL("{}.views_games").format(Identifier(views.datastore.schema))
        with views.datastore.transaction(commit=True) as curs:
            curs.execute(SQL("UPDATE {} SET state = %s WHERE game_id = %s").format(table), (state, game_id))
        return
    with views.datastore.transaction(commit=True) as c:  # type: ignore[attr-defined]
        c.execute("UPDATE views_games SET state = ? WHERE game_id = ?", (state, str(game_id)))


def eventually(condition: Callable[[], Any], seconds: float = 60.0) -> Any:
    """The condition's first true value; fails after ``seconds`` without one."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("the condition never held")


def fold_failures() -> float:
    return REGISTRY.get_sample_value("maumau_projection_failures_total", {"stage": "fold"}) or 0.0


def test_a_runner_that_cannot_fold_an_event_logs_counts_and_records_it_and_ready_refuses_until_it_can(
    app: MauMau, settings: Settings, views: Views, caplog: pytest.LogCaptureFixture
):
    game_id = app.create_game(players(app, 2), seed="failing").game_id
    play_out(app, game_id, seed=7)
    api = msgspec.structs.replace(settings, run_projections=False)  # the runner is another "process"
    counted = fold_failures()
    running = start_projections(settings)
    try:
        with TestClient(create_app(api)) as client:
            eventually(lambda: views.position() == app.recorder.max_notification_id())
            assert client.get("/ready").status_code == 200
            ((_, good),) = views.load_states([game_id])
            put_state(views, game_id, b"not a game")
            with caplog.at_level(logging.ERROR, logger="service.projections.runner"):
                app.raise_dispute(game_id, by=REFEREE)
                disputed = app.recorder.max_notification_id()
                failure = eventually(views.runner_failures.failure)
            assert failure.position == disputed
            assert "DisputeRaised" in failure.reason and str(game_id) in failure.reason
            logged = [record for record in caplog.records if record.name == "service.projections.runner"]
            assert logged and logged[0].levelno == logging.ERROR
            assert (logged[0].position, logged[0].originator_id) == (disputed, str(game_id))  # type: ignore[attr-defined]
            assert logged[0].event_type.endswith("DisputeRaised")  # type: ignore[attr-defined]
            assert fold_failures() > counted
            body = problem(client.get("/ready"), 503, "not_ready")
            assert "failing" in body["detail"] and f"event {disputed}" in body["detail"]
            assert views.position() < disputed  # nothing of the batch was written
            status = CliRunner().invoke(projections, ["status"], obj=settings).output
            assert f"views  failing: event {disputed}" in status

            put_state(views, game_id, good)
            eventually(lambda: views.runner_failures.failure() is None, seconds=90)
            assert eventually(lambda: views.position() == disputed)
            assert client.get("/ready").status_code == 200
    finally:
        running.stop()
