"""Pairing by example: table sizes, byes, each format, seats, and the ranking's tie-breaks."""

import pytest

from service.domain.pairing import (
    History,
    Played,
    choose_byes,
    group,
    pair_elimination,
    pair_key,
    pair_round_robin,
    pair_swiss,
    rank,
    round_robin_rounds,
    seat,
    seed_order,
    table_sizes,
)


def players(n: int) -> list[str]:
    return [f"p{i:02}" for i in range(n)]


def successors(table: tuple[str, ...]) -> set[tuple[str, str]]:
    return {(p, table[(i + 1) % len(table)]) for i, p in enumerate(table)}


@pytest.mark.parametrize(
    ("n", "size", "sizes", "byes"),
    [
        (16, 4, [4, 4, 4, 4], 0),
        (10, 4, [4, 3, 3], 0),
        (5, 4, [3, 2], 0),
        (7, 6, [4, 3], 0),
        (6, 6, [6], 0),
        (2, 6, [2], 0),
        (9, 2, [2, 2, 2, 2], 1),
        (1, 4, [], 1),
        (0, 4, [], 0),
    ],
)
def test_players_sit_at_as_few_tables_as_possible_of_sizes_differing_by_at_most_one(n, size, sizes, byes):
    assert table_sizes(n, size) == (sizes, byes)


def test_a_ruleset_needing_three_players_a_table_leaves_out_whom_no_table_can_take():
    assert table_sizes(7, 4, min_size=3) == ([4, 3], 0)
    assert table_sizes(5, 3, min_size=3) == ([3], 2)


def test_the_bye_goes_to_the_lowest_ranked_player_among_those_with_the_fewest_byes():
    ranked = ["a", "b", "c", "d"]
    assert choose_byes(ranked, 1, {}) == ["d"]
    assert choose_byes(ranked, 1, {"d": 1}) == ["c"]
    assert choose_byes(ranked, 2, {"d": 1, "b": 1}) == ["c", "a"]
    assert choose_byes(ranked, 1, {"a": 1, "b": 1, "c": 1, "d": 1}) == ["d"]


def test_an_odd_field_at_two_seat_tables_gives_the_last_ranked_the_bye():
    pairing = pair_swiss(players(5), History(), 2, "s")
    assert pairing.byes == ("p04",)
    assert sorted(len(t) for t in pairing.tables) == [2, 2]


def test_the_first_swiss_round_seats_neighbours_in_the_ranking_together():
    pairing = pair_swiss(players(8), History(), 4, "s")
    assert [sorted(table) for table in pairing.tables] == [players(8)[:4], players(8)[4:]]


def test_swiss_takes_a_mate_from_lower_down_rather_than_repeat_a_meeting():
    history = History([([("p00", "p01"), ("p02", "p03")], ())])
    pairing = pair_swiss(players(4), history, 2, "s")
    assert sorted(sorted(t) for t in pairing.tables) == [["p00", "p02"], ["p01", "p03"]]


def test_group_repeats_a_meeting_only_when_every_split_must():
    met = {pair_key("a", "b"): 1, pair_key("a", "c"): 1, pair_key("b", "c"): 1}  # a, b and c all met

    def cost(tables: list[list[str]]) -> int:
        return sum(met.get(pair_key(x, y), 0) for t in tables for i, x in enumerate(t) for y in t[i + 1 :])

    assert cost(group(["a", "b", "c", "d", "e", "f"], [2, 2, 2], met)) == 0
    # with d alone to part them, two of a, b and c must share a table
    assert cost(group(["a", "b", "c", "d"], [2, 2], met)) == 1
    with pytest.raises(ValueError):
        group(["a", "b"], [3], {})


@pytest.mark.parametrize("n", range(2, 12))
def test_a_round_robin_at_two_seat_tables_meets_everyone_exactly_once_an_odd_field_in_one_round_more(n):
    order = players(n)
    history = History()
    for round_no in range(round_robin_rounds(n, 2)):
        pairing = pair_round_robin(order, order, history, 2, f"s:{round_no}")
        history.add(pairing.tables, pairing.byes)
    assert round_robin_rounds(n, 2) == (n if n % 2 else n - 1)  # an odd field: each sits out once
    assert set(history.met.values()) == {1} and len(history.met) == n * (n - 1) // 2


def test_a_round_robin_plays_at_least_the_rounds_its_tables_can_hold_the_meetings_in():
    # 5 at tables of four sit 3 + 2: four meetings a round for ten pairs; 13 sit 4 + 3 + 3 + 3
    assert [round_robin_rounds(n, 4) for n in (4, 5, 13, 16)] == [1, 3, 6, 5]
    assert round_robin_rounds(4, 3) == 3  # two tables of two a round


def test_round_robin_of_sixteen_at_four_seat_tables_meets_everyone_once_in_five_rounds():
    order = players(16)
    history = History()
    for round_no in range(round_robin_rounds(16, 4)):
        pairing = pair_round_robin(order, order, history, 4, f"s:{round_no}")
        history.add(pairing.tables, pairing.byes)
    assert round_robin_rounds(16, 4) == 5
    assert len(history.met) == 16 * 15 // 2 and set(history.met.values()) == {1}


