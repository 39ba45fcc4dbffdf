"""Places, tournament results and running totals where the last seat standing wins (101, faraon).

A match of 101 or faraon is decided by who is eliminated when, not by the totals: the winners are
``MatchEnded``'s, a seat out later places above one out earlier, and a tournament ranks such tables
by wins before points. 101's totals reset at exactly 100, so a chart's line is not the sum of the
round points.
"""

import random
import uuid

import pytest

from service.domain.game import Game
from service.domain.history import Cause
from service.domain.image import image_of, restore
from service.domain.pairing import Played, rank, ranking_order
from service.domain.rating import last_standing, places
from service.domain.roles import SYSTEM
from service.domain.round_scoring import running_totals
from service.domain.ruleset_options import ruleset
from service.domain.seats import Seat
from service.domain.state import OVER
from service.domain.tournament import Tournament
from service.domain.tournament_plan import Plan
from service.projections.sheets import match_end
from tests.gameplay import SAME_ENTROPY, next_command
from tests.refusals import refused


def played_match(name: str, seed: int, **options: bool) -> Game:
    """A match of three random bots, dealt from ``seed``, played to its end in memory."""
    rng = random.Random(seed)
    game = Game.create(
        ruleset=ruleset(name, **options),
        seats=tuple(Seat.parse("bot:random") for _ in range(3)),
        seed=str(seed),
        cause=Cause(SYSTEM, "test"),
        entropy=SAME_ENTROPY,
    )
    while game.state.phase != OVER:
        game.execute(next_command(game.state, rng, challenge_rate=0), Cause(SYSTEM, "test"))
    return game


def test_the_presets_won_by_the_last_seat_standing_are_101_and_faraon():
    standing = {
        name
        for name in ("club", "mau-mau-150", "101", "faraon", "prsi", "classic")
        if last_standing(ruleset(name))
    }
    assert standing == {"101", "faraon"}
    assert not last_standing(ruleset("101", single_round=True))


def test_a_seat_out_later_places_above_one_out_earlier_whatever_the_totals():
    # 101: seat 1 won; seat 0 went out at round 5 on 136, seat 2 at round 3 on 108
    assert places([136, 14, 108], winners=[1], lowest_wins=True, out_round=[5, 0, 3]) == [2, 1, 3]
    # out in the same round: the better total places higher, equal totals share
    assert places([120, 0, 105, 120], winners=[1], lowest_wins=True, out_round=[4, 0, 4, 4]) == [3, 1, 2, 3]
    # a seat still in that did not win (101's outright -365 win) places above every seat out
    assert places([-365, 60, 130], winners=[0], lowest_wins=True, out_round=[0, 0, 2]) == [1, 2, 3]


def test_a_faraon_winner_on_the_highest_total_places_first_and_the_later_out_second():
    game = played_match("faraon", 2)  # a seed where the premise below holds
    result = game.result()
    (winner,) = result.winners
    assert result.totals[winner] == max(result.totals)  # the premise: totals would put it last
    first_out = min((seat for seat in range(3) if seat != winner), key=lambda seat: result.out_round[seat])
    later_out = 3 - winner - first_out
    assert result.out_round[later_out] > result.out_round[first_out] > 0
    placed = places(result.totals, result.winners, True, result.out_round)
    assert (placed[winner], placed[later_out], placed[first_out]) == (1, 2, 3)


def test_the_round_each_seat_went_out_survives_a_snapshot_of_the_state():
    game = played_match("101", 1, ace_skips_at_once=True)  # seat 2 out first, then seat 0
    assert game.state.out_round == [7, 0, 6]
    assert restore(image_of(game.state)).out_round == [7, 0, 6]


def test_a_forfeit_in_an_elimination_match_gives_the_win_to_the_best_placed_seat_that_did_not_forfeit():
    game = played_match("101", 1, ace_skips_at_once=True)  # seat 1 won; seat 0 went out after seat 2
    game.forfeited = (1,)
    result = game.result()
    assert result.winners == (0,)
    assert result.totals[1] == max(result.totals)


# ----------------------------------------------------------------------
# tournaments


def faraon_cup() -> tuple[Tournament, uuid.UUID]:
    tournament = Tournament.announce(
        uuid.UUID(int=1), "Faraon cup", "faraon", {}, Plan(format="swiss", table_size=3, rounds=1)
    )
    for entrant in ("a", "b", "c"):
        tournament.join(entrant)
    tournament.start("seed")
    game = uuid.uuid4()
    tournament.attach_game(1, 0, game)
    return tournament, game


def test_a_faraon_table_is_won_by_the_seat_still_in_even_on_the_worst_total():
    tournament, game = faraon_cup()
    seats = tournament.rounds[0].tables[0]
    tournament.record_result(game, (262, 140, 289), (2,), (), (), (13, 12, 0))
    assert tournament.finished and tournament.winners == (seats[2],)
    assert tournament.ranking[0] == seats[2]


@pytest.mark.parametrize(
    ("totals", "winners", "out_round"),
    [
        ((262, 140, 289), (1,), (13, 12, 0)),  # a seat eliminated is no winner
        ((262, 140, 289), (), (13, 12, 0)),  # a finished table has a winner
        ((262, 140, 289), (2,), (13, 12)),  # every seat's round
        ((262, 140, 289), (2,), (13, -1, 0)),  # no round before the first
    ],
)
def test_an_elimination_table_result_naming_a_seat_out_before_the_others_as_winner_is_refused(
    totals, winners, out_round
):
    tournament, game = faraon_cup()
    refused("invalid_result", lambda: tournament.record_result(game, totals, winners, (), (), out_round))
    assert not tournament.rounds[0].results


def test_a_table_where_the_last_round_put_out_every_seat_still_in_is_shared_by_them():
    tournament, game = faraon_cup()
    tournament.record_result(game, (30, 12, 20), (1, 2), (), (), (3, 5, 5))
    assert tournament.rounds[0].results[0].winners == (1, 2)


def test_wins_rank_before_points_where_the_last_seat_standing_wins():
    # a won a table on a worse total than b, who won none
    played = [Played(("a", "b"), (289, 140), (0,)), Played(("a", "b"), (100, 90), (1,))]
    played.append(Played(("a", "b"), (50, 200), (0,)))
    assert [p.entrant for p in rank("ab", played, [], lower_is_better=True)] == ["b", "a"]
    assert [p.entrant for p in rank("ab", played, [], lower_is_better=True, wins_first=True)] == ["a", "b"]
    keys, sentence = ranking_order(True, False, wins_first=True)
    assert keys[:2] == ["wins", "points"] and sentence.startswith("Most wins")
    assert ranking_order(True, False)[0][:2] == ["points", "wins"]


# ----------------------------------------------------------------------
# running totals


def test_running_totals_reset_at_exactly_100_in_101_and_add_up_elsewhere():
    rounds = [(60, 0), (40, 30), (-20, 70)]
    assert running_totals(ruleset("101"), rounds) == [[60, 0], [0, 30], [-20, 0]]
    assert running_totals(ruleset("club"), rounds) == [[60, 0], [100, 30], [80, 100]]


def test_a_printed_score_sheet_says_the_last_player_not_out_wins_101_and_faraon():
    assert match_end(ruleset("101")).endswith(
        "A total of exactly 100 goes back to 0. A player whose total goes over 101 is out. "
        "The last player not out wins the match, whatever the totals."
    )
    assert "dealt a single card is out. The last player not out wins" in match_end(ruleset("faraon"))
    assert match_end(ruleset("club")).endswith("The lowest total wins; equal totals share the win.")
