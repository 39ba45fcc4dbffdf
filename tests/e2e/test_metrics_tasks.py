"""Celery task runs counted through Celery's signals; the worker's logs and metrics port."""

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from celery import Celery, signals
from prometheus_client import REGISTRY

from service.observability import logs, tasks
from service.settings import Settings
from tests.e2e.test_metrics import free_port


def runs(task: str, outcome: str) -> float:
    return REGISTRY.get_sample_value("maumau_task_runs_total", {"task": task, "outcome": outcome}) or 0.0


def timed(task: str) -> float:
    return REGISTRY.get_sample_value("maumau_task_duration_seconds_count", {"task": task}) or 0.0


@pytest.fixture
def observed(tmp_path: Path) -> Iterator[Settings]:
    settings = Settings(data_dir=tmp_path / "var", metrics_port=free_port(), log_format="json")
    tasks.observe_celery(settings)
    try:
        yield settings
    finally:
        tasks.stop_observing()
        for server in tasks.exporters:
            server.shutdown()
            server.server_close()
        tasks.exporters.clear()


@pytest.fixture(scope="module")
def celery_app() -> Celery:
    """One app for the module: Celery registers task names process-wide."""
    app = Celery("observed", broker="memory://", backend="cache+memory://")
    app.conf.task_always_eager = True  # runs in this process, through Celery's own tracer

    @app.task(name="test.fine")
    def fine() -> int:
        return 1

    @app.task(name="test.broken")
    def broken() -> None:
        raise RuntimeError("broken on purpose")

    return app


@pytest.mark.usefixtures("observed")
def test_each_run_is_counted_by_task_and_outcome_with_its_time(celery_app):
    before = (runs("test.fine", "success"), runs("test.broken", "failure"), timed("test.fine"))
    assert celery_app.tasks["test.fine"].delay().get() == 1
    assert celery_app.tasks["test.fine"].delay().get() == 1
    assert celery_app.tasks["test.broken"].delay().state == "FAILURE"
    after = (runs("test.fine", "success"), runs("test.broken", "failure"), timed("test.fine"))
    assert [b - a for a, b in zip(before, after, strict=True)] == [2, 1, 2]


def test_observing_twice_counts_each_run_once(observed, celery_app):
    tasks.observe_celery(observed)
    before = runs("test.fine", "success")
    celery_app.tasks["test.fine"].delay().get()
    assert runs("test.fine", "success") == before + 1


def test_once_stopped_nothing_is_counted(celery_app):
    tasks.observe_celery(Settings())
    tasks.stop_observing()
    before = runs("test.fine", "success")
    celery_app.tasks["test.fine"].delay().get()
    assert runs("test.fine", "success") == before


def test_the_worker_serves_its_metrics_on_the_configured_port_when_it_starts(observed):
    signals.worker_init.send(sender=None)
    response = httpx.get(f"http://127.0.0.1:{observed.metrics_port}/metrics")
    assert response.status_code == 200 and "maumau_task_runs_total" in response.text


def test_celery_leaves_logging_to_the_service_configuration(observed, capsys):
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        signals.setup_logging.send(sender=None, loglevel="INFO", logfile=None, format="", colorize=False)
        logging.getLogger("celery.worker").info("ready")
        (line,) = capsys.readouterr().err.splitlines()
        assert json.loads(line)["logger"] == "celery.worker"
        assert [handler.get_name() for handler in root.handlers].count(logs.HANDLER_NAME) == 1
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
