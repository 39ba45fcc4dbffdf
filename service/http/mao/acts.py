"""What every act's route says of itself: a signed-in asker, an answer (no resource made), its
refusals; and what every act's handler takes: the act (``MaoActDep``). The acts are the use
cases' (``service.usecases.mao``)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from litestar.di import NamedDependency

from service.domain.mao.commands import Command
from service.domain.roles import Actor
from service.http.auth import SIGNED_IN
from service.http.errors import problems
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
