"""Plays, wrong plays and plays out of turn (mao.md sections 2 and 4), and the teaching rule's life."""

from service.domain.cards import parse_card
from service.domain.mao.commands import DrawCard, PlayCard, Say
from service.domain.mao.events import (
    CardDrawn,
    CardPlayed,
    CardTaken,
    PenaltyGiven,
    PlayCancelled,
    PlayReturned,
)
from service.domain.mao.judge import REASONS, evaluate
from service.domain.mao.rule import TEACHING_RULE
from service.domain.mao.views import player_view
from tests.unit.mao.scene import Scene


def test_the_player_left_of_the_dealer_starts_and_play_goes_clockwise():
    scene = Scene(first_dealer=1)
    scene.deal({2: "5H 2C 3C 4C 6C"}, starter="9H")
    assert scene.state.turn == 2
    scene.do(PlayCard(2, parse_card("5H")))
    assert scene.state.turn == 3


def test_the_starter_has_no_effect_even_when_it_is_a_queen():
    scene = Scene()
    scene.deal({0: "5H 2C 3C 4C 6C"}, starter="QH")
    assert scene.state.in_force == ()
    events = scene.do(
        PlayCard(0, parse_card("5H"))
    )  # red on a queen: allowed, the starter put nothing in force
    assert isinstance(events[0], CardPlayed)


def test_a_card_that_matches_neither_suit_nor_rank_is_returned_with_a_penalty_and_the_turn_ends():
    scene = Scene()
    scene.deal({0: "5D 2C 3C 4C 6C"}, starter="9H", stock="KD")
    events = scene.do(PlayCard(0, parse_card("5D")))
    assert events[:2] == [PlayReturned(0, parse_card("5D"), "no_match", 1), PenaltyGiven(0, "no_match")]
    assert scene.hand(0) == {"5D", "2C", "3C", "4C", "6C", "KD"}
    assert scene.state.turn == 1
    assert REASONS["no_match"] == "does not match"


def test_a_red_card_after_a_played_queen_is_returned_as_the_wrong_colour():
    scene = Scene()
    scene.deal({0: "QH 2C 3C 4C 6C", 1: "9H 2D 3D 4D 6D"}, starter="5H", stock="KD")
    scene.do(PlayCard(0, parse_card("QH")))
    events = scene.do(PlayCard(1, parse_card("9H")))
    assert events[0] == PlayReturned(1, parse_card("9H"), "wrong_colour", 2)
    assert REASONS["wrong_colour"] == "wrong colour"
    assert player_view(scene.state, 2).penalties[0].text == "wrong colour"


def test_a_draw_does_not_lift_the_restriction_and_a_legal_black_play_does():
    scene = Scene()
    scene.deal(
        {0: "QH 10H 3C 4C 6C", 1: "9D 2D 3D 4D 6D", 2: "QC 8D 10D JD KD", 3: "10C 7H AD JC KC"},
        starter="5H",
        stock="8H",
    )
    scene.do(PlayCard(0, parse_card("QH")))
    assert isinstance(scene.do(DrawCard(1))[0], CardDrawn)
    assert scene.state.in_force == (0,)
    assert evaluate(TEACHING_RULE, scene.state.top, scene.state.in_force, parse_card("7H")) == "wrong_colour"
    scene.do(PlayCard(2, parse_card("QC")))  # black: allowed, and a queen again
    assert scene.state.in_force == (0,)
    scene.do(PlayCard(3, parse_card("10C")))  # black, no queen: the restriction is lifted
    assert scene.state.in_force == ()
    assert isinstance(scene.do(PlayCard(0, parse_card("10H")))[0], CardPlayed)


def test_a_voluntary_draw_takes_the_top_of_the_stock_and_ends_the_turn():
    scene = Scene()
    scene.deal({0: "5H 2C 3C 4C 6C"}, starter="9H", stock="KD")
    events = scene.do(DrawCard(0))
    assert events == [CardDrawn(0, (), 1), CardTaken(0, parse_card("KD"), "draw")]
    assert "KD" in scene.hand(0)


def test_a_play_out_of_turn_is_cancelled_with_a_penalty_and_does_not_take_the_turn():
    scene = Scene()
    scene.deal({2: "5H 2C 3C 4C 6C"}, starter="9H", stock="KD")
    events = scene.do(PlayCard(2, parse_card("5H")))
    assert events == [
        PlayCancelled(2, parse_card("5H")),
        PenaltyGiven(2, "out_of_turn"),
        CardTaken(2, parse_card("KD"), "penalty"),
    ]
    assert scene.state.turn == 0
    assert scene.state.top == parse_card("9H")
    assert {"5H", "KD"} <= scene.hand(2)


def test_a_draw_out_of_turn_is_refused_and_changes_nothing():
    scene = Scene()
    scene.deal({}, starter="9H")
    scene.refuse(DrawCard(2), "not_your_turn")


def test_a_card_not_held_is_refused_and_changes_nothing():
    scene = Scene()
    scene.deal({0: "5H 2C 3C 4C 6C"}, starter="9H")
    scene.refuse(PlayCard(0, parse_card("AS")), "card_not_in_hand")
    scene.refuse(PlayCard(0, 52), "malformed_card")
    scene.refuse(PlayCard(7, parse_card("5H")), "not_a_seat")


def test_empty_or_overlong_words_are_refused_and_change_nothing():
    scene = Scene()
    scene.deal({0: "5H 2C 3C 4C 6C"}, starter="9H")
    scene.refuse(PlayCard(0, parse_card("5H"), says=("  ",)), "malformed_utterance")
    scene.refuse(Say(1, "x" * 81), "malformed_utterance")
