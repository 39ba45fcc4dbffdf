"""Who is asking: a bearer token to an ``Actor``, checked once per request by an app-wide guard.

No ``Authorization`` header: the request is anonymous (``actor`` None), which
the public reads allow. A header that is not ``Bearer <valid token>``: 401
``unauthorized``, on every route, so a client learns at once that its token
is wrong. Tokens are ``mm_<credential id>_<secret>`` (``service.domain.credential``):
one credential is loaded by id and the secret's hash compared in constant
time. ``MAUMAU_ADMIN_TOKEN``, when set, is an admin token too (compared by hash).

Accepted tokens are remembered for ``CACHE_SECONDS`` per process, keyed by
the token's hash; a revocation in this process forgets them at once, one in
another process is honoured within that time.
"""

import hmac
import threading
import time
from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from service.application import MauMau
from service.domain.credential import hash_secret, parse_token
from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.http import credentials

CACHE_SECONDS = 10.0
CACHE_SIZE = 10_000
ENV_ADMIN = Actor("admin", "env")


class Authenticator:
    def __init__(self, app: MauMau, admin_token: str | None = None) -> None:
        self.app = app
        self._admin_hash = hash_secret(admin_token) if admin_token else None
        self._cache: dict[str, tuple[Actor, UUID | None, float]] = {}
        self._lock = threading.Lock()

    def cached(self, token: str) -> Actor | None:
        """The actor of a token accepted a moment ago (no I/O), else None."""
        found = self._cache.get(hash_secret(token))
        if found is None or found[2] < time.monotonic():
            return None
        return found[0]

    def authenticate(self, token: str) -> Actor | None:
        """The actor the token speaks for, or None when it is not a valid token."""
        digest = hash_secret(token)
        if self._admin_hash is not None and hmac.compare_digest(digest, self._admin_hash):
            return ENV_ADMIN
        parsed = parse_token(token)
        if parsed is None:
            return None
        credential_id, secret = parsed
        credential = credentials.find(self.app, credential_id)
        if credential is None or not credential.accepts(secret):
            return None
        actor = credential.actor
        with self._lock:
            if len(self._cache) >= CACHE_SIZE:
                self._cache.clear()
            self._cache[digest] = (actor, credential_id, time.monotonic() + CACHE_SECONDS)
        return actor

    def forget(self, credential_id: UUID) -> None:
        with self._lock:
            for digest in [d for d, (_, cid, _) in self._cache.items() if cid == credential_id]:
                del self._cache[digest]


def _unauthorized(message: str) -> RuleError:
    return RuleError("unauthorized", message)


async def authenticate(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """The app-wide guard: sets ``connection.state.actor`` (None for an anonymous request)."""
    header = connection.headers.get("authorization")
    if header is None:
        connection.state.actor = None
        return
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise _unauthorized("send the token as 'Authorization: Bearer <token>'")
    authenticator: Authenticator = connection.app.state.services.auth
    actor = authenticator.cached(token)
    if actor is None:
        actor = await anyio.to_thread.run_sync(authenticator.authenticate, token)
    if actor is None:
        raise _unauthorized("the token is not valid")
    connection.state.actor = actor


# The guards are async, though they do no I/O: litestar runs a sync guard in a worker thread.


async def signed_in(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    if connection.state.actor is None:
        raise _unauthorized("this needs a bearer token")


async def admin_only(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    await signed_in(connection, handler)
    if connection.state.actor.role != "admin":
        raise RuleError("forbidden", "only an admin may do this")
