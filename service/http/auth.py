"""Who is asking: a bearer token to an ``Actor``, checked once per request before the handler.

No ``Authorization`` header: the request is anonymous (``actor`` None), which
the public reads allow. A header that is not ``Bearer <valid token>``: 401
``unauthorized``, on every route, so a client learns at once that its token
is wrong. Tokens are ``mm_<credential id>_<secret>`` (``service.domain.credential``):
one credential is loaded by id and the secret's hash compared in constant
time. ``MAUMAU_ADMIN_TOKEN``, when set, is an admin token too (compared by hash).

Accepted tokens are remembered per process for ``MAUMAU_TOKEN_CACHE_SECONDS``
(default 10), keyed by the token's hash, so a request with a token seen a
moment ago pays no lookup; a revocation in this process forgets them at once,
one in another process is honoured within that time. A token loaded from the store
has its use noted (``service.persistence.notes``: a table beside the read models, not
the event log) at most once per ``USE_GRANULARITY`` per process: a move, the
hottest path, pays no write for it, and an admin still learns which tokens
are in use and which were forgotten.

``authenticate`` also sets ``connection.state.credential_id``: the credential of the
token (None for ``MAUMAU_ADMIN_TOKEN``), which a token minted with it records.

What a route needs is in its ``opt`` (``opt=SIGNED_IN``, ``opt=ADMIN_ONLY``): ``service.http.admit``
runs the check it names before the handler. Not litestar guards: litestar copies the route
handler for every guard it calls, on every request.
"""

import hmac
import logging
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler
from litestar.types import Guard

from service.application import MauMau, credentials
from service.domain.credential import hash_secret, parse_token
from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.usecases import policy

CACHE_SIZE = 10_000
USE_GRANULARITY = 3600.0  # seconds: how stale a token's "last used" may be
ENV_ADMIN = Actor("admin", "env")
log = logging.getLogger(__name__)


class Authenticator:
    def __init__(
        self,
        app: MauMau,
        admin_token: str | None = None,
        note_use: Callable[[UUID, datetime], None] | None = None,
        cache_seconds: float = 10.0,
    ) -> None:
        self.app = app
        self.cache_seconds = cache_seconds
        self._admin_hash = hash_secret(admin_token) if admin_token else None
        self._cache: dict[str, tuple[Actor, UUID | None, float]] = {}
        self._lock = threading.Lock()
        self._note_use = note_use
        self._noted: dict[UUID, float] = {}  # when this process last noted each token's use (monotonic)

    def cached(self, token: str) -> tuple[Actor, UUID | None] | None:
        """The actor and credential id of a token accepted a moment ago (no I/O), else None."""
        found = self._cache.get(hash_secret(token))
        if found is None or found[2] < time.monotonic():
            return None
        return found[0], found[1]

    def authenticate(self, token: str) -> tuple[Actor, UUID | None] | None:
        """The actor the token speaks for and its credential id, or None when it is not a valid token."""
        digest = hash_secret(token)
        if self._admin_hash is not None and hmac.compare_digest(digest, self._admin_hash):
            return ENV_ADMIN, None
        parsed = parse_token(token)
        if parsed is None:
            return None
        credential_id, secret = parsed
        credential = credentials.find(self.app, credential_id)
        if credential is None or not credential.accepts(secret):
            return None
        self._noting(credential_id)
        actor = credential.actor
        with self._lock:
            if len(self._cache) >= CACHE_SIZE:
                self._cache.clear()
            self._cache[digest] = (actor, credential_id, time.monotonic() + self.cache_seconds)
        return actor, credential_id

    def _noting(self, credential_id: UUID) -> None:
        now = time.monotonic()
        with self._lock:
            noted = self._noted.get(credential_id)
            if self._note_use is None or (noted is not None and now - noted < USE_GRANULARITY):
                return
            if len(self._noted) >= CACHE_SIZE:
                self._noted.clear()
            self._noted[credential_id] = now
        try:
            self._note_use(credential_id, datetime.now(UTC))
        except Exception:
            # a note not written must not refuse a valid token: it is written at a later use
            log.warning("token use not noted", exc_info=True)
            with self._lock:
                self._noted.pop(credential_id, None)

    def forget(self, *credential_ids: UUID) -> None:
        gone = set(credential_ids)
        with self._lock:
            for digest in [d for d, (_, cid, _) in self._cache.items() if cid in gone]:
                del self._cache[digest]


def _unauthorized(message: str) -> RuleError:
    return RuleError("unauthorized", message)


async def authenticate(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Sets ``connection.state.actor`` (None for an anonymous request): ``admit`` runs it first."""
    state = connection.state  # a new wrapper of the scope's state at every access: taken once
    header = connection.headers.get("authorization")
    if header is None:
        state.actor = None
        state.credential_id = None
        return
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise _unauthorized("send the token as 'Authorization: Bearer <token>'")
    authenticator: Authenticator = connection.app.state.services.auth
    found = authenticator.cached(token)
    if found is None:
        found = await anyio.to_thread.run_sync(authenticator.authenticate, token)
    if found is None:
        raise _unauthorized("the token is not valid")
    state.actor, state.credential_id = found


async def signed_in(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    if connection.state.actor is None:
        raise _unauthorized("this needs a bearer token")


async def admin_only(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    await signed_in(connection, handler)
    policy.check_admin(connection.state.actor)


# a route's ``opt``: what ``service.http.admit`` checks after ``authenticate``
SIGNED_IN: dict[str, Guard] = {"needs": signed_in}
ADMIN_ONLY: dict[str, Guard] = {"needs": admin_only}
