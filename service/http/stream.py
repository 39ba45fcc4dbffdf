"""A game, live, as Server-Sent Events: its public events, and a seat's own view.

``/stream``: the public events.

Each event is one message: ``id`` the event number, ``event`` its type,
``data`` the event as JSON, cut to what the public sees (no card of any
hand), the same for everyone, so that anyone may listen. A client that
reconnects sends ``Last-Event-ID`` and gets what came after. The stream ends
after the event that ends the match (and the reveal that follows it in the
same command); a stream opened on a finished game delivers its events and
ends. The log is read again when the game may have changed (the store's
note, ``service.projections.live``); a comment goes out when nothing has for
``KEEP_ALIVE_SECONDS``, so proxies keep the connection.

``/me/stream``: the seated player's view (what ``GET /games/{id}/me`` answers:
their hand, their legal moves, the public table), first as it is now, then
anew the moment a command changed it (``service.projections.live``), each a
message with ``id`` the game's version and ``event`` ``view``. A client
slower than the game gets the newest view and skips the ones between. It
ends after the view of the finished match. A bot follows it and moves when
its ``legal`` is not empty: one request per move, no polling. A browser's
``EventSource`` cannot send a bearer header: without one, the pages' session
cookie is honoured here (``service.auth.sessions.signed_in_or_session``), with
the same rule (the own seat; officials name one).
"""

import asyncio
from collections.abc import AsyncIterator
from typing import Annotated
from uuid import UUID

import anyio.to_thread
import msgspec
from litestar import get
from litestar.openapi.spec import Example
from litestar.params import HeaderParameter
from litestar.response import ServerSentEvent, Stream

from service.auth.sessions import SIGNED_IN_OR_SESSION
from service.domain.redaction import PUBLIC
from service.http.consistency import READS_STORE
from service.http.controller import ApiController
from service.http.errors import problems
from service.http.params import LARGEST, GameId, SeatToSee
from service.http.routes import public_route
from service.http.security import BEARER
from service.http.services import CallerDep, ServicesDep
from service.projections.live import LiveGames
from service.usecases import policy
from service.usecases.events import shown
from service.usecases.facts import GameFacts
from service.usecases.queries import games as game_queries
from service.usecases.services import Services

KEEP_ALIVE_SECONDS = 15.0
PAGE = 500


async def public_events(services: Services, facts: GameFacts, after: int) -> AsyncIterator[bytes]:
    encoder = msgspec.json.Encoder()
    live = services.live
    waiter = live.watch(facts.game_id, asyncio.get_running_loop())
    try:
        while True:
            waiter.clear()
            events = await anyio.to_thread.run_sync(live.events_after, waiter, after, PAGE)
            ended = False
            for event in shown(events, PUBLIC, facts):
                yield message(event.number, event.type, encoder.encode(event))
                after = event.number
                ended = ended or event.type == "MatchEnded"
            if len(events) == PAGE:
                continue
            if ended or (not events and await anyio.to_thread.run_sync(_over_at, services, facts, after)):
                return
            if not await waiter.changed(KEEP_ALIVE_SECONDS):
                yield WAITING
    finally:
        live.unwatch(waiter)


WAITING = b": waiting\r\ndata: \r\n\r\n"  # as litestar's comment: an empty message no client acts on


class EncodedEvents(ServerSentEvent):
    """Server-Sent Events whose messages come encoded already (``message``, ``WAITING``).

    litestar's own stream makes a message object of each item and encodes it through a buffer: for
    the view streams, which every move pushes to each seat, that was a fifth of an API worker's time
    (docs/speed.md). The headers are ``ServerSentEvent``'s.
    """

    def __init__(self, content: AsyncIterator[bytes]) -> None:
        Stream.__init__(self, content=content, media_type="text/event-stream")
        self.headers.setdefault("Cache-Control", "no-cache")
        self.headers["Connection"] = "keep-alive"
        self.headers["X-Accel-Buffering"] = "no"


def message(number: int, kind: str, data: bytes) -> bytes:
    """What litestar's ``ServerSentEventMessage(data=..., id=str(number), event=kind)`` encodes to. The
    data is compact JSON, which has no line break to split (a string's own is written ``\\n``), and a
    kind is an event's type or ``view``."""
    return b"id: %d\r\nevent: %s\r\ndata: %s\r\n\r\n" % (number, kind.encode(), data)


async def seat_views(live: LiveGames, game_id: UUID, seat: int) -> AsyncIterator[bytes]:
    # followed here, not in the handler: the stream's end (the client gone, the match over) always
    # lets go of it
    subscription = await anyio.to_thread.run_sync(live.follow, game_id, seat, asyncio.get_running_loop())
    try:
        while True:
            view = await subscription.next(KEEP_ALIVE_SECONDS)
            if view is None:
                yield WAITING
                continue
            if not view.data:
                return
            yield message(view.version, "view", view.data)
            if view.over:
                return
    finally:
        live.leave(subscription)


def _over_at(services: Services, facts: GameFacts, number: int) -> bool:
    """The match is over (or abandoned) and ``number`` is its last event (the game as it is now says)."""
    table = game_queries.table(services, facts.game_id)
    return (table.over or table.abandoned is not None) and table.version <= number


class StreamController(ApiController, path="/games/{game_id:uuid}", tag="log"):
    @get(
        "/stream",
        operation_id="streamGameEvents",
        summary="The game's public events as Server-Sent Events, live, until the match is over (public)",
        media_type="text/event-stream",
        response_description="a message per event: id (its number), event (its type), data (it as JSON)",
        **public_route(404, reads_store=True, threaded=False),
    )
    async def stream(
        self,
        services: ServicesDep,
        game_id: GameId,
        last_event_id: Annotated[
            int | None,
            HeaderParameter(
                name="Last-Event-ID",
                ge=0,
                le=LARGEST,
                # litestar leaves out a bound of 0 of an optional value, and writes 2**63 - 1 as 2**63
                schema_extra={"minimum": 0, "maximum": LARGEST},
                description="resume after this event number",
                examples=[Example(value=12)],
            ),
        ] = None,
    ) -> ServerSentEvent:
        facts = await anyio.to_thread.run_sync(game_queries.facts, services, game_id)
        return EncodedEvents(public_events(services, facts, last_event_id or 0))

    @get(
        "/me/stream",
        operation_id="streamMyView",
        opt={**SIGNED_IN_OR_SESSION, **READS_STORE},
        summary="My view (hand, legal moves, public table) as Server-Sent Events, anew at every change",
        description=(
            "The same view as `GET /games/{id}/me`, first as it is now, then each time a command changes "
            "the game, until the match is over. Message `id`: the game's version; `event`: `view`."
        ),
        media_type="text/event-stream",
        response_description="a message per view: id (the game's version), event (view), data (the view)",
        responses=problems(403, 404, 422),
        security=BEARER,
    )
    async def my_view(self, caller: CallerDep, game_id: GameId, seat: SeatToSee = None) -> ServerSentEvent:
        services, actor = caller.services, caller.actor
        facts = await anyio.to_thread.run_sync(game_queries.facts, services, game_id)
        seat = await anyio.to_thread.run_sync(policy.seat_to_see, services, actor, facts, seat)
        return EncodedEvents(seat_views(services.live, game_id, seat))
