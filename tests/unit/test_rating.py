"""Ratings by example: the update is openskill's own, ties share a place, the clock-bot rule."""

import random

import pytest
from openskill.models import PlackettLuce

from service.domain.rating import (
    PROVISIONAL_MATCHES,
    START_MU,
    START_SIGMA,
    Rating,
    clock_played,
    places,
    plackett_luce,
    provisional,
    rate,
)

SEVERAL = [Rating(25.0, 8.0), Rating(30.0, 4.0), Rating(21.5, 6.5), Rating(27.0, 2.0)]


def openskill_rate(ratings: list[Rating], ranks: list[int]) -> list[Rating]:
    model = PlackettLuce()
    teams = model.rate([[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings], ranks=ranks)
    return [Rating(team[0].mu, team[0].sigma) for team in teams]


@pytest.mark.parametrize(
    "placed", [[1, 2], [2, 1], [1, 2, 3], [3, 1, 2, 4], [1, 1, 3, 4], [2, 2, 1, 4], [1, 2, 2, 2]]
)
def test_the_update_is_openskills_plackett_luce_with_its_default_settings(placed: list[int]) -> None:
    ratings = SEVERAL[: len(placed)]
    assert rate(ratings, placed, [False] * len(placed)) == openskill_rate(ratings, placed)


def test_the_fast_update_equals_openskill_bit_for_bit_on_many_matches_of_two_to_six_seats() -> None:
    rng = random.Random(15)
    for _ in range(3000):
        seats = rng.randint(2, 6)
        ratings = [Rating(rng.uniform(0.0, 50.0), rng.uniform(0.3, START_SIGMA)) for _ in range(seats)]
        ratings[rng.randrange(seats)] = Rating()  # a new player among them
        ranks = [rng.randint(1, seats + 1) for _ in range(seats)]  # ties, gaps, a clock-played last
        assert plackett_luce(ratings, ranks) == openskill_rate(ratings, ranks), (ratings, ranks)


def test_a_new_rating_starts_at_openskills_defaults_and_shows_mu_less_three_sigma() -> None:
    assert (Rating().mu, Rating().sigma) == (START_MU, START_SIGMA) == (25.0, 25.0 / 3)
    assert Rating(30.0, 2.0).ordinal == 24.0


def test_winners_share_first_place_and_the_rest_follow_by_total_in_the_rulesets_direction() -> None:
    # club: the lowest total wins; two seats on 30 share third place
    assert places([10, 30, 30, 5], winners=[3], lowest_wins=True) == [2, 3, 3, 1]
    # a shared win: both are first, the next is third
    assert places([5, 5, 40], winners=[0, 1], lowest_wins=True) == [1, 1, 3]
    # mau-mau-150: the highest total wins
    assert places([150, 90, 120], winners=[0], lowest_wins=False) == [1, 3, 2]


def test_seats_sharing_a_place_get_the_same_change_from_the_same_rating() -> None:
    after = rate([Rating(), Rating(), Rating()], [1, 2, 2], [False] * 3)
    assert after[1] == after[2]
    assert after[0].mu > START_MU > after[1].mu


def test_a_seat_the_clock_bot_played_more_than_half_of_is_clock_played() -> None:
    assert clock_played(6, 10)
    assert not clock_played(5, 10)
    assert not clock_played(0, 0)


def test_a_clock_played_winner_is_rated_as_if_it_had_finished_last() -> None:
    ratings = [Rating(), Rating(), Rating()]
    after = rate(ratings, [1, 2, 3], [True, False, False])
    assert after == openskill_rate(ratings, [4, 2, 3])
    assert after[0].mu < START_MU


def test_clock_played_seats_sharing_last_keep_their_ratings_where_a_draw_would_raise_their_value() -> None:
    # a draw leaves mu where it was and narrows sigma: the value shown would rise
    drawn = openskill_rate([Rating(), Rating()], [1, 1])
    assert drawn[0].ordinal > Rating().ordinal
    assert rate([Rating(), Rating()], [1, 2], [True, True]) == [Rating(), Rating()]


def test_a_clock_played_seat_keeps_a_drop() -> None:
    ratings = [Rating(30.0, 3.0), Rating(20.0, 3.0)]
    after = rate(ratings, [2, 1], [True, False])
    assert after == openskill_rate(ratings, [3, 1])
    assert after[0].mu < 30.0 and after[0].ordinal < ratings[0].ordinal


@pytest.mark.parametrize("placed", [[1, 2, 3, 4], [1, 1, 3, 4], [4, 3, 2, 1]])
def test_a_clock_played_seat_never_gains_in_mu_or_in_the_value_shown(placed: list[int]) -> None:
    for clocked_seat in range(4):
        clocked = [seat == clocked_seat for seat in range(4)]
        before = SEVERAL[clocked_seat]
        after = rate(SEVERAL, placed, clocked)[clocked_seat]
        assert after.mu <= before.mu and after.ordinal <= before.ordinal


def test_a_match_with_one_rated_seat_changes_nothing() -> None:
    assert rate([Rating(27.0, 3.0)], [1], [False]) == [Rating(27.0, 3.0)]


def test_a_rating_is_provisional_until_enough_matches() -> None:
    assert provisional(PROVISIONAL_MATCHES - 1)
    assert not provisional(PROVISIONAL_MATCHES)
