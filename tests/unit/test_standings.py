"""Standings: the ordering, its tie-breaks and shared ranks, on hand-made sums."""

from uuid import UUID

import msgspec

from service.domain.presets import CLUB, MAU_MAU_150
from service.projections.standings import TIE_BREAKS, Tally, order_of, rank, rule


def tally(name: str, **sums: int) -> Tally:
    return Tally(player_id=UUID(int=sum(map(ord, name))), name=name, **sums)


def names(rows) -> list[str]:
    return [row.name for row in rows]


def test_the_direction_of_points_comes_from_the_rulesets_match_winner():
    assert order_of(CLUB) == "lowest_points"
    assert order_of(MAU_MAU_150) == "highest_points"
    flipped = msgspec.structs.replace(CLUB, name="club upside down", match_winner="highest_total")
    assert order_of(flipped) == "highest_points"


def test_matches_won_come_first_and_a_shared_win_counts_as_a_win_below_an_outright_one():
    rows = rank(
        [
            tally("one shared", matches_played=3, matches_shared=1, rounds_played=9, points=10),
            tally("two outright", matches_played=3, matches_won=2, rounds_played=9, points=90),
            tally("none", matches_played=3, rounds_played=9, points=1),
            tally(
                "one outright one shared", matches_played=3, matches_won=1, matches_shared=1, rounds_played=9
            ),
            tally("two shared", matches_played=3, matches_shared=2, rounds_played=9),
        ],
        "lowest_points",
    )
    assert names(rows) == ["two outright", "one outright one shared", "two shared", "one shared", "none"]
    assert [row.rank for row in rows] == [1, 2, 3, 4, 5]


def test_club_puts_the_lowest_average_points_per_round_first():
    rows = rank(
        [
            tally("high", matches_played=2, matches_won=1, rounds_played=4, points=60),  # 15 a round
            tally("low", matches_played=2, matches_won=1, rounds_played=10, points=100),  # 10 a round
        ],
        "lowest_points",
    )
    assert names(rows) == ["low", "high"]
    assert [row.average_points for row in rows] == [10.0, 15.0]


def test_mau_mau_150_puts_the_highest_average_points_per_round_first():
    rows = rank(
        [
            tally("low", matches_played=2, matches_won=1, rounds_played=10, points=100),
            tally("high", matches_played=2, matches_won=1, rounds_played=4, points=60),
        ],
        "highest_points",
    )
    assert names(rows) == ["high", "low"]


def test_then_more_rounds_won_and_then_fewer_missed_calls_break_the_tie():
    same = {"matches_played": 2, "matches_won": 1, "rounds_played": 6, "points": 30}
    rows = rank(
        [
            tally("careless", rounds_won=2, missed_calls=3, **same),
            tally("careful", rounds_won=2, missed_calls=0, **same),
            tally("more rounds", rounds_won=3, missed_calls=9, **same),
        ],
        "lowest_points",
    )
    assert names(rows) == ["more rounds", "careful", "careless"]
    assert TIE_BREAKS == [
        "matches_won_or_shared",
        "matches_won",
        "forfeits",
        "average_points",
        "rounds_won",
        "missed_calls",
    ]


def test_rows_equal_on_every_key_share_a_rank_and_the_next_rank_skips():
    same = {"matches_played": 2, "matches_won": 1, "rounds_played": 6, "points": 30, "rounds_won": 2}
    rows = rank(
        [
            tally("Cy", **same),
            tally("top", matches_played=2, matches_won=2, rounds_played=6, points=30),
            tally("Al", penalty_cards=4, bot_turns=2, **same),  # neither is a tie-break
            tally("last", matches_played=2, rounds_played=6, points=30),
        ],
        "lowest_points",
    )
    assert [(row.rank, row.name) for row in rows] == [(1, "top"), (2, "Al"), (2, "Cy"), (4, "last")]


def test_equal_averages_over_different_numbers_of_rounds_tie_and_a_hair_apart_do_not():
    rows = rank(
        [
            tally("ten thirds", matches_played=1, rounds_played=3, points=10),
            tally("twenty sixths", matches_played=1, rounds_played=6, points=20),
            tally("a hair more", matches_played=1, rounds_played=300_000, points=1_000_001),
        ],
        "lowest_points",
    )
    assert [(row.rank, row.name) for row in rows] == [
        (1, "ten thirds"),
        (1, "twenty sixths"),
        (3, "a hair more"),
    ]


def test_no_finished_matches_no_rows():
    assert rank([], "highest_points") == []


def test_with_equal_wins_fewer_forfeits_rank_higher_whatever_the_average_points():
    rows = rank(
        [
            tally("forfeited", matches_played=2, matches_won=1, rounds_played=1, points=0, forfeits=1),
            tally("played out", matches_played=2, matches_won=1, rounds_played=6, points=90),
        ],
        "lowest_points",
    )
    assert names(rows) == ["played out", "forfeited"]
    assert rows[1].forfeits == 1


def test_a_member_without_a_match_is_a_row_of_zeros_after_those_who_won_with_no_rank():
    rows = rank(
        [tally("newcomer"), tally("winner", matches_played=1, matches_won=1, rounds_played=2)],
        "lowest_points",
    )
    assert names(rows) == ["winner", "newcomer"]
    assert (rows[1].rank, rows[1].matches_played, rows[1].average_points) == (None, 0, 0.0)


def test_members_who_have_not_played_come_after_those_who_played_and_lost_in_club():
    # club: fewer points per round rank higher, and an idle member's 0.0 would beat every loser's
    rows = rank(
        [
            tally("winner", matches_played=2, matches_won=2, rounds_played=4, points=3),
            tally("idle a"),
            tally("lost twice", matches_played=2, rounds_played=4, points=40),
            tally("idle b"),
            tally("lost once", matches_played=1, rounds_played=2, points=30),
        ],
        "lowest_points",
    )
    assert names(rows) == ["winner", "lost twice", "lost once", "idle a", "idle b"]
    assert [row.rank for row in rows] == [1, 2, 3, None, None]


def test_a_league_where_nobody_has_played_ranks_nobody():
    rows = rank([tally("a"), tally("b")], "highest_points")
    assert [(row.name, row.rank) for row in rows] == [("a", None), ("b", None)]


def test_the_rule_sentence_names_every_tie_break_in_order_and_the_forfeit_rule():
    sentence = rule("lowest_points")
    assert "without a finished match are listed after" in sentence
    words = [
        "matches won",
        "outright wins",
        "forfeits",
        "lowest average points",
        "rounds won",
        "missed calls",
    ]
    assert [sentence.index(word) for word in words] == sorted(sentence.index(word) for word in words)
    assert "forfeit_after" in sentence and "highest average points" in rule("highest_points")
