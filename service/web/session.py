"""Browser sessions: a person signs in once with their token and carries an encrypted cookie.

The cookie is litestar's client-side session (AES-GCM: signed and sealed, HttpOnly, SameSite=Lax,
``Secure`` over HTTPS) holding the bearer token, the id of the session's row on the server
(``service.persistence.sessions``) and the session's form token. Every page request checks both
again: the row must still be open (signing out, or the player ending it from their page, deletes
it, so a copy of the cookie is worth nothing after) and the token valid with the API's own
``Authenticator`` (a revoked token ends the session at the next request, as it ends the bearer
API's). Only the pages' router runs the session middleware: the JSON API neither reads nor sets
the cookie.

Forms are protected against cross-site requests with a synchronizer token: the session keeps a
random ``csrf`` value, every form sends it back in a hidden field, and a post whose field is not
the session's is refused with 403 ``csrf_failed`` before anything changes. Signing in is such a
post too: a sign-in link only offers its token (``offer``), which the form then sends.

``Secure``: with ``MAUMAU_SECURE_COOKIES=yes`` always; by default when the request came over HTTPS,
as uvicorn sees it (directly, or through a proxy it trusts with ``--forwarded-allow-ips``).

The key: ``MAUMAU_SESSION_SECRET``, else a random one made on first use and kept in
``MAUMAU_DATA_DIR/session.secret`` (readable by its owner only), so sessions outlive a restart.
"""

import dataclasses
import hashlib
import hmac
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar import Request
from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler
from litestar.middleware import DefineMiddleware
from litestar.middleware.session.base import SessionMiddleware
from litestar.middleware.session.client_side import ClientSideSessionBackend, CookieBackendConfig
from litestar.types import ASGIApp, Guard, Message, ScopeSession

from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.http.auth import signed_in
from service.http.services import Services
from service.settings import Settings

SECRET_FILE = "session.secret"
COOKIE = "maumau_session"
CSRF_FIELD = "csrf"
SESSION_FIELD = "session"  # the cookie's name for its row on the server
OFFERED_FIELD = "offered"  # a sign-in link's token, until the form sends it
TWO_WEEKS = 14 * 24 * 3600
# the User-Agent's marks of a browser and of a system, the first found naming it: the more
# specific first (Edge's says Chrome too, Android's says Linux, an iPhone's "like Mac OS X")
BROWSERS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iOS"),
    ("iPad", "iPadOS"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Linux", "Linux"),
)


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


def over_https(connection: ASGIConnection[Any, Any, Any, Any]) -> bool:
    return connection.scope.get("scheme") == "https"


def secure_cookie(connection: ASGIConnection[Any, Any, Any, Any]) -> bool:
    """Whether a cookie set in answer to this request is ``Secure``."""
    services: Services = connection.app.state.services
    return services.settings.secure_cookies == "yes" or over_https(connection)


class SealedCookies(ClientSideSessionBackend):
    """litestar's sealed session cookie, ``Secure`` also on a request that came over HTTPS."""

    def __init__(self, config: CookieBackendConfig) -> None:
        super().__init__(config)
        self._secure = ClientSideSessionBackend(dataclasses.replace(config, secure=True))

    async def store_in_message(
        self, scope_session: ScopeSession, message: Message, connection: ASGIConnection[Any, Any, Any, Any]
    ) -> None:
        if not self.config.secure and over_https(connection):
            await self._secure.store_in_message(scope_session, message, connection)
        else:
            await super().store_in_message(scope_session, message, connection)


def session_middleware(settings: Settings) -> DefineMiddleware:
    # the backend (its cipher) is made when the route is built: litestar copies a router deeply, and
    # a cipher cannot be copied
    return DefineMiddleware(_with_sessions, config=session_config(settings))


def _with_sessions(app: ASGIApp, config: CookieBackendConfig) -> ASGIApp:
    return SessionMiddleware(app, backend=SealedCookies(config))


def kept(request: Request[Any, Any, Any]) -> dict[str, Any]:
    """What the session cookie holds (nothing once the session was cleared in this request)."""
    found = request.session
    return found if isinstance(found, dict) else {}


def form_token(request: Request[Any, Any, Any]) -> str:
    """The session's form token, made on first need."""
    token = kept(request).get(CSRF_FIELD)
    if not token:
        token = secrets.token_urlsafe(32)
        request.set_session({**kept(request), CSRF_FIELD: token})
    return token


