"""The tournament page's data: a single elimination's bracket, a crosstable, each entrant's rounds, and
whether everyone is there to start now, read from the tournament's view alone."""

import msgspec

from service.usecases.queries.brackets import bracket
from service.usecases.queries.crosstables import crosstable, entrant_rounds
from service.usecases.queries.leagues import all_there, grids_of
from tests.unit.tournament_views import round_, table, view

FIVE = ["a", "b", "c", "d", "e"]


def test_a_round_with_a_bye_is_followed_by_the_rounds_still_to_decide_down_to_the_final():
    first = round_(1, [table(0, ["a", "e"]), table(1, ["b", "d"])], byes=["c"], finished=False)
    drawn = bracket(view("single_elimination", FIVE, [first]))
    assert drawn is not None
    assert [(r.round_no, r.paired, len(r.matches)) for r in drawn.rounds] == [
        (1, True, 3),
        (2, False, 2),
        (3, False, 1),
    ]
    bye = drawn.rounds[0].matches[2]
    assert (bye.table, [s.name for s in bye.seats], bye.seats[0].won) == (None, ["C"], True)
    assert [m.decided for m in drawn.rounds[1].matches] == [False, False]
    assert [m.table for m in drawn.rounds[1].matches] == [0, None]  # a table and a bye to come
    assert [m.next for m in drawn.rounds[0].matches] == [0, 0, 1]  # shared out in order
    assert drawn.rounds[-1].matches[0].next is None and drawn.winners == []


def test_a_finished_round_joins_each_match_to_the_table_its_winner_went_to():
    first = round_(1, [table(0, ["a", "d"], [0, 40], [0]), table(1, ["b", "c"], [55, 0], [1], forfeited=[0])])
    second = round_(2, [table(0, ["c", "a"])], finished=False)
    drawn = bracket(view("single_elimination", ["a", "b", "c", "d"], [first, second]))
    assert drawn is not None and len(drawn.rounds) == 2  # the final is being played: nothing to come
    one, two = drawn.rounds[0].matches
    assert [(s.name, s.total, s.won) for s in one.seats] == [("A", 0, True), ("D", 40, False)]
    assert two.seats[0].forfeited and not two.seats[0].won and two.seats[1].won
    assert (one.next, two.next) == (0, 0)
    assert [s.won for s in drawn.rounds[1].matches[0].seats] == [False, False]  # not over yet


def test_a_finished_single_elimination_names_its_winners_and_a_cancelled_one_plans_no_more_rounds():
    final = round_(1, [table(0, ["a", "b"], [0, 12], [0])])
    done = bracket(view("single_elimination", ["a", "b"], [final], status="finished", winners=["a"]))
    assert done is not None and done.winners == ["A"] and len(done.rounds) == 1
    half = round_(1, [table(0, ["a", "b"]), table(1, ["c", "d"])], finished=False)
    called_off = bracket(view("single_elimination", ["a", "b", "c", "d"], [half], status="cancelled"))
    assert called_off is not None and len(called_off.rounds) == 1


def test_before_the_start_the_bracket_is_the_shape_of_the_rounds_to_come_places_for_bots_included():
    drawn = bracket(view("single_elimination", ["a", "b", "c"], [], status="announced", places=8))
    assert drawn is not None
    assert [len(r.matches) for r in drawn.rounds] == [4, 2, 1]
    assert all(not m.decided for r in drawn.rounds for m in r.matches)


def test_a_bracket_of_tables_of_three_has_a_slot_a_seat():
    drawn = bracket(view("single_elimination", [*FIVE, "f", "g"], [], status="announced", table_size=3))
    assert drawn is not None
    assert [[len(m.seats) for m in r.matches] for r in drawn.rounds] == [[3, 2, 2], [3]]


def test_every_format_that_puts_nobody_out_has_a_crosstable_and_no_bracket_a_single_elimination_none():
    assert bracket(view("swiss", ["a", "b"], [])) is None
    assert bracket(view("double_round_robin", ["a", "b"], [])) is None
    assert crosstable(view("single_elimination", ["a", "b"], [])) is None
    for name in ("swiss", "round_robin", "double_round_robin"):
        assert crosstable(view(name, ["a", "b"], [])) is not None


