"""Matches ended by elimination: 101 puts out a player whose total goes over the ceiling, faraon
deals a round's loser one card fewer and puts out the loser who was dealt one; the rest play on,
a seat that is out is dealt nothing, and the last seat in wins."""

import pytest

from service.domain.commands import ScoreRound
from service.domain.events import HandShrank, MatchEnded, PlayerEliminated, RoundDealt
from service.domain.rulebook import MAU, MAU_MAU
from service.domain.state import DEAL, OVER, PLAY
from tests.unit.round_rulesets import club_101, club_faraon
from tests.unit.scenario import Game, names_in


def score(game: Game, winner: int, *values: int) -> list:
    return game.do(ScoreRound(winner, values))


def two_eights_and_out(game: Game, seat: int, last: str = "9H") -> None:
    """Two seats: ``seat`` plays 8♣ (it plays again), 8♥ and goes out on ``last``."""
    game.play(seat, "8C")
    game.play(seat, "8H", call=MAU)
    game.play(seat, last, call=MAU_MAU)


# ---- 101


@pytest.mark.parametrize(("ceiling", "stays", "goes"), [(101, 101, 102), (201, 201, 202), (501, 501, 502)])
def test_a_total_over_the_ceiling_puts_the_player_out_and_the_ceiling_itself_does_not(ceiling, stays, goes):
    game = Game(club_101(elimination_total=ceiling), seats=3, deal=False)
    events = score(game, 0, 0, stays, goes)
    assert events[1:] == [PlayerEliminated(2, "over_ceiling", goes)]
    assert game.s.out == 0b100
    assert game.s.phase == DEAL  # two seats are still in: the match goes on


def test_two_players_over_the_ceiling_in_one_round_both_go_out_and_the_last_seat_in_wins():
    game = Game(club_101(), seats=3, deal=False)
    events = score(game, 0, 0, 150, 120)
    assert events[1:] == [
        PlayerEliminated(1, "over_ceiling", 150),
        PlayerEliminated(2, "over_ceiling", 120),
        MatchEnded((0,), (0, 150, 120)),
    ]
    assert game.s.phase == OVER


def test_a_seat_that_is_out_is_dealt_nothing_and_the_deal_passes_it_over():
    game = Game(club_101(), seats=3, dealer=1, deal=False)
    score(game, 2, 5, 110, 0)  # seat 1 is out; next dealer would be seat 1
    deal = game.deal(hands={0: "8C 9C 10C", 2: "8D 9D 10D"}, starter="KC")
    dealt = next(e for e in deal if isinstance(e, RoundDealt))
    assert dealt.sizes == (3, 0, 3)
    assert dealt.dealer == 2  # seat 1 is passed over as dealer
    assert game.s.hands[1] == 0
    assert names_in(game.s.hands[0]) == {"8C", "9C", "10C"}
    assert names_in(game.s.hands[2]) == {"8D", "9D", "10D"}
    assert len(game.s.stock) == 36 - 6 - 1
    assert game.s.turn == 2  # the previous round's winner starts, not seat 0 left of the dealer


def test_an_out_seat_may_not_be_scored_cards_nor_win():
    game = Game(club_101(), seats=3, deal=False)
    score(game, 0, 0, 110, 5)
    assert game.refuse(ScoreRound(0, (0, 4, 5))) == "seat_out"
    assert game.refuse(ScoreRound(1, (3, 0, 5))) == "seat_out"


def test_a_101_match_of_three_entered_round_by_round_ends_when_one_seat_is_left():
    game = Game(club_101(), seats=3, deal=False)
    score(game, 0, 0, 60, 30)
    score(game, 0, 0, 30, 50)  # seat 1: 90; seat 2: 80
    score(game, 2, 9, 20, 0)  # seat 1: 110, out
    assert game.s.out == 0b010
    assert game.s.phase == DEAL
    events = score(game, 0, 0, 0, 30)  # seat 2: 110, out
    assert events[-2:] == [PlayerEliminated(2, "over_ceiling", 110), MatchEnded((0,), (9, 110, 110))]
    assert game.s.winners == (0,)


