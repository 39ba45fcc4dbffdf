"""The one stream machinery of every game kind: Server-Sent Events encoded once, and the loop that
follows a game in the store (``follow``).

A stream is woken whenever the game may have changed (``LiveGames.watch``: the store's notes, or
on SQLite this process's saves and a look every ``live.POLL_SECONDS``), reads what came after the
last message it sent (the kind's ``Read``, in a thread), sends it, and waits again; a comment goes
out when nothing has changed for ``KEEP_ALIVE_SECONDS``, so that proxies keep the connection, and
the stream ends once the kind's read says the match is over and everything is sent. A kind gives
only its read: the public events after a number (``service.http.stream``, ``service.http.mao.stream``),
or a seat's view after a version (a Mao seat's; a card game's seat views are pushed by the live
fold instead, ``service.http.stream.seat_views``). The routes: a kind's public events stream is
``events_stream``'s, a seat's view stream takes ``views_route``'s arguments.
"""

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar import Controller, get
from litestar.handlers import HTTPRouteHandler
from litestar.response import ServerSentEvent, Stream

from service.auth.sessions import SIGNED_IN_OR_SESSION
from service.http.consistency import READS_STORE
from service.http.errors import problems
from service.http.params import GameId, LastEventId
from service.http.routes import public_route
from service.http.security import BEARER
from service.http.services import ServicesDep
from service.projections.live import LiveGames
from service.projections.subscriptions import Waiter
from service.usecases.services import Services

KEEP_ALIVE_SECONDS = 15.0

_SSE = "text/event-stream"


WAITING = b": waiting\r\ndata: \r\n\r\n"  # as litestar's comment: an empty message no client acts on


class EncodedEvents(ServerSentEvent):
    """Server-Sent Events whose messages come encoded already (``message``, ``WAITING``).

    litestar's own stream makes a message object of each item and encodes it through a buffer: for
    the view streams, which every move pushes to each seat, that was a fifth of an API worker's time
    (docs/speed.md). The headers are ``ServerSentEvent``'s.
    """

    def __init__(self, content: AsyncIterator[bytes]) -> None:
        Stream.__init__(self, content=content, media_type=_SSE)
        self.headers.setdefault("Cache-Control", "no-cache")
        self.headers["Connection"] = "keep-alive"
        self.headers["X-Accel-Buffering"] = "no"


def message(number: int, kind: str, data: bytes) -> bytes:
    """What litestar's ``ServerSentEventMessage(data=..., id=str(number), event=kind)`` encodes to. The
    data is compact JSON, which has no line break to split (a string's own is written ``\\n``), and a
    kind is an event's type or ``view``."""
    return b"id: %d\r\nevent: %s\r\ndata: %s\r\n\r\n" % (number, kind.encode(), data)


class Batch:
    """What one read found: its messages (encoded, one after another), the number the next read
    starts after, and whether to read again at once (a full page) or to stop (the match is over and
    nothing is left to send)."""

    __slots__ = ("ended", "last", "messages", "more")

    def __init__(self, messages: bytes, last: int, *, more: bool = False, ended: bool = False) -> None:
        self.messages = messages
        self.last = last
        self.more = more
        self.ended = ended


# a kind's read: what came after a number, for this waiter's game (blocking: run in a thread)
Read = Callable[[Waiter, int], Batch]


async def streamed(
    live: LiveGames, game_id: UUID, after: int, read_of: Callable[[], Read]
) -> ServerSentEvent:
    """The stream of the game's messages after ``after``. ``read_of`` (in a thread) finds the game and
    checks the asker, so that a refusal answers before the stream opens, and gives the kind's read."""
    read = await anyio.to_thread.run_sync(read_of)
    return EncodedEvents(follow(live, game_id, after, read))


async def follow(live: LiveGames, game_id: UUID, after: int, read: Read) -> AsyncIterator[bytes]:
    """The game's messages after ``after`` as ``read`` finds them, live, until it says the end."""
    waiter = live.watch(game_id, asyncio.get_running_loop())
    try:
        while True:
            waiter.clear()
            batch = await anyio.to_thread.run_sync(read, waiter, after)
            if batch.messages:
                yield batch.messages
            after = batch.last
            if batch.more:
                continue
            if batch.ended:
                return
            if not await waiter.changed(KEEP_ALIVE_SECONDS):
                yield WAITING
    finally:
        live.unwatch(waiter)


def events_stream(
    operation_id: str, summary: str, read_of: Callable[[Services, UUID], Read]
) -> HTTPRouteHandler:
    """A controller's ``GET .../stream``: a game's public events, for anyone, resumed after
    ``Last-Event-ID``. ``read_of`` finds the game (else 404) and gives its kind's read."""

    @get(
        "/stream",
        **public_route(404, reads_store=True, threaded=False),
        operation_id=operation_id,
        summary=summary,
        media_type=_SSE,
        response_description="a message per event: id (its number), event (its type), data (it as JSON)",
    )
    async def stream(
        self: Controller, services: ServicesDep, game_id: GameId, last_event_id: LastEventId = None
    ) -> ServerSentEvent:
        return await streamed(services.live, game_id, last_event_id or 0, lambda: read_of(services, game_id))

    return stream


def views_route(operation_id: str, summary: str, view: str) -> dict[str, Any]:
    """The route arguments of a stream of a seat's view (the one ``GET {view}`` answers): for the seated
    player, or an official naming the seat; a browser's ``EventSource`` sends no bearer header, so the
    pages' session cookie is taken too."""
    return {
        "operation_id": operation_id,
        "opt": {**SIGNED_IN_OR_SESSION, **READS_STORE},
        "summary": summary,
        "description": (
            f"The same view as `GET {view}`, first as it is now, then each time a command changes "
            "the game, until the match is over. Message `id`: the game's version; `event`: `view`."
        ),
        "media_type": _SSE,
        "response_description": "a message per view: id (the game's version), event (view), data (the view)",
        "responses": problems(403, 404, 422),
        "security": BEARER,
    }
