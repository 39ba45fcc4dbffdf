"""A browser's session: its sealed cookie's key and settings, and whom it speaks for.

The pages (``service.web.session``) set and read the cookie; the API's live stream of a seat's
view takes it too, as a browser's ``EventSource`` cannot send a bearer header
(``SIGNED_IN_OR_SESSION``). The cookie holds the bearer token and the id of the session's row on
the server (``service.persistence.sessions``): the row must still be open and the token valid
(``service.auth.tokens``) for the session to speak for its holder.

The key: ``MAUMAU_SESSION_SECRET``, else a random one made on first use and kept in
``MAUMAU_DATA_DIR/session.secret`` (readable by its owner only), so sessions outlive a restart.
"""

import hashlib
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler
from litestar.middleware.session.client_side import ClientSideSessionBackend, CookieBackendConfig
from litestar.types import Guard

from service.auth.checks import signed_in
from service.domain.roles import Actor
from service.settings import Settings
from service.usecases.services import Services

SECRET_FILE = "session.secret"
COOKIE = "maumau_session"
SESSION_FIELD = "session"  # the cookie's name for its row on the server
TWO_WEEKS = 14 * 24 * 3600


def session_secret(settings: Settings) -> str:
    if settings.session_secret:
        return settings.session_secret
    path = settings.data_dir / SECRET_FILE
    if not path.exists():
        _write_once(path, secrets.token_urlsafe(48))
    return path.read_text().strip()


def _write_once(path: Path, secret: str) -> None:
    """The secret written whole beside ``path``, then linked there unless another process was first
    (theirs is the one): nobody ever reads a file half written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(secret)
    try:
        os.link(draft, path)
    except FileExistsError:
        pass
    finally:
        draft.unlink()


def session_config(settings: Settings) -> CookieBackendConfig:
    # AES-256 wants 32 bytes: any secret text of any length is hashed to them
    key = hashlib.sha256(session_secret(settings).encode()).digest()
    return CookieBackendConfig(
        secret=key,
        key=COOKIE,
        max_age=TWO_WEEKS,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies == "yes",
    )


async def speaks_for(services: Services, session: Mapping[str, Any]) -> Actor | None:
    token, session_id = session.get("token"), as_id(session.get(SESSION_FIELD))
    if not isinstance(token, str) or session_id is None:
        return None  # a cookie made before sessions had rows is no session any more

    def look_up() -> Actor | None:
        if services.sessions.live(session_id) is None:
            return None
        found = services.auth.cached(token) or services.auth.authenticate(token)
        if found is None:
            services.sessions.end(session_id)
            return None
        return found[0]

    return await anyio.to_thread.run_sync(look_up)


def as_id(value: Any) -> UUID | None:
    try:
        return UUID(value) if isinstance(value, str) else None
    except ValueError:
        return None


async def signed_in_or_session(
    connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler
) -> None:
    """The check for a GET stream a browser opens: an ``EventSource`` cannot send ``Authorization``, so
    without that header the session cookie may speak for the request. Only streams take it: a read
    changes nothing, so a cross-site request learns nothing it could not already make the browser
    fetch (and cannot read the answer). A bearer header, valid or not, is judged as everywhere."""
    if connection.state.actor is None and "authorization" not in connection.headers:
        connection.state.actor = await _cookie_actor(connection)
    await signed_in(connection, handler)


async def _cookie_actor(connection: ASGIConnection[Any, Any, Any, Any]) -> Actor | None:
    state = connection.app.state
    backend: ClientSideSessionBackend | None = state.get("session_backend")
    if backend is None:
        backend = ClientSideSessionBackend(config=session_config(state.services.settings))
        state.session_backend = backend
    return await speaks_for(state.services, await backend.load_from_connection(connection))


# a stream's ``opt``: what ``service.http.admit`` checks
SIGNED_IN_OR_SESSION: dict[str, Guard] = {"needs": signed_in_or_session}
