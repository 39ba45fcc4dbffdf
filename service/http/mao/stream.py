"""A Mao match, live, as Server-Sent Events: its public facts, and a seat's own view. The loop, the
keep-alive and the end are every kind's (``service.http.streaming.follow``); this module gives the
match's reads.

``/stream``: each fact as the public sees it (what ``GET /mao-games/{id}/events`` answers an
anonymous caller: no card of any hand, the rule only once revealed), one message each: ``id`` the
fact's number, ``event`` its type, ``data`` the log's entry. ``Last-Event-ID`` resumes after that
fact; the stream ends after ``MatchEnded``.

``/me/stream``: the seat's view (what ``GET /mao-games/{id}/me`` answers, with its access rule),
first as it is now, then anew each time the match's version changes: ``id`` the version, ``event``
``view``; it ends after the view of the finished match.

At each change every stream of the match shares one read of it (``LiveGames.shared``), which folds
it from its start and encodes its public log once.
"""

from uuid import UUID

import anyio.to_thread
import msgspec
from litestar import get
from litestar.response import ServerSentEvent

from service.http.controller import ApiController
from service.http.params import GameId, LastEventId, SeatToSee
from service.http.services import CallerDep, ServicesDep
from service.http.streaming import EVENTS_ROUTE, VIEWS_ROUTE, Batch, EncodedEvents, Read, follow, message
from service.projections.subscriptions import Waiter
from service.usecases.queries import mao
from service.usecases.services import Services

_encode = msgspec.json.Encoder().encode

WHOLE_LOG = 0  # the key of the match's one shared read: every stream asks for all of it


class _Shared:
    """The match as its streams read it at a change, and its public messages, encoded once."""

    __slots__ = ("match", "messages")

    def __init__(self, match: mao.LiveMatch) -> None:
        self.match = match
        self.messages = [message(entry["number"], entry["type"], _encode(entry)) for entry in match.public]


def _read(services: Services, game_id: UUID, waiter: Waiter) -> _Shared:
    return services.live.shared(waiter, WHOLE_LOG, lambda: _Shared(mao.live(services, game_id)))


def public_facts(services: Services, game_id: UUID) -> Read:
    def read(waiter: Waiter, after: int) -> Batch:
        found = _read(services, game_id, waiter)
        messages = found.messages[after:]
        return Batch(b"".join(messages), after + len(messages), ended=found.match.over)

    return read


def seat_views(services: Services, game_id: UUID, seat: int) -> Read:
    def read(waiter: Waiter, version: int) -> Batch:
        match = _read(services, game_id, waiter).match
        if match.version <= version:
            return Batch(b"", version, ended=match.over)
        view = message(match.version, "view", _encode(match.view(seat)))
        return Batch(view, match.version, ended=match.over)

    return read


class MaoStreamController(ApiController, path="/mao-games/{game_id:uuid}", tag="mao"):
    @get(
        "/stream",
        operation_id="streamMaoEvents",
        summary="The match's events as the public sees them, as Server-Sent Events, live, until it is "
        "over (public)",
        **EVENTS_ROUTE,
    )
    async def stream(
        self, services: ServicesDep, game_id: GameId, last_event_id: LastEventId = None
    ) -> ServerSentEvent:
        await anyio.to_thread.run_sync(mao.match, services, game_id)  # 404 before the stream opens
        read = public_facts(services, game_id)
        return EncodedEvents(follow(services.live, game_id, last_event_id or 0, read))

    @get(
        "/me/stream",
        operation_id="streamMyMaoView",
        summary="A seat's view (hand, table, penalties) as Server-Sent Events, anew at every change",
        description=(
            "The same view as `GET /mao-games/{id}/me`, first as it is now, then each time the match "
            "changes, until it is over. Message `id`: the match's version; `event`: `view`."
        ),
        **VIEWS_ROUTE,
    )
    async def my_view(self, caller: CallerDep, game_id: GameId, seat: SeatToSee = None) -> ServerSentEvent:
        services = caller.services
        seat = await anyio.to_thread.run_sync(mao.followed_seat, services, caller.actor, game_id, seat)
        return EncodedEvents(follow(services.live, game_id, 0, seat_views(services, game_id, seat)))