async def checked_form(request: Request[Any, Any, Any]) -> dict[str, str]:
    """The posted form, once its token is the session's; a cross-site post is refused."""
    form = await request.form()
    sent = form.get(CSRF_FIELD)
    own = kept(request).get(CSRF_FIELD)
    if not isinstance(sent, str) or not own or not hmac.compare_digest(sent, own):
        raise RuleError("csrf_failed", "the form's token is missing or not this session's: reload the page")
    return {name: value for name, value in form.items() if isinstance(value, str)}


async def signed_in_actor(request: Request[Any, Any, Any]) -> Actor | None:
    """Who the session speaks for; a session ended or a token no longer valid (revoked) ends it here."""
    actor = await _speaks_for(request.app.state.services, kept(request))
    if actor is None and kept(request).get("token"):
        request.clear_session()
    return actor


async def _speaks_for(services: Services, session: Mapping[str, Any]) -> Actor | None:
    token, session_id = session.get("token"), _as_id(session.get(SESSION_FIELD))
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


def _as_id(value: Any) -> UUID | None:
    try:
        return UUID(value) if isinstance(value, str) else None
    except ValueError:
        return None


def device(user_agent: str) -> tuple[str, str]:
    """The browser and the system a ``User-Agent`` names, a word each ("" for one it names not)."""
    browser = next((name for mark, name in BROWSERS if mark in user_agent), "")
    system = next((name for mark, name in SYSTEMS if mark in user_agent), "")
    return browser, system


async def sign_in(request: Request[Any, Any, Any], token: str) -> Actor:
    """A new session for the token's holder, its row on the server; this browser's one before, ended."""
    services: Services = request.app.state.services
    token = token.strip()
    before = _as_id(kept(request).get(SESSION_FIELD))
    browser, system = device(request.headers.get("user-agent", ""))

    def open_session() -> tuple[Actor, UUID] | None:
        found = services.auth.authenticate(token)
        if found is None:
            return None
        if before is not None:
            services.sessions.end(before)
        return found[0], services.sessions.open(found[0], found[1], browser, system)

    opened = await anyio.to_thread.run_sync(open_session)
    if opened is None:
        raise RuleError("unauthorized", "the token is not valid")
    actor, session_id = opened
    # a new form token with the new session: one seen before signing in is worth nothing after
    request.set_session(
        {"token": token, SESSION_FIELD: str(session_id), CSRF_FIELD: secrets.token_urlsafe(32)}
    )
    return actor


async def sign_out(request: Request[Any, Any, Any]) -> None:
    """End this browser's session on the server (every copy of its cookie with it) and forget it."""
    services: Services = request.app.state.services
    session_id = _as_id(kept(request).get(SESSION_FIELD))
    if session_id is not None:
        await anyio.to_thread.run_sync(services.sessions.end, session_id)
    request.clear_session()


def current_session(request: Request[Any, Any, Any]) -> UUID | None:
    """The id of this browser's session on the server, if it has one."""
    return _as_id(kept(request).get(SESSION_FIELD))


async def offer(request: Request[Any, Any, Any], token: str) -> None:
    """Keep a sign-in link's token for the form to send: a link alone signs nobody in, so another site
    cannot sign a browser in as somebody else. A token that is not valid is refused at once."""
    services: Services = request.app.state.services
    token = token.strip()
    found = services.auth.cached(token) or await anyio.to_thread.run_sync(services.auth.authenticate, token)
    if found is None:
        raise RuleError("unauthorized", "the token is not valid")
    request.set_session({**kept(request), OFFERED_FIELD: token})


async def offered(request: Request[Any, Any, Any]) -> tuple[Actor, UUID | None] | None:
    """The holder and credential of the token a sign-in link offered, while it is valid."""
    token = kept(request).get(OFFERED_FIELD)
    if not isinstance(token, str):
        return None
    services: Services = request.app.state.services
    return services.auth.cached(token) or await anyio.to_thread.run_sync(services.auth.authenticate, token)


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
    return await _speaks_for(state.services, await backend.load_from_connection(connection))


# a stream's ``opt``: what ``service.http.admit`` checks
SIGNED_IN_OR_SESSION: dict[str, Guard] = {"needs": signed_in_or_session}
