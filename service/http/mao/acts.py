"""What every act's route says of itself: a signed-in asker, an answer (no resource made), its
refusals; and what every act's handler takes: the act (``MaoActDep``). The acts are the use
cases' (``service.usecases.mao``)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any
from uuid import UUID

from litestar import post
from litestar.di import NamedDependency
from litestar.handlers import HTTPRouteHandler
from litestar.params import Body

from service.domain.mao.commands import Command
from service.domain.roles import Actor
from service.http.auth import SIGNED_IN
from service.http.errors import problems
from service.http.mao.schemas import SeatCreate
from service.http.params import GameId
from service.http.security import BEARER
from service.http.services import WriterDep
from service.usecases.mao import MaoActRead, deal, judge_act, seat_act
from service.usecases.services import Services

ACT_ROUTE: dict[str, Any] = {
    "opt": SIGNED_IN,
    "responses": problems(403, 404, 409, 415, 422),
    "security": BEARER,
    "status_code": 200,
    "sync_to_thread": True,
}


@dataclass(frozen=True, slots=True)
class MaoAct:
    """An act on a match: who asks, on which match, with which ``Idempotency-Key``; each act's
    ``request`` is what a key sent again is checked against."""

    services: Services
    actor: Actor
    game_id: UUID
    key: str | None

    def by_seat(
        self, seat: int | None, make: Callable[[int], Command], *request: Any, is_play: bool = False
    ) -> MaoActRead:
        return seat_act(self.services, self.actor, self.game_id, seat, make, self.key, request, is_play)

    def by_judge(self, make: Callable[[], Command], *request: Any) -> MaoActRead:
        return judge_act(self.services, self.actor, self.game_id, make, self.key, request)

    def deal(self, deck: list[str] | None, *request: Any) -> MaoActRead:
        return deal(self.services, self.actor, self.game_id, deck, self.key, request)


def provide_mao_act(game_id: GameId, writer: WriterDep) -> MaoAct:
    return MaoAct(writer.services, writer.actor, game_id, writer.key)


# a handler takes it last: the document names the match's id, then the key, after its own parameters
MaoActDep = NamedDependency[MaoAct]


# the body of an act that says nothing but who acts
SeatOnly = Annotated[SeatCreate, Body()]


def seat_act_route(
    path: str,
    operation_id: str,
    summary: str,
    make: Callable[[int, Any], Command],
    body: Any = SeatOnly,
    *,
    is_play: bool = False,
) -> HTTPRouteHandler:
    """The route of a seat's act: ``make`` makes its command from the seat acting (a player's own,
    or the one an official names) and the body (``body``: its type, with its examples); a key sent
    again is checked against the route's name and the body."""
    name = path.strip("/")

    def act_for_seat(self: object, data: Any, act: MaoActDep) -> MaoActRead:
        return act.by_seat(data.seat, lambda seat: make(seat, data), name, data, is_play=is_play)

    # litestar documents and decodes the body by the handler's annotation
    act_for_seat.__annotations__["data"] = body
    act_for_seat.__name__ = act_for_seat.__qualname__ = name
    return post(path, operation_id=operation_id, summary=summary, **ACT_ROUTE)(act_for_seat)


def judge_act_route(
    path: str, operation_id: str, summary: str, make: Callable[[], Command]
) -> HTTPRouteHandler:
    """The route of the judge's act that says nothing more (approve, refuse): a key sent again is
    checked against the route's last part."""
    name = path.rpartition("/")[2]

    def act_as_judge(self: object, act: MaoActDep) -> MaoActRead:
        return act.by_judge(make, name)

    act_as_judge.__name__ = act_as_judge.__qualname__ = name
    return post(path, operation_id=operation_id, summary=summary, **ACT_ROUTE)(act_as_judge)
