"""The security headers on every answer, pages and API alike (``docs/web.md``).

- ``Content-Security-Policy``: everything from the service itself only; no inline script or style
  (the pages have none: their scripts and stylesheet are files under ``/web/static``), no plugin,
  no ``<base>``, forms post to the service only, and no other site may frame a page;
- ``X-Frame-Options: DENY``: the same for browsers that do not read ``frame-ancestors``;
- ``X-Content-Type-Options: nosniff``: a CSV, a ``text/plain`` record or a JSON answer is never
  taken for a page or a script, whatever a player typed into it;
- ``Referrer-Policy: same-origin``: an address of the service (a game, a player) is not told to
  another site a link leads to.

A handler that sets one of these itself keeps its own.
"""

from typing import Any

from litestar.types import HTTPScope, Message, Receive, Send

from service.observability.requests import HttpMiddleware

POLICY = "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)


class SecurityHeaders(HttpMiddleware):
    async def serve(self, scope: HTTPScope, receive: Receive, send: Send) -> None:
        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers: list[Any] = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in HEADERS if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)
