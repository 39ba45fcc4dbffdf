"""A Mao match's rules and rounds: the judge writes the rule before the deal and deals; the round's
winner proposes the next rule; the judge approves or refuses it."""

import random
from typing import Annotated

from litestar import Controller, post, put
from litestar.openapi.spec import Example
from litestar.params import Body

from service.application.mao import shuffled_deck
from service.domain.cards import FULL_DECK, format_card
from service.domain.errors import RuleError
from service.domain.mao.aggregate import MaoGame
from service.domain.mao.commands import ApproveRule, DealRound, ProposeRule, RefuseRule, WriteRule
from service.domain.mao.rule import TEACHING_TEXT
from service.http.auth import SIGNED_IN
from service.http.errors import problems
from service.http.mao import access
from service.http.mao.acts import act
from service.http.mao.schemas import DealCreate, MaoActRead, ProposalCreate, RuleCreate
from service.http.params import GameId
from service.http.security import BEARER
from service.http.services import ActorDep, ServicesDep

_ACT = {
    "opt": SIGNED_IN,
    "responses": problems(403, 404, 409, 415, 422),
    "security": BEARER,
    "sync_to_thread": True,
}
_CARDS = {format_card(card): card for card in FULL_DECK}


def deck_of(names: list[str]) -> tuple[int, ...]:
    """The cards a deck names; any name that is not one of the 52 makes it no deck."""
    try:
        return tuple(_CARDS[name.strip().upper()] for name in names)
    except KeyError:
        raise RuleError("invalid_deck", "the deck must be the 52 cards, each as 10H, QS, 7D") from None


_RULE_EXAMPLE = Body(examples=[Example(summary="the teaching rule", value={"text": TEACHING_TEXT})])


class MaoRuleController(Controller):
    path = "/mao-games/{game_id:uuid}"
    tags = ["mao"]  # noqa: RUF012

    @put(
        "/rule",
        operation_id="writeMaoRule",
        summary="The judge writes the next round's secret rule, before its deal",
        **_ACT,
    )
    def write(
        self,
        services: ServicesDep,
        actor: ActorDep,
        game_id: GameId,
        data: Annotated[RuleCreate, _RULE_EXAMPLE],
    ) -> MaoActRead:
        def command(game: MaoGame, rng: random.Random) -> WriteRule:
            access.check_judge(services, actor, game)
            return WriteRule(data.text)

        return act(services, actor, game_id, command)

    @post(
        "/deals",
        operation_id="dealMaoRound",
        summary="Deal the next round from a fresh shuffle (the judge; with the server judging, a seat too)",
        status_code=200,
        **_ACT,
    )
    def deal(
        self, services: ServicesDep, actor: ActorDep, game_id: GameId, data: Annotated[DealCreate, Body()]
    ) -> MaoActRead:
        def command(game: MaoGame, rng: random.Random) -> DealRound:
            access.check_dealer(services, actor, game)
            if data.deck is None:
                return shuffled_deck(rng)
            if not access.officiates(services, actor, game):
                raise RuleError("not_allowed", "only the match's officials deal a deck of their own")
            return DealRound(deck_of(data.deck))

        return act(services, actor, game_id, command)

    @post(
        "/proposals",
        operation_id="proposeMaoRule",
        summary="The last round's winner proposes the next rule",
        status_code=200,
        **_ACT,
    )
    def propose(
        self,
        services: ServicesDep,
        actor: ActorDep,
        game_id: GameId,
        data: Annotated[ProposalCreate, _RULE_EXAMPLE],
    ) -> MaoActRead:
        def command(game: MaoGame, rng: random.Random) -> ProposeRule:
            return ProposeRule(access.acting_seat(services, actor, game, data.seat), data.text)

        return act(services, actor, game_id, command)

    @post(
        "/proposal/approval",
        operation_id="approveMaoRule",
        summary="The judge approves the proposed rule: it is the next round's",
        status_code=200,
        **_ACT,
    )
    def approve(self, services: ServicesDep, actor: ActorDep, game_id: GameId) -> MaoActRead:
        def command(game: MaoGame, rng: random.Random) -> ApproveRule:
            access.check_judge(services, actor, game)
            return ApproveRule()

        return act(services, actor, game_id, command)

    @post(
        "/proposal/refusal",
        operation_id="refuseMaoRule",
        summary="The judge refuses the proposed rule: the last rule carries on unless the judge writes one",
        status_code=200,
        **_ACT,
    )
    def refuse(self, services: ServicesDep, actor: ActorDep, game_id: GameId) -> MaoActRead:
        def command(game: MaoGame, rng: random.Random) -> RefuseRule:
            access.check_judge(services, actor, game)
            return RefuseRule()

        return act(services, actor, game_id, command)
