"""The `russian` preset (variants.md): 36 cards, deal 5; A skips, 7 draws 1, 6 draws 1 and skips, Q wild."""

from service.domain.actions import DRAW
from service.domain.events import CardPlayed, CardsDrawn
from service.domain.legal import legal_actions
from service.domain.ruleset_options import ruleset
from tests.unit.scenario import Game

RUSSIAN = ruleset("russian")


def test_five_cards_are_dealt_from_36():
    assert (RUSSIAN.hand_size, len(RUSSIAN.ranks)) == (5, 9)


def test_a_seven_draws_1_and_the_drawer_plays_on():
    game = Game(RUSSIAN, seats=3, dealer=0, hands={1: "7H 8C 9C 10C KC", 2: "7C 8D 9D 10D KD"}, starter="9H")
    game.play(1, "7H")
    assert legal_actions(game.s, 2) == (DRAW,)
    (drawn,) = game.draw(2)
    assert isinstance(drawn, CardsDrawn) and (len(drawn.cards), drawn.turn) == (1, 2)
    assert (game.s.debt, game.s.turn) == (0, 2)


def test_a_six_draws_1_and_the_drawer_loses_the_turn():
    game = Game(RUSSIAN, seats=3, dealer=0, hands={1: "6H 8C 9C 10C KC"}, starter="9H")
    game.play(1, "6H")
    (drawn,) = game.draw(2)
    assert isinstance(drawn, CardsDrawn) and (len(drawn.cards), drawn.turn) == (1, 0)


def test_an_ace_skips_and_a_queen_is_wild():
    game = Game(RUSSIAN, seats=3, dealer=0, hands={1: "AH 8C 9C 10C KC"}, starter="9H")
    (played,) = game.play(1, "AH")
    assert isinstance(played, CardPlayed) and played.turn == 0
    assert RUSSIAN.effects["Q"].wild


def test_tens_reverse_only_with_the_option():
    hands = {1: "10H 8C 9C 10C KC"}
    (plain,) = Game(RUSSIAN, seats=3, dealer=0, hands=hands, starter="9H").play(1, "10H")
    rules = ruleset("russian", ten_reverses=True)
    (turned,) = Game(rules, seats=3, dealer=0, hands=hands, starter="9H").play(1, "10H")
    assert isinstance(plain, CardPlayed) and plain.direction == 1
    assert isinstance(turned, CardPlayed) and (turned.direction, turned.turn) == (-1, 0)


def test_the_king_of_spades_option_draws_4_and_the_drawer_loses_the_turn():
    rules = ruleset("russian", king_of_spades=True)
    game = Game(rules, seats=3, dealer=0, hands={1: "KS 8C 9C 10C KC"}, starter="9S")
    game.play(1, "KS")
    (drawn,) = game.draw(2)
    assert isinstance(drawn, CardsDrawn) and (len(drawn.cards), drawn.turn) == (4, 0)
