"""A referee's penalty (GivePenalty): cards off the stock, the turn stays where it is."""

from service.domain.commands import GivePenalty
from service.domain.events import CardsDrawn, StockRanOut
from service.domain.state import PENALTY, PLAY, RECYCLE
from tests.unit.scenario import Game, mask


def test_a_referees_penalty_draws_from_the_stock_and_leaves_the_turn_alone():
    game = Game(seats=3, dealer=0, hands={1: "9H 3C 4C 6C 10C"}, starter="5H", stock="KD QD 2S")
    turn = game.state.turn
    (drawn,) = game.do(GivePenalty(2, 2))
    assert drawn == CardsDrawn(2, drawn.cards, PENALTY, turn, PLAY)
    assert game.state.hands[2] & mask("KD QD") == mask("KD QD")
    assert game.state.turn == turn and game.state.phase == PLAY


def test_a_penalty_larger_than_the_stock_waits_for_a_recycle():
    game = Game(seats=2, dealer=0, hands={1: "9H 3C 4C 6C 10C", 0: "9D 3D 4D 6D 10D"}, starter="5H")
    game.play(1, "9H")
    game.play(0, "9D")
    stock = len(game.state.stock)
    events = game.do(GivePenalty(1, stock + 1))
    assert events == [StockRanOut(1, stock + 1, PENALTY)]
    assert game.state.phase == RECYCLE


def test_a_penalty_the_stock_cannot_give_even_after_a_recycle_is_refused_and_changes_nothing():
    game = Game(seats=2, dealer=0, hands={1: "9H 3C 4C 6C 10C"}, starter="5H")
    assert game.refuse(GivePenalty(1, 60)) == "stock_exhausted"


def test_a_penalty_for_no_seat_at_the_table_is_refused():
    game = Game(seats=2, dealer=0)
    assert game.refuse(GivePenalty(5, 2)) == "not_a_seat"
