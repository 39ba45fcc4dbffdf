"""Section 8: round scores, running totals, the match target, shared wins, single_round."""

import pytest

from service.domain.cards import parse_card
from service.domain.commands import (
    Challenge,
    DealRound,
    DrawCard,
    KeepCard,
    NameSuit,
    PlayCard,
    RecycleStock,
)
from service.domain.events import MatchEnded, RoundEnded
from service.domain.legal import is_terminal, returns
from service.domain.rulebook import MAU, MAU_MAU, NO_CALL
from service.domain.ruleset_options import ruleset
from service.domain.state import DEAL, OVER
from tests.unit.scenario import Game


def test_the_example_hand_k_clubs_7_diamonds_2_spades_scores_19_and_the_winner_scores_0():
    rules = ruleset("club", hand_size=3)
    game = Game(rules, seats=2, dealer=0, hands={0: "KC 7D 2S", 1: "8H 8D 5D"}, starter="5H")
    game.play(1, "8H")  # with 2 players the 8's player plays again
    game.play(1, "8D", call=MAU)
    game.play(1, "5D", call=MAU_MAU)
    ended = game.round_end()
    assert ended.winner == 1
    assert ended.points == (19, 0)
    assert ended.totals == (19, 0)
    assert game.s.totals == [19, 0]


def test_the_card_that_went_out_multiplies_nothing_not_even_a_jack():
    rules = ruleset("club", hand_size=3)
    game = Game(rules, seats=2, dealer=0, hands={0: "KC 7D 2S", 1: "8H 8D JD"}, starter="5H")
    game.play(1, "8H")
    game.play(1, "8D", call=MAU)
    game.play(1, "JD", named="C", call=MAU_MAU)
    assert game.round_end().points == (19, 0)


def test_aces_kings_queens_and_jacks_score_10_and_the_others_their_face_value():
    game = Game(
        ruleset("club", hand_size=1),
        seats=6,
        dealer=5,
        hands={0: "9H", 1: "AC", 2: "QD", 3: "JS", 4: "10C", 5: "2D"},
        starter="5H",
    )
    game.play(0, "9H", call=MAU_MAU)
    assert game.round_end().points == (0, 10, 10, 10, 10, 2)


def one_card_round(game: Game, held: dict[int, str]) -> RoundEnded:
    """hand_size 1: the player left of the dealer goes out with 9♥ on the starter 5♥; the
    others hold ``held``."""
    first = (game.s.next_dealer + 1) % game.seats
    game.deal(hands={first: "9H", **held}, starter="5H")
    game.play(first, "9H", call=MAU_MAU)
    return game.round_end()


def test_scores_add_up_round_by_round():
    game = Game(ruleset("club", hand_size=1), seats=3, dealer=0, deal=False)
    first = one_card_round(game, {0: "KC", 2: "3C"})
    assert (first.points, first.totals) == ((10, 0, 3), (10, 0, 3))
    second = one_card_round(game, {0: "4C", 1: "6C"})  # dealer 1: seat 2 goes out
    assert (second.points, second.totals) == ((4, 6, 0), (14, 6, 3))
    assert game.s.round_points == [(10, 0, 3), (4, 6, 0)]
    assert game.s.phase == DEAL


def test_the_match_goes_on_below_the_default_target_of_100_and_ends_at_it():
    game = Game(ruleset("club", hand_size=1), seats=2, dealer=0, deal=False)
    assert game.rules.target_score == 100
    # seat 1 goes out in odd rounds (dealer 0), seat 0 in even rounds
    for round_no in range(1, 19):
        held = {0: "KC"} if round_no % 2 else {1: "2C"}
        one_card_round(game, held)
    assert game.s.totals == [90, 18]
    one_card_round(game, {0: "9C"})
    assert game.s.totals == [99, 18]
    assert game.s.phase == DEAL and not game.of_type(MatchEnded)
    one_card_round(game, {1: "2C"})
    one_card_round(game, {0: "2D"})
    assert game.s.totals == [101, 20]
    assert game.of_type(MatchEnded) == [MatchEnded((1,), (101, 20))]
    assert game.s.phase == OVER