def test_elimination_deals_the_ranking_to_the_tables_in_a_snake():
    pairing = pair_elimination(players(8), History(), 4, "s")
    assert [sorted(t) for t in pairing.tables] == [
        ["p00", "p03", "p04", "p07"],
        ["p01", "p02", "p05", "p06"],
    ]
    final = pair_elimination(["p00", "p05", "p06"], History(), 4, "s")
    assert len(final.tables) == 1 and not final.byes


def test_seats_rotate_so_nobody_sits_right_after_the_same_player_again():
    table = ("a", "b", "c", "d")
    history = History()
    first = seat(table, history, "1")
    history.add([first], ())
    second = seat(table, history, "2")
    assert successors(first).isdisjoint(successors(second))
    history.add([second], ())
    assert seat(table, history, "3")[0] not in (first[0], second[0])


def test_the_same_inputs_give_the_same_pairing_and_the_seed_order_ignores_joining_order():
    history = History([(pair_swiss(players(12), History(), 3, "a").tables, ())])
    assert pair_swiss(players(12), history, 3, "b") == pair_swiss(players(12), history, 3, "b")
    assert seed_order(["x", "y", "z"], "seed") == seed_order(["z", "x", "y"], "seed")
    assert sorted(seed_order(players(20), "one")) == players(20)
    assert seed_order(players(20), "one") != seed_order(players(20), "two")


# ----------------------------------------------------------------------
# the ranking


def table(seats: str, totals: tuple[int, ...], lower: bool = True) -> Played:
    best = min(totals) if lower else max(totals)
    return Played(tuple(seats), totals, tuple(i for i, t in enumerate(totals) if t == best))


def order_of(placings) -> str:
    return "".join(p.entrant for p in placings)


def test_club_ranks_fewer_points_first_and_mau_mau_150_more_points_first():
    played = [table("abc", (0, 12, 30))]
    assert order_of(rank("abc", played, [], lower_is_better=True)) == "abc"
    played = [table("abc", (150, 12, 30), lower=False)]
    assert order_of(rank("abc", played, [], lower_is_better=False)) == "acb"


def test_equal_points_are_ranked_by_wins():
    # a and b both have 20 points; a won a table, b won none
    played = [table("ax", (0, 9)), table("ay", (20, 5)), table("bz", (10, 3)), table("bw", (10, 4))]
    placings = rank("abxyzw", played, [], lower_is_better=True)
    a, b = (next(p for p in placings if p.entrant == e) for e in "ab")
    assert (a.points, a.wins, b.points, b.wins) == (20, 1, 20, 0)
    assert a.rank < b.rank


@pytest.mark.parametrize(("lower", "expected"), [(True, "ab"), (False, "ba")])
def test_equal_points_and_wins_are_ranked_by_the_opponents_points_in_the_rulesets_direction(lower, expected):
    # a met x (5 points), b met y (9 points); a and b scored alike and both won
    played = [
        Played(("a", "x"), (3, 5), (0,) if lower else (1,)),
        Played(("b", "y"), (3, 9), (0,) if lower else (1,)),
    ]
    placings = rank("baxy", played, [], lower_is_better=lower)
    assert order_of(p for p in placings if p.entrant in "ab") == expected
    assert {p.entrant: p.opponents for p in placings}["a"] == 5.0


def test_the_seed_order_settles_what_nothing_else_does_and_meeting_nobody_ranks_last_on_opposition():
    played = [table("ab", (4, 4))]
    assert order_of(rank("ba", played, [], lower_is_better=True)) == "ba"
    assert order_of(rank("ab", played, [], lower_is_better=True)) == "ab"
    # c had a bye worth 4 points and a win, like a and b: it met nobody, so it comes after them
    assert order_of(rank("cab", played, [("c", 4)], lower_is_better=True)) == "abc"


def test_a_bye_counts_as_a_win_with_its_points():
    placing = next(p for p in rank("ab", [], [("a", 7)], lower_is_better=True) if p.entrant == "a")
    assert (placing.entrant, placing.points, placing.wins, placing.byes, placing.tables) == ("a", 7, 1, 1, 0)


def test_the_round_reached_in_an_elimination_ranks_before_points():
    played = [table("ab", (50, 60)), table("a", (90,))]
    placings = rank("ab", played, [], lower_is_better=True, stage={"a": 3, "b": 1})
    assert order_of(placings) == "ab" and placings[0].stage == 3


def test_turns_played_by_a_clock_bot_are_counted_per_entrant():
    played = [Played(("a", "b"), (0, 5), (0,), (2, 0)), Played(("a", "b"), (0, 5), (0,), (1, 3))]
    assert {p.entrant: p.bot_turns for p in rank("ab", played, [], lower_is_better=True)} == {"a": 3, "b": 3}
