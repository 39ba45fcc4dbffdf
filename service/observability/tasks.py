"""Celery, observed: every task run counted and timed, the service's log format, metrics on a port.

``observe_celery(settings)``, called once where the Celery app is made, connects
Celery's signals:

- ``setup_logging``: ``logs.configure(settings)``; Celery then leaves logging alone
  (its own would replace the JSON lines and drop the request ids);
- ``task_prerun`` / ``task_postrun``: ``metrics.task_ran(task name, outcome,
  seconds)`` for every run, in whichever process runs it; the outcome is Celery's
  final state in lower case (``success``, ``failure``, ``retry``, ...);
- ``worker_init``: in the worker's main process, the metrics served on
  ``MAUMAU_METRICS_PORT`` when it is set. The prefork pool's children count in
  other processes: give the worker ``PROMETHEUS_MULTIPROC_DIR`` so that the main
  process answers their sum.

Use it or call ``metrics.task_ran`` from the tasks, not both: runs would count twice.
"""

import threading
import time
from typing import Any
from wsgiref.simple_server import WSGIServer

from celery import signals

from service.observability import logs, metrics
from service.settings import Settings

# each signal's handler, by the dispatch_uid that keeps it connected once
CONNECTED = {
    "setup_logging": "maumau.logging",
    "worker_init": "maumau.metrics",
    "task_prerun": "maumau.task_started",
    "task_postrun": "maumau.task_ended",
}
exporters: list[WSGIServer] = []  # the metrics servers worker_init started (shutdown() stops one)
_started: dict[str, float] = {}  # task id: when it started, in the process that runs it
_lock = threading.Lock()


def observe_celery(settings: Settings) -> None:
    def setup_logging(**_: Any) -> None:
        logs.configure(settings)

    def serve(**_: Any) -> None:
        server = metrics.serve_metrics(settings)
        if server is not None:
            exporters.append(server)

    # the handlers are closures: held strongly (Celery keeps weak references by default) and
    # connected once whatever the number of calls (dispatch_uid)
    handlers = {
        "setup_logging": setup_logging,
        "worker_init": serve,
        "task_prerun": _task_started,
        "task_postrun": _task_ended,
    }
    for name, handler in handlers.items():
        getattr(signals, name).connect(handler, weak=False, dispatch_uid=CONNECTED[name])


def stop_observing() -> None:
    """Disconnect the handlers (a test, or an app that wants Celery's own logging back)."""
    for name, uid in CONNECTED.items():
        getattr(signals, name).disconnect(dispatch_uid=uid)


def _task_started(task_id: str, **_: Any) -> None:
    with _lock:
        _started[task_id] = time.perf_counter()


def _task_ended(task_id: str, task: Any, state: str | None = None, **_: Any) -> None:
    with _lock:
        started = _started.pop(task_id, None)
    seconds = None if started is None else time.perf_counter() - started
    metrics.task_ran(task.name, (state or "unknown").lower(), seconds)
