"""Readiness: may this process take requests? The database, the read models, the broker.

``/health`` (liveness) only says the process answers; an orchestrator restarts
a process that stops answering it. ``/ready`` says whether to send it traffic:

- the database answers: the log's last position and the read models' position are read;
- no part of the read models that players act on is stale (``service.projections.parts``:
  a part that could not fold an event stops there while the others go on; a stale ratings or
  webhooks part is named in the answer and leaves the process ready);
- the projection runner is not failing. The runner may run in another process
  (``maumau projections run``), so it tells through the store: while its
  attempts fail it keeps a row in the read models' store (``views_runner``:
  the position it failed at, why, how often, since when), and its next good
  pass deletes it (``service.projections.runner``);
- the broker answers, when ``MAUMAU_BROKER_URL`` names one: a connection is made
  (one attempt, ``BROKER_TIMEOUT`` seconds). The embedded filesystem broker is
  not checked: it is a folder beside the data;
- the read models are not falling behind: not ready when they are more than
  ``MAUMAU_READY_MAX_LAG`` events behind the log (default 100) *and* the oldest
  event they lack was stored more than ``MAUMAU_READY_MAX_LAG_SECONDS`` ago
  (default 30). Both, so that a burst a healthy runner is about to write never
  takes every API process out of service at once (writes included), while a
  runner that stopped, hung or cannot keep up does. Behind by few events stays
  ready however long: an idle club's lag says little. The age is the event's
  own timestamp (the writer's clock) against this process's clock: a bound of
  seconds leaves room for clocks set a little apart.

Every check together answers within ``READY_SECONDS``: ``Probe`` runs them in a
thread of their own and stops waiting after that, answering not ready with the
check that did not answer (a database that accepts connections but answers
nothing would otherwise hold the probe for as long as the pool waits, 30 s).
One run at a time: probes that come while a run hangs wait for that run, so
hung checks never pile up threads or connections.

A failed check is ``RuleError("not_ready")`` (503 problem+json) whose detail
names the check and the kind of error, never an address or a password; the
whole error is logged.
"""

import contextvars
import logging
import threading
from datetime import UTC, datetime
from typing import Literal

import msgspec

from service.application import MauMau
from service.domain.errors import RuleError
from service.projections.parts import REQUIRED, mending
from service.projections.reader import ReadModels
from service.projections.views.base import StaleView
from service.settings import Settings

READY_SECONDS = 2.0  # every check together: a probe's own timeout is a few seconds
BROKER_TIMEOUT = 1.5  # seconds, within READY_SECONDS

log = logging.getLogger(__name__)


class Readiness(msgspec.Struct, frozen=True, kw_only=True):
    log_position: int
    read_position: int
    broker: Literal["ok", "embedded"]  # embedded: the filesystem broker (not checked)
    stale: tuple[StaleView, ...] = ()  # parts of the read models that are stale, none of them required

    @property
    def lag(self) -> int:
        return max(0, self.log_position - self.read_position)


def positions(app: MauMau, reader: ReadModels) -> tuple[int, int]:
    """(the log's last position, the read models' position)."""
    return app.recorder.max_notification_id() or 0, reader.position()


def broker_answers(url: str, timeout: float = BROKER_TIMEOUT) -> None:
    """Connect to the broker once; raises what kombu raises when it does not answer."""
    from kombu import Connection

    with Connection(url, connect_timeout=timeout, transport_options={"socket_timeout": timeout}) as conn:
        conn.ensure_connection(max_retries=0, timeout=timeout)


def waiting_since(app: MauMau, read_position: int) -> datetime | None:
    """When the oldest event the read models lack (the first after ``read_position``) was stored."""
    found = app.recorder.select_notifications(read_position + 1, 1)
    return app.mapper.to_domain_event(found[0]).timestamp if found else None


class _Stage:
    """The check a run is at, for the answer when it does not finish in time."""

    __slots__ = ("name",)

    def __init__(self) -> None:
        self.name = "the database"