def test_a_double_round_robins_cell_holds_both_meetings_the_second_with_the_seats_swapped():
    rounds = [
        round_(1, [table(0, ["a", "b"], [10, 30], [0])]),
        round_(2, [table(0, ["b", "a"], [5, 0], [1])]),
    ]
    found = crosstable(view("double_round_robin", ["a", "b"], rounds))
    assert found is not None
    a, b = found.rows
    assert [(m.round_no, m.outcome, m.own, m.other) for m in a.cells[1]] == [
        (1, "won", 10, 30),
        (2, "won", 0, 5),
    ]
    assert [(m.round_no, m.outcome, m.own, m.other) for m in b.cells[0]] == [
        (1, "lost", 30, 10),
        (2, "lost", 5, 0),
    ]


def test_the_crosstable_gives_each_meeting_from_the_rows_side_in_the_rankings_order():
    rounds = [
        round_(1, [table(0, ["a", "b"], [10, 30], [0])], byes=["c"], bye_points=5),
        round_(2, [table(0, ["c", "a"], [0, 0], [0, 1]), table(1, ["b", "x"], [0, 20], [0], forfeited=[1])]),
        round_(3, [table(0, ["a", "b"], None)], byes=["c"], finished=False),
    ]
    found = crosstable(view("round_robin", ["a", "b", "c", "x"], rounds, order=["c", "a", "b", "x"]))
    assert found is not None
    assert [row.entrant for row in found.rows] == ["c", "a", "b", "x"]
    c, a, b, x = found.rows
    assert a.cells[1] == []  # the diagonal: the row's own column
    assert [(m.round_no, m.outcome, m.own, m.other) for m in a.cells[2]] == [
        (1, "won", 10, 30),
        (3, "playing", None, None),
    ]
    assert [(m.outcome, m.own, m.other) for m in b.cells[1]] == [("lost", 30, 10), ("playing", None, None)]
    assert [m.outcome for m in c.cells[1]] == ["shared"] and [m.outcome for m in a.cells[0]] == ["shared"]
    assert c.cells[2] == [] and c.cells[3] == []  # never met
    assert [(m.outcome, m.forfeited) for m in x.cells[2]] == [("lost", True)]
    assert [(m.outcome, m.forfeited) for m in b.cells[3]] == [("won", False)]


def test_at_a_table_of_three_two_who_both_lost_met_with_neither_winning():
    rounds = [round_(1, [table(0, ["a", "b", "c"], [10, 20, 0], [2])])]
    found = crosstable(view("round_robin", ["a", "b", "c"], rounds, table_size=3))
    assert found is not None
    a, _b, c = found.rows
    assert [m.outcome for m in a.cells[1]] == ["neither"] and [m.outcome for m in c.cells[0]] == ["won"]


def test_a_seat_a_bot_sat_in_for_and_an_abandoned_table_are_no_meeting():
    rounds = [
        round_(1, [table(0, ["a", "b"], [0, 12], [0], stand_ins=[1])]),
        round_(2, [table(0, ["a", "c"], None, abandoned=True)], finished=False),
    ]
    entrants = ["a", "b", "c"]
    found = crosstable(view("round_robin", entrants, rounds))
    assert found is not None and all(cell == [] for row in found.rows for cell in row.cells)
    a, b, c = entrant_rounds(view("swiss", entrants, rounds))
    assert [r.kind for r in a.rounds] == ["table", "none"]
    assert (a.rounds[0].outcome, a.rounds[0].opponents, a.rounds[0].own) == ("won", ("B",), 0)
    assert a.rounds[0].met == ()  # the bot that sat in for b met nobody
    assert [r.kind for r in b.rounds] == ["stand_in", "none"]
    assert [r.kind for r in c.rounds] == ["none", "none"]


