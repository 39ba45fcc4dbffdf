"""Rounds and the match (mao.md sections 5 and 7): the rule written, revealed, proposed and judged."""

import pytest

from service.domain.cards import parse_card
from service.domain.mao.commands import (
    ApproveRule,
    DealRound,
    DrawCard,
    PlayCard,
    ProposeRule,
    RecycleStock,
    RefuseRule,
    StartMatch,
    WriteRule,
)
from service.domain.mao.events import (
    MatchEnded,
    RoundEnded,
    RuleApproved,
    RuleProposed,
    RuleRefused,
    RuleRevealed,
    RuleWritten,
)
from service.domain.mao.game import decide
from service.domain.mao.rule import TEACHING_TEXT
from service.domain.mao.state import DEAL, OVER, State
from tests.refusals import refused
from tests.unit.mao.scene import Scene


def win_round(scene: Scene, winner: int) -> list:
    """Deal one card each; everyone before ``winner`` draws, then ``winner`` goes out."""
    s = scene.state
    scene.deal({winner: "5H"}, starter="9H")
    while s.turn != winner:
        scene.do(DrawCard(s.turn))
    return scene.do(PlayCard(winner, parse_card("5H"), says=("mao",)))


def test_the_first_player_to_win_three_rounds_takes_the_match_and_the_dealer_rotates():
    scene = Scene(hand_size=1)
    dealers = []
    for _ in range(2):
        win_round(scene, 2)
        dealers.append(scene.state.dealer)
    win_round(scene, 1)
    assert scene.state.phase == DEAL and scene.state.wins == [0, 1, 2, 0]
    events = win_round(scene, 2)
    dealers.append(scene.state.dealer)
    assert events[-1] == MatchEnded(2, (0, 1, 3, 0))
    assert scene.state.phase == OVER and dealers == [3, 0, 2]
    scene.refuse(DealRound(tuple(range(52))), "game_over")


def test_rounds_to_win_is_an_option():
    scene = Scene(hand_size=1, rounds_to_win=1)
    assert win_round(scene, 0)[-1] == MatchEnded(0, (1, 0, 0, 0))


def test_the_rule_is_revealed_at_the_round_end():
    scene = Scene(hand_size=1)
    events = win_round(scene, 0)
    assert RuleRevealed(1, TEACHING_TEXT) in events
    assert scene.state.revealed == TEACHING_TEXT


def test_the_winner_proposes_a_rule_and_a_human_judge_approves_it_for_the_next_round():
    scene = Scene(hand_size=1, judge="referee")
    win_round(scene, 0)
    scene.refuse(ProposeRule(1, "after K: next red"), "not_round_winner")
    scene.refuse(ProposeRule(0, "after K next red"), "malformed_rule")
    scene.refuse(ProposeRule(0, "after Q: next not Q; after hearts: next not hearts"), "rule_incompatible")
    assert scene.do(ProposeRule(0, "after k: next RED")) == [RuleProposed(0, "after K: next red")]
    scene.refuse(ProposeRule(0, "after 7: next black"), "proposal_pending")
    scene.refuse(DealRound(tuple(range(52))), "proposal_pending")
    assert scene.do(ApproveRule()) == [
        RuleApproved("after K: next red"),
        RuleWritten(2, "after K: next red", "referee"),
    ]
    events = win_round(scene, 1)
    assert RuleRevealed(2, "after K: next red") in events


def test_a_refused_proposal_leaves_the_last_rule_to_carry_on():
    scene = Scene(hand_size=1, judge="referee")
    win_round(scene, 0)
    scene.do(ProposeRule(0, "after K: next red"))
    assert scene.do(RefuseRule()) == [RuleRefused("after K: next red", "refused_by_judge")]
    scene.refuse(ApproveRule(), "no_proposal")
    scene.refuse(RefuseRule(), "no_proposal")
    events = scene.deal({}, starter="9H")
    assert events[0] == RuleWritten(2, TEACHING_TEXT, "server")


def test_with_the_server_as_judge_a_compatible_proposal_is_approved_at_once():
    scene = Scene(hand_size=1)
    win_round(scene, 0)
    assert scene.do(ProposeRule(0, "after 7: next not 8")) == [
        RuleProposed(0, "after 7: next not 8"),
        RuleApproved("after 7: next not 8"),
        RuleWritten(2, "after 7: next not 8", "server"),
    ]


def test_the_judge_writes_the_rule_before_the_deal_and_not_after():
    scene = Scene(hand_size=1, judge="referee")
    assert scene.do(WriteRule("after hearts: next black")) == [
        RuleWritten(1, "after hearts: next black", "referee")
    ]
    scene.refuse(WriteRule("after Q: next not Q; after hearts: next not hearts"), "rule_incompatible")
    scene.deal({}, starter="9H")
    scene.refuse(WriteRule("after 7: next red"), "round_in_progress")
    scene.refuse(ProposeRule(0, "after 7: next red"), "round_in_progress")
    assert scene.state.rule_round == 1


def test_a_drawn_round_gives_no_win_and_no_one_may_propose():
    scene = Scene(seats=3, hand_size=17, first_dealer=2)
    scene.deal({}, starter="9H")
    events = scene.do(DrawCard(0))
    assert RoundEnded(1, -1, "stopped", (17, 17, 17), (0, 0, 0)) in events
    scene.refuse(ProposeRule(0, "after 7: next red"), "not_round_winner")


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (StartMatch(2, 0), "player_count"),
        (StartMatch(7, 0), "player_count"),
        (StartMatch(4, 4), "not_a_seat"),
        (StartMatch(4, 0, hand_size=13), "invalid_option"),
        (StartMatch(4, 0, hand_size=0), "invalid_option"),
        (StartMatch(4, 0, rounds_to_win=0), "invalid_option"),
        (StartMatch(4, 0, judge="dog"), "invalid_option"),
        (StartMatch(4, 0, secret_rule="be nice"), "malformed_rule"),
        (StartMatch(4, 0, secret_rule="after draw: next not red black"), "rule_incompatible"),
    ],
)
def test_a_match_with_bad_options_is_refused(command, code):
    refused(code, lambda: decide(State(), command))


def test_commands_out_of_their_phase_are_refused_and_change_nothing():
    scene = Scene()
    scene.refuse(StartMatch(4, 0), "match_already_started")
    scene.refuse(PlayCard(0, 0), "round_not_dealt")
    scene.refuse(DrawCard(0), "round_not_dealt")
    scene.refuse(DealRound((1, 2, 3)), "invalid_deck")
    scene.refuse(RecycleStock(()), "no_shuffle_due")
