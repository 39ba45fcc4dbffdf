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

import msgspec
from litestar import get
from litestar.response import ServerSentEvent

from service.domain.roles import Actor
from service.http.controller import ApiController
from service.http.params import GameId, SeatToSee
from service.http.services import CallerDep
from service.http.streaming import Batch, Read, events_stream, message, streamed, views_route
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
    """The match's read for ``streaming.follow``: its facts after a number as the public sees them;
    the end once it is over."""
    mao.match(services, game_id)  # no such match: 404

    def read(waiter: Waiter, after: int) -> Batch:
        found = _read(services, game_id, waiter)
        messages = found.messages[after:]
        return Batch(b"".join(messages), after + len(messages), ended=found.match.over)

    return read


def seat_views(services: Services, actor: Actor, game_id: UUID, seat: int | None) -> Read:
    """The read of the seat's view (the asker's own; the one an official names) after a version: the
    view whenever the match's version is newer; the end after the view of the finished match."""
    followed = mao.followed_seat(services, actor, game_id, seat)

    def read(waiter: Waiter, version: int) -> Batch:
        match = _read(services, game_id, waiter).match
        if match.version <= version:
            return Batch(b"", version, ended=match.over)
        view = message(match.version, "view", _encode(match.view(followed)))
        return Batch(view, match.version, ended=match.over)

    return read


EVENTS_SUMMARY = (
    "The match's events as the public sees them, as Server-Sent Events, live, until it is over (public)"
)
VIEW_SUMMARY = "A seat's view (hand, table, penalties) as Server-Sent Events, anew at every change"


class MaoStreamController(ApiController, path="/mao-games/{game_id:uuid}", tag="mao"):
    stream = events_stream("streamMaoEvents", EVENTS_SUMMARY, public_facts)

    @get("/me/stream", **views_route("streamMyMaoView", VIEW_SUMMARY, "/mao-games/{id}/me"))
    async def my_view(self, caller: CallerDep, game_id: GameId, seat: SeatToSee = None) -> ServerSentEvent:
        def read_of() -> Read:
            return seat_views(caller.services, caller.actor, game_id, seat)

        return await streamed(caller.services.live, game_id, 0, read_of)
