"""Every HTTP request: an id, one log line, the request metrics.

``RequestObserver`` wraps the litestar app's whole handler, outside its routing
and exception handling, so a 404 for a path no route has and every
problem+json refusal pass through it as well:

- the request id is the incoming ``X-Request-ID`` when it is a plain token (up
  to 128 letters, digits and ``-_.:``; anything else could forge log lines),
  else a new random one. It is in ``REQUEST_ID`` (so in every log line) while
  the request is served, and returned as ``X-Request-ID`` on every response;
- when the answer is sent, one line on the ``maumau.http`` logger: ``method``,
  ``route`` (the route's path template, ``unmatched`` without a route), ``status``,
  ``duration_ms``, ``request_id`` and ``role`` (the actor's role, ``anonymous``
  without a token). Never the raw path, the query, a header or a body: a token
  or a card must not reach a log;
- the request counter and latency histogram (``service.observability.metrics``).
"""

import logging
import os
import re
import time
from abc import ABC, abstractmethod
from typing import Any

from litestar.enums import ScopeType
from litestar.types import ASGIApp, HTTPScope, Message, Receive, Scope, Send

from service.observability.logs import REQUEST_ID
from service.observability.metrics import UNMATCHED, request_answered

HEADER = "x-request-id"
_HEADER = HEADER.encode()
_PLAIN = re.compile(rb"[A-Za-z0-9._:-]{1,128}")

log = logging.getLogger("maumau.http")


def request_id_of(scope: Scope) -> str:
    """The client's request id when it is a plain token, else a new one."""
    for name, value in scope.get("headers", ()):
        if name == _HEADER and _PLAIN.fullmatch(value):
            return value.decode()
    return os.urandom(16).hex()  # as random as uuid4's hex, at a fifth of its cost


def _role(scope: Scope) -> str:
    actor = (scope.get("state") or {}).get("actor")
    return getattr(actor, "role", None) or "anonymous"


class HttpMiddleware(ABC):
    """An ASGI middleware that sees HTTP requests only: lifespan and websocket scopes pass through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:  # a str enum: equal to "http"
            await self.app(scope, receive, send)
            return
        await self.serve(scope, receive, send)

    @abstractmethod
    async def serve(self, scope: HTTPScope, receive: Receive, send: Send) -> None: ...


class RequestObserver(HttpMiddleware):
    async def serve(self, scope: HTTPScope, receive: Receive, send: Send) -> None:
        request_id = request_id_of(scope)
        token = REQUEST_ID.set(request_id)
        started = time.perf_counter()
        status = 500  # what the client gets when no response starts

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers: list[Any] = [
                    (name, value) for name, value in message.get("headers", ()) if name.lower() != _HEADER
                ]
                headers.append((_HEADER, request_id.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = scope.get("path_template") or UNMATCHED
            answered(route, scope.get("method", ""), status, started, request_id, _role(scope))
            REQUEST_ID.reset(token)


def answered(route: str, method: str, status: int, started: float, request_id: str, role: str) -> None:
    """A request's metrics and its log line, ``started`` on ``time.perf_counter``'s clock (an HTTP
    request's, and each message of the play socket, ``service.http.play_socket``)."""
    seconds = time.perf_counter() - started
    request_answered(route, method, status, seconds)
    log.log(
        logging.WARNING if status >= 500 else logging.INFO,
        "request",
        extra={
            "method": method,
            "route": route,
            "status": status,
            "duration_ms": round(seconds * 1000, 2),
            "request_id": request_id,
            "role": role,
        },
    )
