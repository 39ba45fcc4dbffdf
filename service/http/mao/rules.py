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
from service.http.mao import access
from service.http.mao.acts import ACT_ROUTE, act, judge_act, seat_act
from service.http.mao.schemas import DealCreate, MaoActRead, ProposalCreate, RuleCreate
from service.http.params import GameId, IdempotencyKey
from service.http.services import ActorDep, ServicesDep

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
        **ACT_ROUTE,
    )
    def write(
        self,
        services: ServicesDep,
        actor: ActorDep,
        game_id: GameId,
        data: Annotated[RuleCreate, _RULE_EXAMPLE],
        idempotency_key: IdempotencyKey = None,
    ) -> MaoActRead:
        return judge_act(
            services, actor, game_id, lambda: WriteRule(data.text), idempotency_key, ("rule", data)
        )

    @post(
        "/deals",
        operation_id="dealMaoRound",
        summary="Deal the next round from a fresh shuffle (the judge; with the server judging, a seat too)",
        **ACT_ROUTE,
    )
    def deal(
        self,
        services: ServicesDep,
        actor: ActorDep,
        game_id: GameId,
        data: Annotated[DealCreate, Body()],
        idempotency_key: IdempotencyKey = None,
    ) -> MaoActRead:
        def command(game: MaoGame, rng: random.Random) -> DealRound:
            access.check_dealer(services, actor, game)
            if data.deck is None:
                return shuffled_deck(rng)
            if not access.officiates(services, actor, game):
                raise RuleError("not_allowed", "only the match's officials deal a deck of their own")
            return DealRound(deck_of(data.deck))

        return act(services, actor, game_id, command, key=idempotency_key, request=("deals", data))

    @post(
        "/proposals",
        operation_id="proposeMaoRule",
        summary="The last round's winner proposes the next rule",
        **ACT_ROUTE,
    )
    def propose(
        self,
        services: ServicesDep,
        actor: ActorDep,
        game_id: GameId,
        data: Annotated[ProposalCreate, _RULE_EXAMPLE],
        idempotency_key: IdempotencyKey = None,
    ) -> MaoActRead:
        def propose(seat: int) -> ProposeRule:
            return ProposeRule(seat, data.text)

        return seat_act(services, actor, game_id, data.seat, propose, idempotency_key, ("proposals", data))

    @post(
        "/proposal/approval",
        operation_id="approveMaoRule",
        summary="The judge approves the proposed rule: it is the next round's",
        **ACT_ROUTE,
    )
    def approve(
        self, services: ServicesDep, actor: ActorDep, game_id: GameId, idempotency_key: IdempotencyKey = None
    ) -> MaoActRead:
        return judge_act(services, actor, game_id, ApproveRule, idempotency_key, ("approval",))

    @post(
        "/proposal/refusal",
        operation_id="refuseMaoRule",
        summary="The judge refuses the proposed rule: the last rule carries on unless the judge writes one",
        **ACT_ROUTE,
    )
    def refuse(
        self, services: ServicesDep, actor: ActorDep, game_id: GameId, idempotency_key: IdempotencyKey = None
    ) -> MaoActRead:
        return judge_act(services, actor, game_id, RefuseRule, idempotency_key, ("refusal",))
