"""Scoring as data: the card that went out (classic's jack doubles, 101's queen scores the winner),
101's card values and its hand of only queens, a total of exactly 100 reset, -365 winning outright."""

import msgspec
import pytest

from service.domain.cards import CARD_COUNT, parse_card
from service.domain.commands import ScoreRound
from service.domain.events import MatchEnded, RoundEnded
from service.domain.presets import MAU_MAU_150
from service.domain.rulebook import MAU, MAU_MAU
from service.domain.rulesets import Ruleset
from service.domain.state import DEAL
from tests.unit.round_rulesets import club_101, club_classic
from tests.unit.scenario import Game


def went_out_on(rules: Ruleset, last: str, loser: str) -> RoundEnded:
    """Two seats, dealer 0: seat 1 plays an 8 (so it plays again), a second 8 of ``last``'s suit
    and goes out on ``last``; seat 0 keeps ``loser``."""
    suit = last[-1]
    first = "8D" if suit == "H" else "8H"
    game = Game(
        rules, seats=2, dealer=0, hands={0: loser, 1: f"{first} 8{suit} {last}"}, starter="K" + first[-1]
    )
    game.play(1, first)
    game.play(1, f"8{suit}", call=MAU)
    named = "C" if game.s.book.is_wild[parse_card(last)] else -1
    game.play(1, last, named=named, call=MAU_MAU)
    return game.round_end()


# (last card, loser's hand, the round's points: loser, winner)
CLASSIC = [
    ("JD", "KC 7D 6S", (46, 0)),  # a jack went out: 10 + 7 + 6, doubled
    ("JS", "AC AD AS", (60, 0)),
    ("10D", "KC 7D 6S", (23, 0)),  # any other card: the hand's points
    ("QD", "KC 7D 6S", (23, 0)),
]


@pytest.mark.parametrize(("last", "loser", "points"), CLASSIC)
def test_classic_doubles_every_losers_points_when_the_winning_card_is_a_jack(last, loser, points):
    assert went_out_on(club_classic(), last, loser).points == points


def test_club_never_doubles_whatever_card_went_out():
    club = msgspec.structs.replace(club_classic(), out_multiplier={})
    assert went_out_on(club, "JD", "KC 7D 6S").points == (23, 0)


def test_a_winner_who_takes_the_losers_points_takes_them_doubled_after_a_jack():
    rules = msgspec.structs.replace(MAU_MAU_150, hand_size=3, out_multiplier={"J": 2})
    assert went_out_on(rules, "JD", "KC 7D 9S").points == (0, 2 * (10 + 7 + 9))


# 101: J 2, Q 3, K 4, A 11, 9 nothing, the others face value; a hand of only queens 20 each
# (Q♠ 40); a winner going out on a queen -20 (Q♠ -40)
ONE_OH_ONE = [
    ("10D", "9C JC KC", (6, 0)),
    ("10D", "AC 6C 7C", (24, 0)),
    ("10D", "9C 9H 9S", (0, 0)),
    ("10D", "QC QH QD", (60, 0)),  # only queens
    ("10D", "QC QH QS", (80, 0)),
    ("10D", "QC QH 7C", (13, 0)),  # not only queens: 3 + 3 + 7
    ("QD", "9C JC KC", (6, -20)),
    ("QS", "9C JC KC", (6, -40)),
    ("QS", "QC QH QD", (60, -40)),
]


@pytest.mark.parametrize(("last", "loser", "points"), ONE_OH_ONE)
def test_101_counts_its_card_values_and_its_queens(last, loser, points):
    ended = went_out_on(club_101(), last, loser)
    assert ended.points == points
    assert ended.totals == points


def scored(game: Game, winner: int, values: tuple[int, ...], last: str | None = None) -> list:
    return game.do(ScoreRound(winner, values, -1 if last is None else parse_card(last)))


def test_a_total_of_exactly_100_is_reset_to_0():
    game = Game(club_101(), seats=2, deal=False)
    scored(game, 0, (0, 60))
    ended = scored(game, 0, (0, 40))[0]
    assert ended.points == (0, 40)
    assert ended.totals == (0, 0)
    assert game.s.totals == [0, 0]


def test_a_total_passing_over_100_is_not_reset():
    game = Game(club_101(), seats=2, deal=False)
    scored(game, 0, (0, 60))
    assert scored(game, 0, (0, 41))[0].totals == (0, 101)


def test_a_total_of_exactly_minus_365_wins_the_match_outright_when_the_option_is_set():
    game = Game(club_101(winning_total=-365), seats=2, deal=False)
    scored(game, 1, (15, 0))
    for _ in range(18):
        scored(game, 0, (0, 0), last="QD")
    assert game.s.totals == [-345, 0]
    assert game.s.phase == DEAL
    events = scored(game, 0, (0, 0), last="QD")
    assert events[-1] == MatchEnded((0,), (-365, 0))
    assert game.s.winners == (0,)


def test_without_the_option_minus_365_is_a_total_like_any_other():
    game = Game(club_101(), seats=2, deal=False)
    scored(game, 1, (15, 0))
    for _ in range(19):
        scored(game, 0, (0, 0), last="QD")
    assert game.s.totals == [-365, 0]
    assert game.s.phase == DEAL


def test_a_score_sheet_that_names_the_jack_that_went_out_doubles_the_losers_points():
    game = Game(club_classic(), seats=3, deal=False)
    assert scored(game, 1, (10, 0, 7), last="JD")[0].points == (20, 0, 14)


def test_a_score_sheet_that_does_not_name_the_card_that_went_out_doubles_nothing():
    game = Game(club_classic(), seats=3, deal=False)
    assert scored(game, 1, (10, 0, 7))[0].points == (10, 0, 7)


def test_a_score_sheet_naming_a_queen_that_went_out_in_101_scores_the_winner_minus_20():
    game = Game(club_101(), seats=2, deal=False)
    assert scored(game, 0, (0, 9), last="QH")[0].points == (-20, 9)


@pytest.mark.parametrize(
    ("winner", "last", "code"),
    [
        (-1, parse_card("JD"), "no_winner"),
        (0, CARD_COUNT, "malformed_card"),
        (0, 52, "card_not_in_deck"),  # a joker, which 101 plays without
        (0, parse_card("2C"), "card_not_in_deck"),
    ],
)
def test_a_card_that_went_out_the_round_cannot_have_is_refused(winner, last, code):
    game = Game(club_101(), seats=2, deal=False)
    assert game.refuse(ScoreRound(winner, (0, 9), last)) == code
