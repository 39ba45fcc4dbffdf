"""Prometheus metrics: what each process counts, and the text a scraper reads.

Counted where it happens, in any process (names carry the ``maumau_`` prefix):

- ``http_requests_total{route, method, status}`` and the histogram
  ``http_request_duration_seconds{route, method}``: every answered request;
  ``route`` is the route's path template (``/games/{game_id}/moves``), or
  ``unmatched`` for a path no route has, so the labels stay few whatever is asked.
- ``moves_total{kind, outcome}``: commands at a seat (``play``, ``draw``,
  ``keep``, ``name_suit``, ``challenge``), by people and bots alike; the outcome
  is ``accepted``, the refusal's code (``not_your_turn``, ...) or ``error``.
- ``events_appended_total`` and ``saves_total``: events stored, and the
  application's saves that stored them (group commit may put several saves in
  one transaction).
- ``task_runs_total{task, outcome}`` and ``task_duration_seconds{task}``: Celery
  tasks, counted by the workers through ``task_ran``.
- ``projection_failures_total{stage}``: the projection runner's failed attempts, by
  where they failed: ``fold`` (an event it could not fold) or ``store`` (reading the
  log, reading or writing the read models); it tries again after a pause, and the
  count goes on rising while the failure lasts.

Read from the database when scraped (the HTTP processes add them, see
``ProjectionLag``): ``log_position``, ``read_position`` and
``projection_lag_events``, the events stored but not yet in the read models; and
``projection_stale{view}`` (``StaleParts``), 1 while that part of the read models is stale.

Several processes, one sum: with ``PROMETHEUS_MULTIPROC_DIR`` set in the
environment *before the process starts*, prometheus_client keeps every
process's values in files in that directory and a scrape adds them up (uvicorn
``--workers N``, Celery's prefork pool, or several processes of one container
sharing the directory). The directory must exist and be emptied before the first
process starts; values of processes that ended stay counted, as counters should.
Without it every process counts and answers for itself. A process without the
HTTP API serves its metrics with ``serve_metrics`` (on ``MAUMAU_METRICS_PORT``).
"""

import os
from collections.abc import Callable, Iterable
from typing import Any, ClassVar
from wsgiref.simple_server import WSGIServer

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from service.domain.errors import RuleError
from service.settings import Settings

MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"
UNMATCHED = "unmatched"

# an HTTP request answers in milliseconds; a stream or a long poll may take minutes
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300)
_TASK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300)
# the engine's command classes, as the API names the moves
_MOVE_KINDS = {
    "PlayCard": "play",
    "DrawCard": "draw",
    "KeepCard": "keep",
    "NameSuit": "name_suit",
    "Challenge": "challenge",
    "ChallengeDeclaration": "challenge_declaration",
}

REQUESTS = Counter("maumau_http_requests", "HTTP requests answered", ["route", "method", "status"])
REQUEST_SECONDS = Histogram(
    "maumau_http_request_duration_seconds",
    "Time from a request's arrival to the end of its answer",
    ["route", "method"],
    buckets=_LATENCY_BUCKETS,
)
MOVES = Counter("maumau_moves", "Commands at a seat, by kind and outcome", ["kind", "outcome"])
EVENTS_APPENDED = Counter("maumau_events_appended", "Events stored in the event log")
SAVES = Counter("maumau_saves", "The application's saves that stored events")
TASK_RUNS = Counter("maumau_task_runs", "Celery task runs, by task and outcome", ["task", "outcome"])
TASK_SECONDS = Histogram(
    "maumau_task_duration_seconds", "Time a Celery task ran", ["task"], buckets=_TASK_BUCKETS
)

PROJECTION_FAILURES = Counter(
    "maumau_projection_failures",
    "The projection runner's failed attempts, by stage: fold (an event) or store",
    ["stage"],
)


# the labelled children, looked up once: ``labels()`` takes a lock and builds its key at every call,
# and a request counts on both; the routes, methods and statuses are few
_REQUEST_COUNTERS: dict[tuple[str, str, int], Any] = {}
_REQUEST_TIMERS: dict[tuple[str, str], Any] = {}


def request_answered(route: str, method: str, status: int, seconds: float) -> None:
    counter = _REQUEST_COUNTERS.get((route, method, status))
    if counter is None:
        counter = _REQUEST_COUNTERS[(route, method, status)] = REQUESTS.labels(route, method, str(status))
    timer = _REQUEST_TIMERS.get((route, method))
    if timer is None:
        timer = _REQUEST_TIMERS[(route, method)] = REQUEST_SECONDS.labels(route, method)
    counter.inc()
    timer.observe(seconds)


