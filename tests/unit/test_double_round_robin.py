"""A double round robin's pairing by example: every pair meets twice, the second time with the seats
reversed (swapped at tables of two), an odd field's byes one each a cycle, a drop-out's partner
paired again, the same inputs the same rounds."""

from collections import Counter
from itertools import combinations

import pytest

from service.domain.formats import FORMATS, Draw
from service.domain.pairing import History, Pairing, pair_double_round_robin, pair_key, round_robin_rounds

Round = tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]


def players(n: int) -> list[str]:
    return [f"p{i:02}" for i in range(n)]


def schedule(n: int, size: int, dropped: dict[int, str] | None = None, salt: str = "s") -> list[Round]:
    """Every round of a double round robin of ``n`` at tables of ``size``, paired one after the
    other as the tournament does; ``dropped``: before round k, that player drops out."""
    active, rounds, history = players(n), [], History()
    cycle = round_robin_rounds(n, size)
    for round_no in range(1, 2 * cycle + 1):
        if dropped and round_no in dropped:
            active.remove(dropped[round_no])
        pairing = pair_double_round_robin(active, active, rounds, cycle, history, size, f"{salt}:{round_no}")
        seated = [p for table in pairing.tables for p in table]
        assert sorted(seated + list(pairing.byes)) == sorted(active)  # each once
        assert all(2 <= len(table) <= size for table in pairing.tables)
        history.add(pairing.tables, pairing.byes)
        rounds.append((pairing.tables, pairing.byes))
    return rounds


def meetings(rounds: list[Round]) -> Counter[tuple[str, str]]:
    return Counter(
        pair_key(a, b) for tables, _ in rounds for table in tables for a, b in combinations(table, 2)
    )


@pytest.mark.parametrize("n", range(2, 11))
def test_at_tables_of_two_every_pair_meets_exactly_twice_the_second_time_with_the_seats_swapped(n):
    rounds = schedule(n, 2)
    assert len(rounds) == 2 * (n if n % 2 else n - 1)
    assert meetings(rounds) == Counter({pair: 2 for pair in combinations(players(n), 2)})
    games = [table for tables, _ in rounds for table in tables]
    for a, b in combinations(players(n), 2):
        first, second = [table for table in games if set(table) == {a, b}]
        assert second == first[::-1]  # the other player first (dealing)


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_an_odd_field_at_tables_of_two_gives_everyone_one_bye_a_cycle(n):
    rounds = schedule(n, 2)
    cycle = len(rounds) // 2
    for half in (rounds[:cycle], rounds[cycle:]):
        byes = [bye for _, round_byes in half for bye in round_byes]
        assert sorted(byes) == players(n)


@pytest.mark.parametrize(("n", "size"), [(7, 3), (9, 3), (10, 4), (16, 4)])
def test_at_larger_tables_the_second_cycle_replays_the_first_in_reversed_seat_order(n, size):
    rounds = schedule(n, size)
    cycle = len(rounds) // 2
    assert cycle == round_robin_rounds(n, size)
    for (first, first_byes), (second, second_byes) in zip(rounds[:cycle], rounds[cycle:], strict=True):
        assert second == tuple(table[::-1] for table in first) and second_byes == first_byes
    twice = meetings(rounds)
    assert twice == Counter({pair: 2 * count for pair, count in meetings(rounds[:cycle]).items()})


def test_a_drop_out_in_the_second_cycle_leaves_the_partner_to_the_rounds_bye_and_the_rest_replayed():
    n, cycle = 5, 5
    rounds = schedule(n, 2, dropped={cycle + 2: "p01"})
    replayed, original = rounds[cycle + 1], rounds[1]
    gone = next(table for table in original[0] if "p01" in table)
    partner = next(p for p in gone if p != "p01")
    kept = tuple(table[::-1] for table in original[0] if table != gone)
    # the other tables replayed, swapped; the partner alone and the round's bye play each other
    assert replayed[0][: len(kept)] == kept
    assert {*replayed[0][len(kept)], *replayed[1]} == {partner, *original[1]} and replayed[1] == ()


def test_a_drop_out_leaving_a_partner_and_nobody_with_a_bye_gives_the_partner_the_bye():
    rounds = schedule(4, 2, dropped={4: "p02"})
    original = rounds[0]
    partner = next(p for table in original[0] if "p02" in table for p in table if p != "p02")
    assert rounds[3][1] == (partner,) and len(rounds[3][0]) == 1


def test_the_same_inputs_give_the_same_rounds_and_another_seed_other_rounds():
    assert schedule(8, 2) == schedule(8, 2)
    assert schedule(6, 3, salt="a") == schedule(6, 3, salt="a")
    assert meetings(schedule(8, 2, salt="a")) == meetings(schedule(8, 2, salt="b"))


def test_the_format_pairs_from_the_draw_and_plays_twice_its_cycle():
    unit = FORMATS["double_round_robin"]
    assert unit.rounds_to_play(None, 5, 2) == 10 and unit.rounds_to_play(None, 16, 4) == 10
    order, history, earlier = players(4), History(), []
    for round_no in range(1, 7):
        draw = Draw(order, order, set(order), history, 2, f"s:{round_no}", rounds=tuple(earlier), planned=6)
        pairing = unit.pair(draw)
        paired = [(played.tables, played.byes) for played in earlier]
        assert pairing == pair_double_round_robin(order, order, paired, 3, history, 2, f"s:{round_no}")
        history.add(pairing.tables, pairing.byes)
        earlier.append(Pairing(tables=pairing.tables, byes=pairing.byes))
    assert set(history.met.values()) == {2}
