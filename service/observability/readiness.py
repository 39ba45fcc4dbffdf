"""Readiness: may this process take requests? The database, the broker, the read models' lag.

``/health`` (liveness) only says the process answers; an orchestrator restarts
a process that stops answering it. ``/ready`` says whether to send it traffic:

- the database answers: the log's last position and the read models' position are read;
- the broker answers, when ``MAUMAU_BROKER_URL`` names one: a connection is made
  (one attempt, ``BROKER_TIMEOUT`` seconds). The embedded filesystem broker is
  not checked: it is a folder beside the data;
- the read models are at most ``MAUMAU_READY_MAX_LAG`` events behind the log,
  when that is set. It is not by default: a projection runner that falls
  behind would otherwise take every API process out of service at once, writes
  included, though they would still work.

A failed check is ``RuleError("not_ready")`` (503 problem+json) whose detail
names the check and the kind of error, never an address or a password; the
whole error is logged.
"""

import logging
from typing import Literal

import msgspec

from service.application import MauMau
from service.domain.errors import RuleError
from service.projections.reader import ReadModels
from service.settings import Settings

BROKER_TIMEOUT = 2.0  # seconds: a probe's own timeout is a few seconds, and it waits for this one

log = logging.getLogger(__name__)


class Readiness(msgspec.Struct, frozen=True, kw_only=True):
    log_position: int
    read_position: int
    broker: Literal["ok", "embedded"]  # embedded: the filesystem broker (not checked)

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


def check(app: MauMau, reader: ReadModels, settings: Settings) -> Readiness:
    """Every check, in order; the first that fails raises ``not_ready``."""
    try:
        stored, applied = positions(app, reader)
    except Exception as error:
        raise _not_ready("the database does not answer", error) from None
    broker: Literal["ok", "embedded"] = "embedded"
    if settings.broker_url is not None:
        try:
            broker_answers(settings.broker_url)
        except Exception as error:
            raise _not_ready("the broker does not answer", error) from None
        broker = "ok"
    found = Readiness(log_position=stored, read_position=applied, broker=broker)
    if settings.ready_max_lag is not None and found.lag > settings.ready_max_lag:
        raise RuleError(
            "not_ready",
            f"not ready: the read models are {found.lag} events behind the log "
            f"(MAUMAU_READY_MAX_LAG is {settings.ready_max_lag})",
        )
    return found


def _not_ready(what: str, error: Exception) -> RuleError:
    log.warning("not ready: %s: %s", what, error)
    return RuleError("not_ready", f"not ready: {what} ({type(error).__name__})")