class CountedMove:
    """``with CountedMove(command):`` counts the command the block executes: accepted, refused (by
    code) or failed."""

    __slots__ = ("kind",)
    _counters: ClassVar[dict[tuple[str, str], Any]] = {}  # labels() looks its child up each call

    def __init__(self, command: object) -> None:
        self.kind = _MOVE_KINDS.get(type(command).__name__) or type(command).__name__.lower()

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, error: BaseException | None, traceback: object) -> None:
        outcome = "accepted" if error is None else error.code if isinstance(error, RuleError) else "error"
        counter = self._counters.get((self.kind, outcome))
        if counter is None:
            counter = self._counters[(self.kind, outcome)] = MOVES.labels(self.kind, outcome)
        counter.inc()


def events_appended(count: int) -> None:
    """One save stored ``count`` events."""
    if count:
        SAVES.inc()
        EVENTS_APPENDED.inc(count)


def task_ran(name: str, outcome: str, seconds: float | None = None) -> None:
    """A Celery task ran: ``outcome`` is ``success``, ``retry`` or ``failure`` (keep to a few words)."""
    TASK_RUNS.labels(name, outcome).inc()
    if seconds is not None:
        TASK_SECONDS.labels(name).observe(seconds)


def projection_failed(stage: str) -> None:
    """The projection runner failed an attempt: ``stage`` is ``fold`` or ``store``."""
    PROJECTION_FAILURES.labels(stage).inc()


class ProjectionLag(Collector):
    """Gauges read at scrape time: the log's last position and the read models' (and their gap).

    ``positions`` returns (stored, applied); when it fails (the database is away) the
    gauges are left out of that scrape rather than failing it.
    """

    def __init__(self, positions: Callable[[], tuple[int, int]]) -> None:
        self.positions = positions

    def collect(self) -> Iterable[Metric]:
        try:
            stored, applied = self.positions()
        except Exception:
            return []
        return [
            GaugeMetricFamily("maumau_log_position", "The position of the last event stored", stored),
            GaugeMetricFamily(
                "maumau_read_position", "The position of the last event the read models applied", applied
            ),
            GaugeMetricFamily(
                "maumau_projection_lag_events",
                "Events stored but not yet applied to the read models",
                max(0, stored - applied),
            ),
        ]


class StaleParts(Collector):
    """A gauge read at scrape time: 1 for each part of the read models that is stale, 0 for the others
    (``service.projections.parts``); left out of a scrape when the store does not answer."""

    def __init__(self, parts: Iterable[str], stale: Callable[[], Iterable[str]]) -> None:
        self.parts = tuple(parts)
        self.stale = stale

    def collect(self) -> Iterable[Metric]:
        try:
            stale = set(self.stale())
        except Exception:
            return []
        gauge = GaugeMetricFamily(
            "maumau_projection_stale",
            "Whether a part of the read models stopped at an event it could not fold (1) or is sound (0)",
            labels=["view"],
        )
        for part in self.parts:
            gauge.add_metric([part], 1 if part in stale else 0)
        return [gauge]


def multiprocess_dir() -> str | None:
    return os.environ.get(MULTIPROCESS_ENV) or None


def registry() -> CollectorRegistry:
    """What a scrape reads: every process's values in multiprocess mode, else this process's."""
    if multiprocess_dir() is None:
        return REGISTRY
    combined = CollectorRegistry()
    MultiProcessCollector(combined)
    return combined


def exposition(*extra: Collector) -> tuple[bytes, str]:
    """The text exposition format (body, content type) of the counters and ``extra`` collectors."""
    body = generate_latest(registry())
    if extra:
        more = CollectorRegistry(auto_describe=False)
        for collector in extra:
            more.register(collector)
        body += generate_latest(more)
    return body, CONTENT_TYPE_LATEST


def serve_metrics(settings: Settings) -> WSGIServer | None:
    """``start_exporter`` on ``MAUMAU_METRICS_PORT``, when it is set (a process without the HTTP API)."""
    return None if settings.metrics_port is None else start_exporter(settings.metrics_port)


def start_exporter(port: int, host: str = "0.0.0.0") -> WSGIServer:
    """Serve the metrics on ``port`` from a background thread (a process without the HTTP API); every
    interface by default, as a scraper on another host asks. ``shutdown()`` stops it."""
    server, _thread = start_http_server(port, addr=host, registry=registry())
    return server
