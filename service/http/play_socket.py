"""A seat's play socket: ``/games/{id}/me/socket``, a WebSocket that sends moves and carries their
answers and every later view of the seat (docs/api.md, "The play socket").

The HTTP POST and the SSE stream cost a move the server's and the framework's work per request
(docs/speed.md); a socket pays it once. It is the same game otherwise:

- **who**: checked once, at the opening, as the seat's SSE stream checks it (a bearer
  ``Authorization`` header, else the pages' session cookie: ``service.auth.sessions``), and the
  seat the same way (``policy.seat_to_see``: one's own; officials name it with ``?seat=``). A
  cookie speaks for the socket only when the ``Origin`` is this site: unlike the stream, a socket
  writes, and a browser sends the cookie with another site's socket too. A refused opening sends the
  problem+json as a ``problem`` message, then closes with code 4000 + its status (4401, 4403,
  4404, ...) and its code and detail as the reason;
- **moves**: each message is decoded and made as ``POST /games/{id}/moves`` makes it
  (``make_move``: the version rule, the idempotency key scoped to its sender, the refusals, the
  commit before the answer), one at a time, in the order sent; a refusal is a ``problem`` message
  and the socket stays open (``service.http.socket_messages``);
- **views**: pushed by the same live fold as the SSE stream (``LiveGames.follow``), the same bytes;
  the last is the finished match's, and the socket stays open until the client closes it;
- **logs and metrics**: a line and a count for the opening (``GET``, 101 or its refusal's status) and
  for each message (``WS``), on the request log and metrics every HTTP request has.
"""

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit
from uuid import UUID

import anyio
import anyio.to_thread
from litestar import WebSocket, websocket
from litestar.exceptions import ValidationException, WebSocketDisconnect

from service.auth.sessions import signed_in_or_session
from service.domain.roles import Actor
from service.http.auth import authenticate
from service.http.errors import Problem, problem
from service.http.params import GameId
from service.http.socket_messages import answer, command, problem_of, received, refusal, view
from service.http.streaming import KEEP_ALIVE_SECONDS
from service.observability.logs import REQUEST_ID
from service.observability.requests import answered
from service.projections.live import LiveGames
from service.usecases import policy
from service.usecases.games import make_move
from service.usecases.queries import games as game_queries
from service.usecases.services import Services

PATH = "/games/{game_id:uuid}/me/socket"
ROUTE = "/games/{game_id}/me/socket"  # as the metrics and the log name a route
REASON_BYTES = 123  # the most a close frame's reason may carry
GONE = (WebSocketDisconnect, OSError)  # the client left while something was sent to it

Send = Callable[[bytes], Awaitable[None]]

log = logging.getLogger(__name__)


@websocket(PATH, name="play-socket")
async def play_socket(socket: WebSocket[Any, Any, Any], game_id: GameId) -> None:
    await socket.accept()
    services: Services = socket.app.state.services
    started = time.perf_counter()
    token = REQUEST_ID.set(os.urandom(16).hex())
    try:
        actor, seat = await _opened(socket, services, game_id)
    except Exception as error:
        found = error.found if isinstance(error, _Refused) else problem_of(error)
        _observed("GET", found.status, started, socket.state.get("actor"))
        with contextlib.suppress(*GONE):
            await socket.send_data(refusal(None, found).decode())
            await socket.close(4000 + found.status, _reason(found))
        return
    else:
        _observed("GET", 101, started, actor)
    finally:
        REQUEST_ID.reset(token)
    lock = asyncio.Lock()

    async def send(data: bytes) -> None:
        async with lock:  # the answers and the pushed views share the socket
            await socket.send_data(data.decode())

    async with anyio.create_task_group() as group:
        group.start_soon(_push, socket, services.live, game_id, seat, send)
        try:
            await _serve(socket, services, actor, game_id, send)
        finally:
            group.cancel_scope.cancel()


