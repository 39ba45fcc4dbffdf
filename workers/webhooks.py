"""Sending webhook deliveries: the signature, one HTTP request, and a delivery's tries.

``Courier.deliver(delivery_id)`` is the step the task ``maumau.deliver_webhook`` runs. It claims
the delivery (``Deliveries.claim``: only a pending one that is due, and only one task at a time),
loads its hook from the store (a disabled or removed hook's delivery is cancelled, not sent),
signs the body and posts it, and records the try. A 2xx answer delivers it; anything else (another
status, a refused connection, a timeout) is a failed try: the delivery is due again after
``MAUMAU_WEBHOOK_BACKOFF`` seconds, doubled at each retry, and queued with that countdown, until
``MAUMAU_WEBHOOK_RETRIES`` retries have failed too; then it has failed, and a hook whose last
``MAUMAU_WEBHOOK_DISABLE_AFTER`` deliveries all failed is disabled with the reason.

A worker that dies between posting and recording leaves the claim to run out; the tick then queues
the delivery again and it is sent again: receivers see a delivery at least once, and tell a
repeat by its id (the ``Maumau-Delivery`` header, the body's ``id``).

The signature (``Maumau-Signature: t=<unix seconds>,v1=<hex>``) is the HMAC-SHA256, keyed with
the hook's secret, of the time, a dot and the body; ``verify`` is what a receiver does.
Redirects are not followed: a receiver answers where it was registered.
"""

import hashlib
import hmac
import http.client
import logging
import time
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlsplit
from uuid import UUID

import msgspec

from service.domain.errors import RuleError
from service.projections.deliveries import DELIVERED, FAILED, PENDING, Attempt, Deliveries

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "Maumau-Signature"
REPLAY_WINDOW = 300  # seconds: a receiver refuses a signature older (or newer) than this
CLAIM_MARGIN = 30.0  # seconds a claim outlasts the receiver's timeout
ERROR_LENGTH = 300  # characters of an error kept with a try


class Sent(msgspec.Struct, frozen=True, kw_only=True):
    status_code: int | None  # None: no answer came
    error: str  # "" when the receiver took it (2xx)
    duration_ms: float


def sign(secret: str, body: bytes, at: int) -> str:
    """The ``Maumau-Signature`` header's value for ``body`` sent at Unix time ``at``."""
    digest = hmac.new(secret.encode(), str(at).encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"t={at},v1={digest}"


def verify(secret: str, body: bytes, header: str, now: float, window: float = REPLAY_WINDOW) -> bool:
    """What a receiver checks: the signature is the secret's over this body, made within ``window``
    seconds of ``now``."""
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    try:
        at = int(fields["t"])
    except (KeyError, ValueError):
        return False
    if abs(now - at) > window:
        return False
    return hmac.compare_digest(sign(secret, body, at), f"t={at},v1={fields.get('v1', '')}")


def post(url: str, body: bytes, headers: dict[str, str], timeout: float) -> Sent:
    """One POST of ``body`` to ``url``; redirects are not followed (a 3xx is a failed try)."""
    parts = urlsplit(url)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    started = time.monotonic()
    connection = kind(parts.hostname or "", parts.port, timeout=timeout)
    try:
        connection.request("POST", target, body=body, headers=headers)
        answer = connection.getresponse()
        answer.read(64 * 1024)  # the receiver's answer is not kept; read a little so it is not cut off
        code = answer.status
        error = "" if 200 <= code < 300 else f"the receiver answered {code}"
        return Sent(status_code=code, error=error, duration_ms=_since(started))
    except (OSError, http.client.HTTPException) as failure:
        error = f"{type(failure).__name__}: {failure}"[:ERROR_LENGTH]
        return Sent(status_code=None, error=error, duration_ms=_since(started))
    finally:
        connection.close()


def _since(started: float) -> float:
    return round((time.monotonic() - started) * 1000, 3)


class _Hooks(Protocol):
    def get_webhook(self, hook_id: UUID | str) -> Any: ...

    def disable_webhook(self, hook_id: UUID | str, reason: str) -> None: ...


class _Dispatch(Protocol):
    def deliver_webhook(self, delivery_id: UUID, countdown: float = 0.0) -> None: ...


@dataclass
class Courier:
    app: _Hooks
    deliveries: Deliveries
    dispatch: _Dispatch
    retries: int = 5
    backoff: float = 10.0
    timeout: float = 5.0
    disable_after: int = 5

    def deliver(self, delivery_id: UUID | str) -> None:
        """Try the delivery once, if it is due and no other task has it."""
        delivery_id = UUID(str(delivery_id))
        now = time.time()
        claimed = self.deliveries.claim(delivery_id, now, now + self.timeout + CLAIM_MARGIN)
        if claimed is None:
            return  # not due, delivered, or another task has it
        try:
            hook = self.app.get_webhook(claimed.hook_id)
        except RuleError as error:
            if error.code != "webhook_not_found":
                raise
            self.deliveries.cancel(delivery_id, "the hook was removed")
            return
        if not hook.enabled:
            self.deliveries.cancel(delivery_id, f"the hook is disabled: {hook.disabled_reason}")
            return
        at = time.time()
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "maumau-webhooks",
            "Maumau-Event": claimed.kind,
            "Maumau-Delivery": str(delivery_id),
            SIGNATURE_HEADER: sign(hook.secret, claimed.payload, int(at)),
        }
        sent = post(hook.url, claimed.payload, headers, self.timeout)
        attempt = Attempt(
            number=claimed.attempts + 1,
            at=at,
            status_code=sent.status_code,
            error=sent.error,
            duration_ms=sent.duration_ms,
        )
        if not sent.error:
            self.deliveries.tried(delivery_id, attempt, DELIVERED, next_at=0.0, queued_at=0.0)
            return
        retried = attempt.number - claimed.budget_from - 1  # retries made, this try counted
        if retried < self.retries:
            pause = self.backoff * 2**retried
            # queued here with its countdown: the tick leaves it alone unless that task is lost
            self.deliveries.tried(delivery_id, attempt, PENDING, next_at=at + pause, queued_at=time.time())
            self.dispatch.deliver_webhook(delivery_id, countdown=pause)
            return
        self.deliveries.tried(delivery_id, attempt, FAILED, next_at=0.0, queued_at=0.0)
        log.warning("webhook delivery %s to hook %s failed: %s", delivery_id, hook.id, sent.error)
        if self.deliveries.failed_in_a_row(hook.id, self.disable_after):
            reason = f"its last {self.disable_after} deliveries failed; the last try: {sent.error}"
            try:
                self.app.disable_webhook(hook.id, reason)
            except RuleError as error:
                if error.code not in ("already_disabled", "webhook_not_found", "stale_version"):
                    raise
