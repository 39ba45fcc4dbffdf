"""The `puke` preset (variants.md): as classic, but a 2 skips and an 8 is ordinary."""

from service.domain.cards import parse_card
from service.domain.commands import PlayCard
from service.domain.events import CardPlayed, CardsDrawn
from service.domain.ruleset_options import ruleset
from tests.unit.scenario import Game

PUKE = ruleset("puke")


def test_a_two_skips_the_next_player():
    game = Game(PUKE, seats=3, dealer=0, hands={1: "2H 3C 4C 6C 9C"}, starter="5H")
    (played,) = game.play(1, "2H")
    assert isinstance(played, CardPlayed) and (played.skipped, played.turn) == (2, 0)


def test_an_eight_is_ordinary():
    game = Game(PUKE, seats=3, dealer=0, hands={1: "8H 3C 4C 6C 9C"}, starter="5H")
    (played,) = game.play(1, "8H")
    assert isinstance(played, CardPlayed) and (played.skipped, played.turn) == (-1, 2)


def test_sevens_jacks_and_aces_act_as_in_classic():
    game = Game(PUKE, seats=3, dealer=0, hands={1: "AH 7H 4C 6C 9C", 2: "7C 3D 4D 6D 9D"}, starter="5H")
    game.play(1, "AH")
    assert game.s.turn == 1
    game.play(1, "7H")
    assert game.refuse(PlayCard(2, parse_card("7C"))) == "debt_pending"
    assert PUKE.effects["J"].wild and PUKE.mau_mau_call == "on_wild"


def test_the_drawer_of_a_sevens_debt_may_then_play_a_card_that_fits():
    game = Game(PUKE, seats=3, dealer=0, hands={1: "7H 3C 4C 6C 9C", 2: "3D 4D 6D 9D KH"}, starter="5H")
    game.play(1, "7H")
    (drawn,) = game.draw(2)
    assert isinstance(drawn, CardsDrawn) and drawn.turn == 2
    (played,) = game.play(2, "KH")
    assert isinstance(played, CardPlayed) and played.turn == 0