async def _opened(socket: WebSocket[Any, Any, Any], services: Services, game_id: UUID) -> tuple[Actor, int]:
    """Who opened the socket, and the seat whose view it carries (the SSE stream's checks)."""
    await authenticate(socket, socket.route_handler)
    await signed_in_or_session(socket, socket.route_handler)
    actor: Actor = socket.state.actor
    if "authorization" not in socket.headers and not _same_site(socket):
        raise _Refused(problem("forbidden", "a session's socket opens from this site's own pages only"))
    asked = socket.query_params.get("seat")
    if asked is not None and not (asked.isascii() and asked.isdigit()):
        message = "Expected `int` >= 0"  # as the stream's ``?seat=`` says it
        raise ValidationException(
            detail=f"seat: {message}", extra=[{"message": message, "key": "seat", "source": "query"}]
        )
    facts = await anyio.to_thread.run_sync(game_queries.facts, services, game_id)
    seat = await anyio.to_thread.run_sync(
        policy.seat_to_see, services, actor, facts, None if asked is None else int(asked)
    )
    return actor, seat


class _Refused(Exception):
    """An opening refused with a problem of the socket's own (no rule of the game's)."""

    def __init__(self, found: Problem) -> None:
        super().__init__(found.detail)
        self.found = found


def _same_site(socket: WebSocket[Any, Any, Any]) -> bool:
    """The ``Origin`` a browser sends names this server (the ``Host`` it asked for)."""
    origin = socket.headers.get("origin")
    return origin is not None and urlsplit(origin).netloc == socket.headers.get("host")


async def _serve(
    socket: WebSocket[Any, Any, Any], services: Services, actor: Actor, game_id: UUID, send: Send
) -> None:
    """Each message in turn, answered before the next is read, until the client leaves."""
    try:
        while True:
            event = await socket.receive()
            if event["type"] != "websocket.receive":
                return
            await send(await _made(services, actor, game_id, event.get("text") or event.get("bytes") or ""))
    except GONE:
        return


async def _made(services: Services, actor: Actor, game_id: UUID, data: str | bytes) -> bytes:
    """One message's move, made as the POST makes it: its answer or its refusal, encoded."""
    token = REQUEST_ID.set(os.urandom(16).hex())
    started = time.perf_counter()
    key = None
    try:
        sent = received(data)
        key = sent.key
        result = await anyio.to_thread.run_sync(make_move, services, actor, game_id, command(sent), key)
        reply, status = answer(key, result), 200
    except Exception as error:
        found = problem_of(error)
        reply, status = refusal(key, found), found.status
    _observed("WS", status, started, actor)
    REQUEST_ID.reset(token)
    return reply


async def _push(
    socket: WebSocket[Any, Any, Any], live: LiveGames, game_id: UUID, seat: int, send: Send
) -> None:
    """The seat's views, as the live fold pushes them (``service.http.stream.seat_views``' source)."""
    # followed here: the socket's end (the client gone) always lets go of it
    try:
        subscription = await anyio.to_thread.run_sync(live.follow, game_id, seat, asyncio.get_running_loop())
    except Exception:
        log.exception("a play socket's game could not be followed")
        await _broken(socket)
        return
    try:
        while True:
            found = await subscription.next(KEEP_ALIVE_SECONDS)
            if found is None:
                continue  # the socket's own pings keep it open
            if not found.data:  # the live fold lost the game (logged there)
                await _broken(socket)
                return
            await send(view(found.version, found.data))
            if found.over:
                return
    except GONE:
        return
    finally:
        live.leave(subscription)


async def _broken(socket: WebSocket[Any, Any, Any]) -> None:
    """No view can come: the socket is closed (1011), as the SSE stream ends, for the client to open anew."""
    with contextlib.suppress(*GONE):
        await socket.close(1011, "the game could not be followed: open the socket again")


def _reason(found: Problem) -> str:
    return f"{found.code}: {found.detail}".encode()[:REASON_BYTES].decode(errors="ignore")


def _observed(method: str, status: int, started: float, actor: Actor | None) -> None:
    role = getattr(actor, "role", None) or "anonymous"
    answered(ROUTE, method, status, started, REQUEST_ID.get() or "", role)
