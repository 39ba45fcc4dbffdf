"""A Mao match's rules and rounds: the judge writes the rule before the deal and deals; the round's
winner proposes the next rule; the judge approves or refuses it."""

from typing import Annotated

from litestar import post, put
from litestar.openapi.spec import Example
from litestar.params import Body

from service.domain.mao.commands import ApproveRule, ProposeRule, RefuseRule, WriteRule
from service.domain.mao.rule import TEACHING_TEXT
from service.http.controller import ApiController
from service.http.mao.acts import ACT_ROUTE, MaoActDep, judge_act_route, seat_act_route
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

    propose = seat_act_route(
        "/proposals",
        "proposeMaoRule",
        "The last round's winner proposes the next rule",
        lambda seat, data: ProposeRule(seat, data.text),
        Annotated[ProposalCreate, _RULE_EXAMPLE],
    )
    approve = judge_act_route(
        "/proposal/approval",
        "approveMaoRule",
        "The judge approves the proposed rule: it is the next round's",
        ApproveRule,
    )
    refuse = judge_act_route(
        "/proposal/refusal",
        "refuseMaoRule",
        "The judge refuses the proposed rule: the last rule carries on unless the judge writes one",
        RefuseRule,
    )
