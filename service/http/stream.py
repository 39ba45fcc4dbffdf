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
``KEEP_ALIVE_SECONDS``, so proxies keep the connection: the one stream loop of
every game kind, ``service.http.streaming.follow``, with the card game's read.

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
from uuid import UUID

import anyio.to_thread
import msgspec
from litestar import get
from litestar.response import ServerSentEvent

from service.domain.redaction import PUBLIC
from service.http.controller import ApiController
from service.http.params import GameId, SeatToSee
from service.http.services import CallerDep
from service.http.streaming import (
    KEEP_ALIVE_SECONDS,
    WAITING,
    Batch,
    EncodedEvents,
    Read,
    events_stream,
    message,
    views_route,
)
from service.projections.live import LiveGames
from service.projections.subscriptions import Waiter
from service.usecases import policy
from service.usecases.events import shown
from service.usecases.facts import GameFacts
from service.usecases.queries import games as game_queries
from service.usecases.services import Services

PAGE = 500


def public_events(services: Services, game_id: UUID) -> Read:
    """The card game's read for ``streaming.follow``: its stored events after a number, a page at a
    time, as the public sees them; the end after ``MatchEnded`` (or once the game as it is now says it
    is over, and nothing is left)."""
    facts = game_queries.facts(services, game_id)
    encode = msgspec.json.Encoder().encode
    live = services.live

    def read(waiter: Waiter, after: int) -> Batch:
        events = live.events_after(waiter, after, PAGE)
        messages: list[bytes] = []
        ended = False
        for event in shown(events, PUBLIC, facts):
            messages.append(message(event.number, event.type, encode(event)))
            after = event.number
            ended = ended or event.type == "MatchEnded"
        if len(events) == PAGE:
            return Batch(b"".join(messages), after, more=True)
        ended = ended or (not events and _over_at(services, facts, after))
        return Batch(b"".join(messages), after, ended=ended)

    return read


async def seat_views(live: LiveGames, game_id: UUID, seat: int) -> AsyncIterator[bytes]:
    """A card game's seat views, as the live fold pushes them (``LiveGames.follow``)."""
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


EVENTS_SUMMARY = "The game's public events as Server-Sent Events, live, until the match is over (public)"
VIEW_SUMMARY = "My view (hand, legal moves, public table) as Server-Sent Events, anew at every change"


class StreamController(ApiController, path="/games/{game_id:uuid}", tag="log"):
    stream = events_stream("streamGameEvents", EVENTS_SUMMARY, public_events)

    @get("/me/stream", **views_route("streamMyView", VIEW_SUMMARY, "/games/{id}/me"))
    async def my_view(self, caller: CallerDep, game_id: GameId, seat: SeatToSee = None) -> ServerSentEvent:
        services, actor = caller.services, caller.actor
        facts = await anyio.to_thread.run_sync(game_queries.facts, services, game_id)
        seat = await anyio.to_thread.run_sync(policy.seat_to_see, services, actor, facts, seat)
        return EncodedEvents(seat_views(services.live, game_id, seat))
