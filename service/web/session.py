"""Browser sessions: a person signs in once with their token and carries an encrypted cookie.

The cookie is litestar's client-side session (AES-GCM: signed and sealed, HttpOnly, SameSite=Lax,
``Secure`` over HTTPS) holding the bearer token, the id of the session's row on the server
(``service.persistence.sessions``) and the session's form token. Every page request checks both
again: the row must still be open (signing out, or the player ending it from their page, deletes
it, so a copy of the cookie is worth nothing after) and the token valid with the API's own
``Authenticator`` (a revoked token ends the session at the next request, as it ends the bearer
API's). Only the pages' router runs the session middleware: the JSON API neither reads nor sets
the cookie.

A token made for the browser alone (the join page's, a password's or a one-time link's: its holder
never saw it) is revoked when the browser signs out, so no token nobody holds is left behind.

Forms are protected against cross-site requests with a synchronizer token: the session keeps a
random ``csrf`` value, every form sends it back in a hidden field, and a post whose field is not
the session's is refused with 403 ``csrf_failed`` before anything changes. Signing in is such a
post too: a sign-in link only offers its token (``offer``), which the form then sends.

``Secure``: with ``MAUMAU_SECURE_COOKIES=yes`` always; by default when the request came over HTTPS,
as uvicorn sees it (directly, or through a proxy it trusts with ``--forwarded-allow-ips``).

The cookie's key, and whom a session speaks for, are ``service.auth.sessions``'s (the API's live
stream of a seat's view takes the cookie too).
"""

import contextlib
import dataclasses
import hmac
import secrets
from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar import Request
from litestar.connection import ASGIConnection
from litestar.middleware import DefineMiddleware
from litestar.middleware.session.base import SessionMiddleware
from litestar.middleware.session.client_side import ClientSideSessionBackend, CookieBackendConfig
from litestar.types import ASGIApp, Message, ScopeSession

from service.auth.sessions import SESSION_FIELD, as_id, session_config, speaks_for
from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.settings import Settings
from service.usecases.services import Services
from service.usecases.tokens import revoke_token

CSRF_FIELD = "csrf"
OFFERED_FIELD = "offered"  # a sign-in link's token, until the form sends it
OWN_TOKEN_FIELD = (
    "own"  # the token was made for this browser (a password, a sign-in link): signing out revokes it
)
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
        raise RuleError("csrf_failed")
    return {name: value for name, value in form.items() if isinstance(value, str)}


async def signed_in_actor(request: Request[Any, Any, Any]) -> Actor | None:
    """Who the session speaks for; a session ended or a token no longer valid (revoked) ends it here."""
    actor = await speaks_for(request.app.state.services, kept(request))
    if actor is None and kept(request).get("token"):
        request.clear_session()
    return actor


def device(user_agent: str) -> tuple[str, str]:
    """The browser and the system a ``User-Agent`` names, a word each ("" for one it names not)."""
    browser = next((name for mark, name in BROWSERS if mark in user_agent), "")
    system = next((name for mark, name in SYSTEMS if mark in user_agent), "")
    return browser, system


async def sign_in(request: Request[Any, Any, Any], token: str, own: bool = False) -> Actor:
    """A new session for the token's holder, its row on the server; this browser's one before, ended.
    ``own``: the token was made for this browser alone, so signing out revokes it."""
    services: Services = request.app.state.services
    token = token.strip()
    before = as_id(kept(request).get(SESSION_FIELD))
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
        raise RuleError("unauthorized", why="token_not_valid")
    actor, session_id = opened
    # a new form token with the new session: one seen before signing in is worth nothing after
    request.set_session(
        {
            "token": token,
            SESSION_FIELD: str(session_id),
            CSRF_FIELD: secrets.token_urlsafe(32),
            **({OWN_TOKEN_FIELD: True} if own else {}),
        }
    )
    return actor


async def sign_out(request: Request[Any, Any, Any]) -> None:
    """End this browser's session on the server (every copy of its cookie with it) and forget it; a
    token made for this browser alone (signed in with a password or a link) is revoked too."""
    services: Services = request.app.state.services
    session_id = as_id(kept(request).get(SESSION_FIELD))
    if session_id is not None:
        await anyio.to_thread.run_sync(services.sessions.end, session_id)
    token = kept(request).get("token")
    if kept(request).get(OWN_TOKEN_FIELD) and isinstance(token, str):
        await anyio.to_thread.run_sync(_revoke_own, services, token)
    request.clear_session()


def _revoke_own(services: Services, token: str) -> None:
    found = services.auth.authenticate(token)
    if found is None or found[1] is None:
        return  # revoked already (by its holder, an admin, an erasure)
    with contextlib.suppress(RuleError):  # revoked meanwhile: what signing out wanted
        revoke_token(services, found[0], found[1])


def current_session(request: Request[Any, Any, Any]) -> UUID | None:
    """The id of this browser's session on the server, if it has one."""
    return as_id(kept(request).get(SESSION_FIELD))


async def offer(request: Request[Any, Any, Any], token: str) -> None:
    """Keep a sign-in link's token for the form to send: a link alone signs nobody in, so another site
    cannot sign a browser in as somebody else. A token that is not valid is refused at once."""
    services: Services = request.app.state.services
    token = token.strip()
    found = services.auth.cached(token) or await anyio.to_thread.run_sync(services.auth.authenticate, token)
    if found is None:
        raise RuleError("unauthorized", why="token_not_valid")
    request.set_session({**kept(request), OFFERED_FIELD: token})


async def offered(request: Request[Any, Any, Any]) -> tuple[Actor, UUID | None] | None:
    """The holder and credential of the token a sign-in link offered, while it is valid."""
    token = kept(request).get(OFFERED_FIELD)
    if not isinstance(token, str):
        return None
    services: Services = request.app.state.services
    return services.auth.cached(token) or await anyio.to_thread.run_sync(services.auth.authenticate, token)