def test_a_101_match_of_two_played_here_ends_when_the_loser_goes_over_101():
    game = Game(club_101(), seats=2, dealer=0, deal=False)
    for round_no in range(1, 5):
        # seat 1 won the round before: it starts, whoever deals
        game.deal(hands={0: "AC AD AS", 1: "8C 8H 9H"}, starter="KC")
        assert game.s.turn == 1
        two_eights_and_out(game, 1)
        assert game.s.totals[0] == 33 * round_no
    assert game.of_type(PlayerEliminated) == [PlayerEliminated(0, "over_ceiling", 132)]
    assert game.of_type(MatchEnded) == [MatchEnded((1,), (132, 0))]
    assert game.s.phase == OVER


def test_a_101_match_has_no_target_score_only_the_ceiling():
    game = Game(club_101(target_score=50), seats=2, deal=False)
    score(game, 0, 0, 60)
    assert game.s.phase == DEAL


# ---- faraon


def test_the_loser_of_a_round_is_dealt_one_card_fewer_from_the_next_round_on():
    game = Game(club_faraon(hand_size=5), seats=2, deal=False)
    assert score(game, 0, 0, 12)[1:] == [HandShrank(1, 4)]
    assert score(game, 0, 0, 12)[1:] == [HandShrank(1, 3)]
    assert game.s.hand_sizes == [5, 3]


@pytest.mark.parametrize(
    ("values", "losers"),
    [
        ((0, 12, 5), (1,)),  # the most points left in hand loses
        ((0, 5, 12), (2,)),
        ((0, 10, 10), (1, 2)),  # tied: both lose
        ((4, 0, 9), (2,)),
    ],
)
def test_with_three_players_the_loser_is_the_seat_left_with_the_most_points(values, losers):
    game = Game(club_faraon(hand_size=5), seats=3, deal=False)
    winner = values.index(0)
    events = score(game, winner, *values)
    assert events[1:] == [HandShrank(seat, 4) for seat in losers]


def test_a_round_nobody_won_has_a_loser_too():
    game = Game(club_faraon(hand_size=5), seats=3, deal=False)
    assert score(game, -1, 3, 9, 4)[1:] == [HandShrank(1, 4)]


def test_losing_a_round_dealt_a_single_card_puts_the_loser_out():
    game = Game(club_faraon(hand_size=2), seats=3, deal=False)
    score(game, 0, 0, 9, 3)  # seat 1 now gets 1 card
    events = score(game, 0, 0, 4, 3)
    assert events[1:] == [PlayerEliminated(1, "lost_holding_one_card", 13)]
    assert game.s.phase == DEAL
    events = score(game, 0, 0, 0, 3)  # seat 2 now gets 1 card
    events = score(game, 2, 5, 0, 0)
    assert events[1:] == [HandShrank(0, 1)]
    events = score(game, 2, 5, 0, 0)
    assert events[1:] == [PlayerEliminated(0, "lost_holding_one_card", 10), MatchEnded((2,), (10, 13, 9))]


def test_a_faraon_match_of_two_played_here_ends_when_the_loser_dealt_one_card_loses():
    game = Game(club_faraon(), seats=2, dealer=0, deal=False)
    game.deal(hands={0: "KD QD", 1: "8C 9C"}, starter="KC")
    assert game.s.turn == 1
    game.play(1, "8C", call=MAU)  # with two players the 8 lets its player play again
    ended = game.play(1, "9C", call=MAU_MAU)
    assert ended[-1] == HandShrank(0, 1)
    deal = game.deal(hands={0: "KD", 1: "8C 9C"}, starter="KC")
    assert next(e for e in deal if isinstance(e, RoundDealt)).sizes == (1, 2)
    assert game.s.hands[0].bit_count() == 1
    assert game.s.turn == 1  # the round's winner starts, though seat 0 is left of the dealer
    assert game.s.phase == PLAY
    game.play(1, "8C", call=MAU)
    ended = game.play(1, "9C", call=MAU_MAU)
    assert ended[-2:] == [PlayerEliminated(0, "lost_holding_one_card", 30), MatchEnded((1,), (30, 0))]
