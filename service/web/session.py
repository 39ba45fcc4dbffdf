"""Browser sessions: a person signs in once with their token and carries an encrypted cookie.

The cookie is litestar's client-side session (AES-GCM: signed and sealed, HttpOnly, SameSite=Lax)
holding the bearer token and the session's form token. Every page request checks the token again
with the API's own ``Authenticator``, so a revoked token ends the browser session at the next
request, as it ends the bearer API's. Only the pages' router runs the session middleware: the
JSON API neither reads nor sets the cookie.

Forms are protected against cross-site requests with a synchronizer token: the session keeps a
random ``csrf`` value, every form sends it back in a hidden field, and a post whose field is not
the session's is refused with 403 ``csrf_failed`` before anything changes.

The key: ``MAUMAU_SESSION_SECRET``, else a random one made on first use and kept in
``MAUMAU_DATA_DIR/session.secret`` (readable by its owner only), so sessions outlive a restart.
"""

import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import Any

import anyio.to_thread
from litestar import Request
from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler
from litestar.middleware import DefineMiddleware
from litestar.middleware.session.client_side import ClientSideSessionBackend, CookieBackendConfig
from litestar.types import ASGIApp, Guard

from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.http.auth import Authenticator, signed_in
from service.settings import Settings

SECRET_FILE = "session.secret"
COOKIE = "maumau_session"
CSRF_FIELD = "csrf"
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
    return CookieBackendConfig(secret=key, key=COOKIE, max_age=TWO_WEEKS, httponly=True, samesite="lax")


def session_middleware(settings: Settings) -> DefineMiddleware:
    # the backend (its cipher) is made when the route is built: litestar copies a router deeply, and
    # a cipher cannot be copied
    return DefineMiddleware(_with_sessions, config=session_config(settings))


def _with_sessions(app: ASGIApp, config: CookieBackendConfig) -> ASGIApp:
    made = config.middleware
    return made.middleware(app, *made.args, **made.kwargs)


def form_token(request: Request[Any, Any, Any]) -> str:
    """The session's form token, made on first need."""
    token = request.session.get(CSRF_FIELD)
    if not token:
        token = secrets.token_urlsafe(32)
        request.set_session({**request.session, CSRF_FIELD: token})
    return token


async def checked_form(request: Request[Any, Any, Any]) -> dict[str, str]:
    """The posted form, once its token is the session's; a cross-site post is refused."""
    form = await request.form()
    sent = form.get(CSRF_FIELD)
    kept = request.session.get(CSRF_FIELD)
    if not isinstance(sent, str) or not kept or not hmac.compare_digest(sent, kept):
        raise RuleError("csrf_failed", "the form's token is missing or not this session's: reload the page")
    return {name: value for name, value in form.items() if isinstance(value, str)}


async def signed_in_actor(request: Request[Any, Any, Any]) -> Actor | None:
    """Who the session speaks for; a token no longer valid (revoked) ends the session here."""
    token = request.session.get("token")
    if not token:
        return None
    authenticator: Authenticator = request.app.state.services.auth
    found = authenticator.cached(token) or await anyio.to_thread.run_sync(authenticator.authenticate, token)
    if found is None:
        request.clear_session()
        return None
    return found[0]


async def sign_in(request: Request[Any, Any, Any], token: str) -> Actor:
    authenticator: Authenticator = request.app.state.services.auth
    found = await anyio.to_thread.run_sync(authenticator.authenticate, token.strip())
    if found is None:
        raise RuleError("unauthorized", "the token is not valid")
    # a new form token with the new session: one seen before signing in is worth nothing after
    request.set_session({"token": token.strip(), CSRF_FIELD: secrets.token_urlsafe(32)})
    return found[0]


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
    token = (await backend.load_from_connection(connection)).get("token")
    if not isinstance(token, str):
        return None
    authenticator: Authenticator = state.services.auth
    found = authenticator.cached(token) or await anyio.to_thread.run_sync(authenticator.authenticate, token)
    return None if found is None else found[0]


# a stream's ``opt``: what ``service.http.admit`` checks
SIGNED_IN_OR_SESSION: dict[str, Guard] = {"needs": signed_in_or_session}
