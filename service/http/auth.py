"""Who is asking: a bearer token to an ``Actor``, checked once per request before the handler.

No ``Authorization`` header: the request is anonymous (``actor`` None), which
the public reads allow. A header that is not ``Bearer <valid token>``: 401
``unauthorized``, on every route, so a client learns at once that its token
is wrong. Tokens are ``mm_<credential id>_<secret>`` (``service.domain.credential``):
one credential is loaded by id and the secret's hash compared in constant time
(``service.auth.tokens.Authenticator``, which the pages' sessions use too).
``MAUMAU_ADMIN_TOKEN``, when set, is an admin token too (compared by hash).

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

from typing import Any

import anyio.to_thread
from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler
from litestar.types import Guard

from service.auth.checks import signed_in
from service.auth.tokens import Authenticator
from service.domain.errors import RuleError
from service.usecases import policy


async def authenticate(connection: ASGIConnection[Any, Any, Any, Any], _handler: BaseRouteHandler) -> None:
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
        raise RuleError("unauthorized", why="bearer_scheme")
    authenticator: Authenticator = connection.app.state.services.auth
    found = authenticator.cached(token)
    if found is None:
        found = await anyio.to_thread.run_sync(authenticator.authenticate, token)
    if found is None:
        raise RuleError("unauthorized", why="token_not_valid")
    state.actor, state.credential_id = found


async def admin_only(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    await signed_in(connection, handler)
    policy.check_admin(connection.state.actor)


# a route's ``opt``: what ``service.http.admit`` checks after ``authenticate``
SIGNED_IN: dict[str, Guard] = {"needs": signed_in}
ADMIN_ONLY: dict[str, Guard] = {"needs": admin_only}