def check(app: MauMau, reader: ReadModels, settings: Settings, stage: _Stage | None = None) -> Readiness:
    """Every check, in order; the first that fails raises ``not_ready``. (Unbounded: see ``Probe``.)"""
    stage = stage or _Stage()
    stage.name = "the database"
    try:
        stored, applied = positions(app, reader)
        failure = reader.views.runner_failures.failure()
        stale = reader.views.stale_views()
    except Exception as error:
        raise _not_ready("the database does not answer", error) from None
    if failure is not None:
        since = datetime.fromtimestamp(failure.since, UTC).isoformat(timespec="seconds")
        raise RuleError(
            "not_ready", why="failing", reason=failure.reason, failures=failure.failures, since=since
        )
    required = [found for found in stale if found.view in REQUIRED]
    if required:
        said = "; ".join(f"{found.view} from position {found.position}: {found.reason}" for found in required)
        raise RuleError(
            "not_ready", why="stale", stale=said, mend=mending({found.view for found in required})
        )
    broker: Literal["ok", "embedded"] = "embedded"
    if settings.broker_url is not None:
        stage.name = "the broker"
        try:
            broker_answers(settings.broker_url)
        except Exception as error:
            raise _not_ready("the broker does not answer", error) from None
        broker = "ok"
    found = Readiness(log_position=stored, read_position=applied, broker=broker, stale=tuple(stale))
    if settings.ready_max_lag is not None and found.lag > settings.ready_max_lag:
        stage.name = "the database"
        _behind(app, found, settings)
    return found


def _behind(app: MauMau, found: Readiness, settings: Settings) -> None:
    """Raise ``not_ready`` when the oldest event the read models lack has waited past the bound."""
    limit = settings.ready_max_lag_seconds
    waited = 0.0
    if limit > 0:
        try:
            since = waiting_since(app, found.read_position)
        except Exception as error:
            raise _not_ready("the database does not answer", error) from None
        if since is None:
            return
        waited = (datetime.now(UTC) - since).total_seconds()
        if waited <= limit:
            return
    raise RuleError(
        "not_ready",
        why="lag",
        lag=found.lag,
        waited=waited,
        ready_max_lag=settings.ready_max_lag,
        limit=limit,
    )


class _Run:
    __slots__ = ("done", "error", "result", "stage")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.stage = _Stage()
        self.result: Readiness | None = None
        self.error: RuleError | None = None


class Probe:
    """``check`` with an answer within ``seconds``, whatever the database and the broker do."""

    def __init__(self, app: MauMau, reader: ReadModels, settings: Settings, seconds: float = READY_SECONDS):
        self.app = app
        self.reader = reader
        self.settings = settings
        self.seconds = seconds
        self._lock = threading.Lock()
        self._run: _Run | None = None

    def __call__(self) -> Readiness:
        with self._lock:
            run = self._run
            if run is None or run.done.is_set():
                run = self._run = _Run()
                # a daemon thread: a check that never returns must not hold the process at exit; in
                # the request's context, so that what the checks log carries its request id
                context = contextvars.copy_context()
                threading.Thread(
                    target=context.run, args=(self._check, run), name="maumau-ready", daemon=True
                ).start()
        if not run.done.wait(self.seconds):
            late = RuleError("not_ready", why="late", stage=run.stage.name, seconds=self.seconds)
            log.warning("%s", late.message)
            raise late
        if run.error is not None:
            # a new error each time: several probes may share a run
            raise RuleError(run.error.code, why=run.error.why, **run.error.data)
        assert run.result is not None
        return run.result

    def _check(self, run: _Run) -> None:
        try:
            run.result = check(self.app, self.reader, self.settings, run.stage)
        except RuleError as error:
            run.error = error
        except Exception as error:  # not one of the checks' own refusals: still an answer
            run.error = _not_ready(run.stage.name, error)
        finally:
            run.done.set()


def _not_ready(what: str, error: Exception) -> RuleError:
    log.warning("not ready: %s: %s", what, error)
    return RuleError("not_ready", why="check_failed", what=what, error=type(error).__name__)
