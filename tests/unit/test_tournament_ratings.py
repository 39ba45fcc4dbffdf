"""League ratings in a tournament: the seed order by rating, the rating tie-break, and what the
Started event records so a replay gives the same tournament."""

import uuid
from typing import Any

import pytest

from service.domain.errors import RuleError
from service.domain.pairing import Played, rank, ranking_order, seed_order
from service.domain.tournament import Tournament
from service.domain.tournament_entries import UNRATED
from service.domain.tournament_plan import Plan

LEAGUE = uuid.UUID(int=1)
RATINGS = {"ann": 12.5, "bob": 3.0, "cy": 20.25, "dee": -1.5}


def order_of(placings: Any) -> list[str]:
    return [p.entrant for p in placings]


def announced(**plan: Any) -> Tournament:
    tournament = Tournament.announce(
        LEAGUE, "Rated cup", "club", {}, Plan(**{"format": "swiss", "table_size": 2, "rounds": 2, **plan})
    )
    for entrant in RATINGS:
        tournament.join(entrant)
    return tournament


# ----------------------------------------------------------------------
# pairing: seed order and ranking


def test_seeding_by_rating_puts_the_best_rated_first_and_bots_after_every_player():
    entrants = ["bot:random#1", *RATINGS]
    assert seed_order(entrants, "any seed", RATINGS) == ["cy", "ann", "bob", "dee", "bot:random#1"]


def test_equal_ratings_are_ordered_by_the_seed_hash_and_the_same_seed_gives_the_same_order():
    tied = {"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0}
    orders = {seed: seed_order(list(tied), seed, tied) for seed in ("s1", "s2", "s3", "s4", "s5")}
    assert all(order == seed_order(list(tied), seed) for seed, order in orders.items())
    assert len({tuple(order) for order in orders.values()}) > 1  # the hash, not the joining order


def test_a_tie_on_every_count_is_broken_by_the_rating_before_the_seed_order():
    played = [Played(("a", "b"), (4, 4), (0, 1))]  # a shared win, equal points, each met the other
    assert order_of(rank("ab", played, [], lower_is_better=True)) == ["a", "b"]
    rated = rank("ab", played, [], lower_is_better=True, ratings={"a": 2.0, "b": 9.0})
    assert order_of(rated) == ["b", "a"]


def test_the_rating_breaks_ties_only_after_points_wins_and_opposition():
    played = [Played(("a", "b"), (0, 9), (0,))]
    placings = rank("ab", played, [], lower_is_better=True, ratings={"a": -5.0, "b": 30.0})
    assert order_of(placings) == ["a", "b"]


def test_an_unrated_entrant_comes_after_every_rated_one_on_the_rating_tie_break():
    placings = rank(["bot:x#1", "a"], [], [], lower_is_better=True, ratings={"a": -50.0})
    assert order_of(placings) == ["a", "bot:x#1"]


def test_the_stated_ranking_rule_names_the_rating_only_when_it_breaks_ties():
    keys, sentence = ranking_order(True, False, rating=True)
    assert keys == ["points", "wins", "forfeits", "opponents", "rating", "seed"]
    assert "league rating" in sentence
    keys, sentence = ranking_order(True, False)
    assert "rating" not in keys and "rating" not in sentence


# ----------------------------------------------------------------------
# the tournament


def test_a_tournament_seeded_by_rating_records_the_ratings_and_pairs_round_one_by_them():
    tournament = announced(seeding="rating", places=5)
    tournament.start("seed", {**RATINGS, "someone else": 99.0})
    assert tournament.order == ("cy", "ann", "bob", "dee", "bot:heuristic#1")
    assert tournament.ratings == RATINGS  # the entrants' only; the bot has none
    # swiss round 1 follows the ranking, which before any result is the seed order
    assert order_of(tournament.standings()) == list(tournament.order)
    assert tournament.rounds[0].tables[0] in (("cy", "ann"), ("ann", "cy"))


def test_a_player_the_league_has_not_rated_starts_with_the_starting_rating():
    tournament = announced(seeding="rating")
    tournament.start("seed", {"ann": 1.0, "bob": -2.0})
    assert tournament.ratings == {"ann": 1.0, "bob": -2.0, "cy": UNRATED, "dee": UNRATED}
    assert UNRATED == 0.0
    assert tournament.order[0] == "ann" and tournament.order[-1] == "bob"


def test_a_draw_seeded_tournament_records_no_ratings_and_ignores_any_passed():
    drawn = announced()
    drawn.start("seed", RATINGS)
    assert drawn.ratings == {}
    assert list(drawn.order) == seed_order(list(RATINGS), "seed")


def test_the_rating_tie_break_keeps_the_drawn_seed_order_and_ranks_ties_by_rating():
    tournament = announced(rating_tie_break=True)
    tournament.start("seed", RATINGS)
    assert list(tournament.order) == seed_order(list(RATINGS), "seed")
    assert order_of(tournament.standings()) == ["cy", "ann", "bob", "dee"]


def test_a_replay_of_the_events_gives_the_same_ratings_order_and_ranking():
    tournament = announced(seeding="rating", rating_tie_break=True)
    tournament.start("seed", RATINGS)
    events = tournament.collect_events()
    replayed = None
    for event in events:
        replayed = event.mutate(replayed)
    assert replayed is not None
    assert (replayed.ratings, replayed.order) == (tournament.ratings, tournament.order)
    assert replayed.standings() == tournament.standings()


def test_seeding_and_the_tie_break_can_be_edited_before_the_start():
    tournament = announced()
    tournament.edit(changes={"seeding": "rating", "rating_tie_break": True})
    assert (tournament.plan.seeding, tournament.plan.rating_tie_break) == ("rating", True)


@pytest.mark.parametrize("plan", [{"seeding": "elo"}, {"seeding": None}, {"rating_tie_break": 1}])
def test_a_bad_seeding_or_tie_break_value_is_refused_at_the_announcement(plan):
    with pytest.raises(RuleError) as error:
        announced(**plan)
    assert error.value.code == "invalid_seeding"


@pytest.mark.parametrize("changes", [{"seeding": "elo"}, {"rating_tie_break": "yes"}])
def test_a_bad_seeding_or_tie_break_edit_is_refused_and_changes_nothing(changes):
    tournament = announced()
    before = (tournament.plan, len(tournament.collect_events()))
    with pytest.raises(RuleError) as error:
        tournament.edit(changes=changes)
    assert error.value.code == "invalid_seeding"
    assert (tournament.plan, len(tournament.pending_events)) == (before[0], 0)
