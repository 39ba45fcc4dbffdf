"""The `neuner` preset (variants.md): 32 cards; nines are wild, nothing else has an effect."""

from service.domain.actions import play_action
from service.domain.cards import parse_card
from service.domain.events import CardPlayed
from service.domain.legal import legal_actions
from service.domain.rulebook import rulebook
from service.domain.ruleset_options import ruleset
from tests.unit.scenario import Game

NEUNER = ruleset("neuner")


def test_a_nine_is_wild_and_names_the_suit():
    game = Game(NEUNER, seats=2, dealer=0, hands={1: "9C 8C 10C KC QC"}, starter="7H")
    assert play_action(parse_card("9C"), 3) in legal_actions(game.s, 1)
    game.play(1, "9C", "S")
    assert game.s.named_suit == 3


def test_sevens_eights_and_jacks_are_ordinary():
    game = Game(NEUNER, seats=3, dealer=0, hands={1: "7H 8C 10C KC QC", 2: "8H JC 10D KD QD"}, starter="7D")
    (seven,) = game.play(1, "7H")
    assert isinstance(seven, CardPlayed) and (seven.debt, seven.turn) == (0, 2)
    (eight,) = game.play(2, "8H")
    assert isinstance(eight, CardPlayed) and (eight.skipped, eight.turn) == (-1, 0)


def test_the_deck_holds_one_joker_and_it_is_wild():
    book = rulebook(NEUNER)
    assert len(book.deck) == 33
    game = Game(NEUNER, seats=2, dealer=0, hands={1: "X1 8C 10C KC QC"}, starter="7H")
    game.play(1, "X1", "C")
    assert game.s.named_suit == 0
