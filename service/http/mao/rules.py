"""A Mao match's rules and rounds: the judge writes the rule before the deal and deals; the round's
winner proposes the next rule; the judge approves or refuses it."""

from typing import Annotated

from litestar import post, put
from litestar.openapi.spec import Example
from litestar.params import Body

from service.domain.mao.commands import ApproveRule, ProposeRule, RefuseRule, WriteRule
from service.domain.mao.rule import TEACHING_TEXT
from service.http.controller import ApiController
from service.http.mao.acts import ACT_ROUTE, MaoActDep
from service.http.mao.schemas import DealCreate, ProposalCreate, RuleCreate
from service.usecases.mao import MaoActRead

_RULE_EXAMPLE = Body(examples=[Example(summary="the teaching rule", value={"text": TEACHING_TEXT})])


class MaoRuleController(ApiController, path="/mao-games/{game_id:uuid}", tag="mao"):
    @put(
        "/rule",
        operation_id="writeMaoRule",
        summary="The judge writes the next round's secret rule, before its deal",
        **ACT_ROUTE,
    )
    def write(self, data: Annotated[RuleCreate, _RULE_EXAMPLE], act: MaoActDep) -> MaoActRead:
        return act.by_judge(lambda: WriteRule(data.text), "rule", data)

    @post(
        "/deals",
        operation_id="dealMaoRound",
        summary="Deal the next round from a fresh shuffle (the judge; with the server judging, a seat too)",
        **ACT_ROUTE,
    )
    def deal(self, data: Annotated[DealCreate, Body()], act: MaoActDep) -> MaoActRead:
        return act.deal(data.deck, "deals", data)

    @post(
        "/proposals",
        operation_id="proposeMaoRule",
        summary="The last round's winner proposes the next rule",
        **ACT_ROUTE,
    )
    def propose(self, data: Annotated[ProposalCreate, _RULE_EXAMPLE], act: MaoActDep) -> MaoActRead:
        def propose(seat: int) -> ProposeRule:
            return ProposeRule(seat, data.text)

        return act.by_seat(data.seat, propose, "proposals", data)

    @post(
        "/proposal/approval",
        operation_id="approveMaoRule",
        summary="The judge approves the proposed rule: it is the next round's",
        **ACT_ROUTE,
    )
    def approve(self, act: MaoActDep) -> MaoActRead:
        return act.by_judge(ApproveRule, "approval")

    @post(
        "/proposal/refusal",
        operation_id="refuseMaoRule",
        summary="The judge refuses the proposed rule: the last rule carries on unless the judge writes one",
        **ACT_ROUTE,
    )
    def refuse(self, act: MaoActDep) -> MaoActRead:
        return act.by_judge(RefuseRule, "refusal")