def test_reaching_the_target_exactly_ends_the_match():
    game = Game(ruleset("club", hand_size=1), seats=2, dealer=0, deal=False)
    for round_no in range(1, 20):
        held = {0: "KC"} if round_no % 2 else {1: "2C"}
        one_card_round(game, held)
    assert game.s.totals == [100, 18]
    assert game.s.phase == OVER
    assert game.s.winners == (1,)


def test_the_target_score_option_is_honoured():
    game = Game(ruleset("club", hand_size=1, target_score=12), seats=3, dealer=0, deal=False)
    one_card_round(game, {0: "KC", 2: "2C"})
    assert game.s.phase == DEAL
    one_card_round(game, {0: "2D", 1: "3D"})
    assert game.s.totals == [12, 3, 2]
    assert game.s.phase == OVER
    assert game.s.winners == (2,)


def test_the_lowest_total_wins_the_match():
    game = Game(ruleset("club", hand_size=1, target_score=10), seats=3, dealer=0, deal=False)
    one_card_round(game, {0: "KC", 2: "2C"})
    (ended,) = game.of_type(MatchEnded)
    assert ended == MatchEnded((1,), (10, 0, 2))
    assert is_terminal(game.s)
    assert returns(game.s) == [0.0, 1.0, 0.0]


def test_players_tied_for_the_lowest_total_share_the_win():
    game = Game(ruleset("club", hand_size=1, target_score=12), seats=3, dealer=0, deal=False)
    one_card_round(game, {0: "5C", 2: "5D"})
    one_card_round(game, {0: "KC", 1: "5S"})
    assert game.s.totals == [15, 5, 5]
    assert game.s.winners == (1, 2)
    assert returns(game.s) == [0.0, 0.5, 0.5]


def test_a_single_round_match_ends_after_one_round_whatever_the_totals():
    game = Game(ruleset("club", hand_size=1, single_round=True), seats=3, dealer=0, deal=False)
    one_card_round(game, {0: "2C", 2: "3C"})
    assert game.of_type(MatchEnded) == [MatchEnded((1,), (2, 0, 3))]
    assert game.s.phase == OVER


def test_a_single_round_match_ended_by_an_exhausted_stock_goes_to_the_lowest_hand():
    rules = ruleset("club", hand_size=8, single_round=True)
    game = Game(
        rules,
        seats=6,
        dealer=0,
        hands={1: "7C 2C 3C 4C 5C 6C 8C 9C", 2: "7D", 3: "AD KD QD JD 10D 9D 8D 6D"},
        starter="7H",
        stock="2S 3S 4S",
    )
    game.play(1, "7C")
    game.play(2, "7D")
    game.draw(3)
    ended = game.round_end()
    assert ended.winner == -1
    (match_ended,) = game.of_type(MatchEnded)
    lowest = min(ended.totals)
    assert match_ended.winners == tuple(seat for seat in range(6) if ended.totals[seat] == lowest)
    assert 1 in match_ended.winners  # 2+3+4+5+6+8+9 = 37, lower than every other hand here
    assert ended.totals[1] == 37


def test_nothing_may_be_played_between_rounds_until_the_next_deal():
    game = Game(ruleset("club", hand_size=1), seats=3, dealer=0, deal=False)
    one_card_round(game, {0: "2C", 2: "3C"})
    assert game.refuse(PlayCard(2, parse_card("3C"))) == "round_not_dealt"
    assert game.refuse(DrawCard(2)) == "round_not_dealt"
    assert game.refuse(KeepCard(2)) == "round_not_dealt"
    assert game.refuse(Challenge(0)) == "nothing_to_challenge"


@pytest.mark.parametrize(
    "command",
    [
        PlayCard(2, 0, -1, NO_CALL),
        DrawCard(2),
        KeepCard(2),
        NameSuit(0, 0),
        RecycleStock(()),
        Challenge(0),
        DealRound(tuple(range(52))),
    ],
    ids=lambda c: type(c).__name__,
)
def test_every_command_is_refused_after_the_match_is_over(command):
    game = Game(ruleset("club", hand_size=1, single_round=True), seats=3, dealer=0, deal=False)
    one_card_round(game, {0: "2C", 2: "3C"})
    assert game.refuse(command) == "game_over"