def test_each_entrants_rounds_name_the_opponents_the_result_the_game_and_the_byes():
    rounds = [
        round_(1, [table(0, ["a", "b"], [10, 30], [0])], byes=["c"], bye_points=5),
        round_(2, [table(0, ["c", "a"])], byes=["b"], finished=False),
    ]
    a, b, c = entrant_rounds(view("round_robin", ["a", "b", "c"], rounds))
    assert [(r.round_no, r.kind, r.outcome, r.opponents) for r in a.rounds] == [
        (1, "table", "won", ("B",)),
        (2, "table", "playing", ("C",)),
    ]
    assert a.rounds[0].game_id is not None and a.rounds[0].table == 0
    assert [(r.kind, r.outcome, r.bye_points) for r in b.rounds] == [
        ("table", "lost", None),
        ("bye", None, None),
    ]
    assert [(r.kind, r.bye_points) for r in c.rounds] == [("bye", 5), ("table", None)]


def test_start_now_is_offered_once_everyone_who_joined_is_there_and_enough_would_play():
    announced = {"status": "announced"}
    assert all_there(view("swiss", ["a", "b"], [], **announced))
    assert not all_there(view("swiss", ["a"], [], **announced))
    assert all_there(view("swiss", ["a"], [], places=4, **announced))
    assert not all_there(view("swiss", [], [], places=4, **announced))
    checking = {"check_in_minutes": 30, **announced}
    assert not all_there(view("swiss", ["a", "b"], [], checked_in=["a"], **checking))
    assert all_there(view("swiss", ["a", "b"], [], checked_in=["b", "a"], **checking))
    assert not all_there(view("swiss", ["a", "b"], []))  # running already
    assert not all_there(view("swiss", ["a", "b"], [], status="cancelled"))


def test_a_swiss_crosstable_has_a_column_per_round_with_the_table_mates_row_numbers():
    """A swiss meets a few of the field: one column a round (the grid of a large field would be
    nearly all empty), each cell the row's result, its table-mates by their row numbers, its total."""
    rounds = [
        round_(1, [table(0, ["a", "b", "c"], [10, 30, 0], [2])], byes=["x"], bye_points=5),
        round_(2, [table(0, ["x", "a"], [0, 7], [0], forfeited=[1])], byes=["b"], finished=False),
    ]
    found = crosstable(view("swiss", ["a", "b", "c", "x"], rounds, table_size=3, order=["c", "x", "a", "b"]))
    assert found is not None and found.by_rounds
    assert [row.entrant for row in found.rows] == ["c", "x", "a", "b"]
    c, x, a, b = found.rows
    assert all(row.cells == [] for row in found.rows)
    assert [(r.round_no, r.kind, r.outcome, r.met, r.own) for r in a.rounds] == [
        (1, "table", "lost", (4, 1), 10),
        (2, "table", "lost", (2,), 7),
    ]
    assert a.rounds[1].forfeited and not x.rounds[1].forfeited
    assert [(r.kind, r.outcome, r.met) for r in c.rounds] == [("table", "won", (3, 4)), ("none", None, ())]
    assert [(r.kind, r.bye_points) for r in x.rounds] == [("bye", 5), ("table", None)]
    assert [r.kind for r in b.rounds] == ["table", "bye"]


def test_a_round_robins_crosstable_is_a_grid_and_a_swiss_one_by_rounds():
    assert not crosstable(view("round_robin", ["a", "b"], [])).by_rounds  # type: ignore[union-attr]
    assert not crosstable(view("double_round_robin", ["a", "b"], [])).by_rounds  # type: ignore[union-attr]
    assert crosstable(view("swiss", ["a", "b"], [])).by_rounds  # type: ignore[union-attr]


def test_a_views_grids_are_made_once_per_content_and_again_when_a_result_comes_in():
    """The tournament page keeps a view's grids while the view shows the same (the read models'
    position moves with every event anywhere, and is not shown), and makes them again when it
    changes."""
    playing = [round_(1, [table(0, ["a", "b"], None)], byes=["c"], finished=False)]
    before = view("swiss", ["a", "b", "c"], playing)
    first = grids_of(before)
    assert grids_of(msgspec.structs.replace(before, position=99)) is first
    done = [round_(1, [table(0, ["a", "b"], [0, 12], [0])], byes=["c"])]
    after = msgspec.structs.replace(before, rounds=done, position=100)
    again = grids_of(after)
    assert again is not first and again.digest != first.digest
    assert [r.outcome for r in first.played[0].rounds] == ["playing"]
    assert [r.outcome for r in again.played[0].rounds] == ["won"]
    assert again.crosstable is not None and again.crosstable.rows[0].rounds[0].outcome == "won"
