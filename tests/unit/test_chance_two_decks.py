"""The shuffler gathers and deals back every card of a hand, jokers and a second deck's included."""

from service.domain.cards import cards_in, mask_of, parse_card
from service.domain.chance import Shuffler
from tests.unit.scenario import Game

HANDS = [("X1", "7D.2", "AS"), ("7D", "X2.2"), ("QS.2",)]


def test_a_hidden_reshuffle_gathers_jokers_and_second_deck_cards_with_the_rest():
    s = Game(seats=3, dealer=0, hands={1: "2D 3D 4D 6C 9S"}, starter="5H").s
    # the engine deals no such cards yet: the hands are set as a two-deck deal would leave them
    s.hands = [mask_of(parse_card(c) for c in hand) for hand in HANDS]
    held = [c for hand in s.hands for c in cards_in(hand)]
    reshuffled = Shuffler(7).hidden_reshuffle(s)
    assert reshuffled.counts == (3, 2, 1)
    assert sorted(reshuffled.order) == sorted([*held, *s.stock])
