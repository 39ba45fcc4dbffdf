"""Who starts a round: the player left of the dealer (club), or the previous round's winner (101,
faraon), with the starter acting as if the seat before that player had played it."""

import pytest

from service.domain.commands import ScoreRound, StartMatch
from service.domain.engine import decide
from service.domain.errors import RuleError
from service.domain.rulebook import MAU_MAU
from service.domain.state import State
from tests.unit.round_rulesets import club_101
from tests.unit.scenario import Game

ONE_CARD = club_101(hand_size=1, elimination_total=None, redeal_four_of_a_kind=False)


def after_seat_won(rules, winner: int) -> Game:
    """Three seats, dealer 0: a round entered from a score sheet that ``winner`` won."""
    game = Game(rules, seats=3, dealer=0, deal=False)
    game.do(ScoreRound(winner, tuple(0 if seat == winner else 6 for seat in range(3))))
    return game


def test_in_club_the_player_left_of_the_dealer_starts_whoever_won():
    game = after_seat_won(club_101(first_player="left_of_dealer"), 0)
    game.deal(starter="KC")
    assert (game.s.dealer, game.s.turn) == (0, 1)


def test_the_previous_rounds_winner_starts_the_next_round():
    game = after_seat_won(club_101(), 0)
    game.deal(starter="KC")
    assert (game.s.dealer, game.s.turn) == (0, 0)


def test_a_round_won_in_play_gives_its_winner_the_start_of_the_next():
    game = Game(ONE_CARD, seats=3, dealer=0, hands={1: "9H"}, starter="KH")
    game.play(1, "9H", call=MAU_MAU)
    game.deal(starter="KC")
    assert (game.s.dealer, game.s.turn) == (1, 1)


def test_after_a_round_nobody_won_the_player_left_of_the_dealer_starts():
    game = Game(club_101(), seats=3, dealer=1, deal=False)
    game.do(ScoreRound(-1, (4, 6, 8)))
    game.deal(starter="KC")
    assert (game.s.dealer, game.s.turn) == (1, 2)


def test_a_starter_that_skips_passes_over_the_winner_who_would_start():
    game = after_seat_won(club_101(), 2)
    game.deal(starter="8C")  # club's 8 skips: the seat before the winner "played" it
    assert game.s.turn == 0


def test_a_wild_starter_is_named_by_the_dealer_and_the_winner_starts_after():
    game = after_seat_won(club_101(), 2)
    game.deal(starter="JC")
    game.name(0, "H")
    assert game.s.turn == 2


def test_the_first_rounds_first_player_is_left_of_the_first_dealer_drawn_by_chance():
    # Reading: 101's "random first player" is the first dealer drawn at random outside the engine
    for dealer, first in ((0, 1), (1, 2), (2, 0)):
        game = Game(club_101(), seats=3, dealer=dealer, starter="KC")
        assert game.s.turn == first


def test_a_first_dealer_that_is_no_seat_is_refused():
    with pytest.raises(RuleError) as refused:
        decide(State(), StartMatch(club_101(), 3, 3))
    assert refused.value.code == "not_a_seat"
