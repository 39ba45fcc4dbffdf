"""mao.md section 5's example, exactly: a played Q♥ on top, the teaching rule in force."""

from service.domain.cards import parse_card
from service.domain.mao.commands import PlayCard
from service.domain.mao.events import CardPlayed
from service.domain.mao.judge import evaluate
from service.domain.mao.rule import TEACHING_RULE
from tests.unit.mao.scene import Scene


def scene_with_a_played_queen_of_hearts() -> Scene:
    # three cards each, so seat 1's 9H QC 4S are its last three
    scene = Scene(hand_size=3, first_dealer=3)
    scene.deal({0: "QH 2C 3C", 1: "9H QC 4S"}, starter="5H")
    scene.do(PlayCard(0, parse_card("QH")))
    return scene


def test_with_a_played_queen_of_hearts_on_top_only_the_queen_of_clubs_is_legal():
    scene = scene_with_a_played_queen_of_hearts()
    s = scene.state
    assert s.top == parse_card("QH") and s.in_force == (0,)
    verdicts = {
        name: evaluate(TEACHING_RULE, s.top, s.in_force, parse_card(name)) for name in ("9H", "QC", "4S")
    }
    # 9H matches by suit but is red; 4S is black but matches neither suit nor rank
    assert verdicts == {"9H": "wrong_colour", "QC": None, "4S": "no_match"}


def test_the_queen_of_clubs_restricts_the_next_player_again_and_leaves_two_cards_with_no_mao_due():
    scene = scene_with_a_played_queen_of_hearts()
    played = scene.do(PlayCard(1, parse_card("QC")))
    assert played == [CardPlayed(1, parse_card("QC"), (0,), (), 2)]
    s = scene.state
    assert s.hands[1].bit_count() == 2
    assert evaluate(TEACHING_RULE, s.top, s.in_force, parse_card("QD")) == "wrong_colour"
    assert evaluate(TEACHING_RULE, s.top, s.in_force, parse_card("QS")) is None
