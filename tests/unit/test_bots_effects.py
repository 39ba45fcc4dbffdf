"""The heuristic bot reads each preset's effects from the rulebook and plays them to its advantage."""

import random

from service.domain.bots import HeuristicBot
from service.domain.cards import mask_of, parse_card
from service.domain.commands import ChoosePlayer, PlayCard
from service.domain.engine import decide
from service.domain.ruleset_options import ruleset
from tests.unit.scenario import Game

HAFT = ruleset("haft-khabis")  # 8 is covered by its player, 2 chooses who draws 1, 10 reverses


def bot() -> HeuristicBot:
    return HeuristicBot(random.Random(0))


def hand_of(*cards: str) -> int:
    return mask_of(parse_card(card) for card in cards)


def test_a_card_that_moves_again_goes_first_when_a_card_in_hand_follows_it():
    game = Game(HAFT, seats=3, dealer=0, hands={1: "8H 9H 3C 4C 6C"}, starter="5H")
    assert bot().choose(game.s, 1) == PlayCard(1, parse_card("8H"))


def test_a_card_that_moves_again_with_nothing_to_follow_it_waits_behind_an_ordinary_card():
    game = Game(HAFT, seats=3, dealer=0, hands={1: "8H 5S 3C 4C 6C"}, starter="5H")
    assert bot().choose(game.s, 1) == PlayCard(1, parse_card("5S"))


def test_a_player_close_to_going_out_is_made_to_draw_by_a_card_that_chooses_the_drawer():
    game = Game(HAFT, seats=3, dealer=0, hands={1: "2H 9H 3C 4C 6C"}, starter="5H")
    game.s.hands[2] = hand_of("KD")
    assert bot().choose(game.s, 1) == PlayCard(1, parse_card("2H"))
    for event in decide(game.s, PlayCard(1, parse_card("2H"))):
        event.apply(game.s)  # no fold check: the hands were set by hand
    assert bot().choose(game.s, 1) == ChoosePlayer(1, 2)


def test_the_play_is_turned_away_from_a_next_player_close_to_going_out():
    # unthreatened, K♠ would go first: worth as much as 10♥, from the suit held most
    game = Game(HAFT, seats=3, dealer=0, hands={1: "10H KS 3S 4S 6C"}, starter="KH")
    game.s.hands[2] = hand_of("KD")
    assert bot().choose(game.s, 1) == PlayCard(1, parse_card("10H"))


def test_the_play_is_not_turned_when_the_player_behind_is_close_to_going_out_too():
    game = Game(HAFT, seats=3, dealer=0, hands={1: "10H KS 3S 4S 6C"}, starter="KH")
    game.s.hands[2] = hand_of("KD")
    game.s.hands[0] = hand_of("KC", "QC")
    assert bot().choose(game.s, 1) == PlayCard(1, parse_card("KS"))


def test_a_seat_out_of_the_match_is_no_threat_to_hold_a_seven_back_for():
    game = Game(seats=4, dealer=0, hands={1: "7H 9H 3C 4C 6C"}, starter="5H")
    game.s.out |= 1 << 2
    game.s.hands[2] = 0
    assert bot().choose(game.s, 1) == PlayCard(1, parse_card("9H"))


def test_a_next_player_still_in_and_close_to_going_out_is_made_to_draw():
    game = Game(seats=4, dealer=0, hands={1: "7H 9H 3C 4C 6C"}, starter="5H")
    game.s.hands[2] = hand_of("KD")
    assert bot().choose(game.s, 1) == PlayCard(1, parse_card("7H"))
