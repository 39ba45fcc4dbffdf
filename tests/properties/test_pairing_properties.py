"""Properties of the pairing (hypothesis chooses the field, the table size and the rankings).

- every active player is seated exactly once per round, or has the round's bye;
- tables seat 2 to table_size players, differing by at most one;
- byes are spread: nobody gets a second bye while someone else has none;
- a double round robin's second cycle, whoever drops out, seats everyone still playing once;
- no repeated table-mates while avoidable: for up to nine players the pairing
  repeats as few meetings as the best split there is (found by brute force);
  with at least table_size² players a second round never repeats a meeting
  (dealing each first-round table across the tables shows it can be done).
"""

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain.pairing import (
    History,
    Pairing,
    pair_double_round_robin,
    pair_elimination,
    pair_key,
    pair_round_robin,
    pair_swiss,
    table_sizes,
)

FORMATS = ("swiss", "round_robin", "single_elimination")


def players(n: int) -> list[str]:
    return [f"p{i:02}" for i in range(n)]


def pair(fmt: str, order: Sequence[str], ranked: Sequence[str], history: History, size: int, salt: str):
    if fmt == "swiss":
        return pair_swiss(ranked, history, size, salt)
    if fmt == "round_robin":
        return pair_round_robin(order, ranked, history, size, salt)
    return pair_elimination(ranked, history, size, salt)


def repeats(pairing: Pairing, history: History) -> int:
    return sum(
        history.met[pair_key(a, b)]
        for table in pairing.tables
        for i, a in enumerate(table)
        for b in table[i + 1 :]
    )


def splits(rest: list[str], sizes: Counter[int]) -> Iterator[list[list[str]]]:
    """Every way to seat ``rest`` at tables of ``sizes`` (order within and between tables aside)."""
    if not rest:
        yield []
        return
    head, others = rest[0], rest[1:]
    for size in +sizes:
        for mates in combinations(others, size - 1):
            left = [p for p in others if p not in mates]
            for tail in splits(left, sizes - Counter([size])):
                yield [[head, *mates], *tail]


def fewest_repeats(field: list[str], sizes: list[int], history: History) -> int:
    return min(
        sum(
            history.met[pair_key(a, b)]
            for table in split
            for i, a in enumerate(table)
            for b in table[i + 1 :]
        )
        for split in splits(field, Counter(sizes))
    )


@settings(max_examples=100, deadline=None)
@given(
    fmt=st.sampled_from(FORMATS),
    n=st.integers(1, 40),
    size=st.integers(2, 6),
    rounds=st.integers(1, 6),
    data=st.data(),
)
def test_every_player_is_seated_once_at_tables_within_the_size_and_byes_are_spread(
    fmt, n, size, rounds, data
):
    order = players(n)
    history = History()
    active = list(order)
    for round_no in range(1, rounds + 1):
        ranked = data.draw(st.permutations(active))
        pairing = pair(fmt, order if fmt == "round_robin" else ranked, ranked, history, size, f"s:{round_no}")
        seated = [p for table in pairing.tables for p in table]
        assert sorted(seated + list(pairing.byes)) == sorted(active)
        assert len(seated) == len(set(seated))
        lengths = [len(table) for table in pairing.tables]
        assert all(2 <= length <= size for length in lengths)
        assert not lengths or max(lengths) - min(lengths) <= 1
        assert len(pairing.byes) == table_sizes(len(active), size)[1]
        for bye in pairing.byes:
            assert all(history.byes[bye] <= history.byes[p] for p in active)
        history.add(pairing.tables, pairing.byes)
        if fmt == "single_elimination":
            # a random winner per table (and the byes) go through
            active = [*pairing.byes, *(data.draw(st.sampled_from(table)) for table in pairing.tables)]
            if len(active) < 2:
                break


@settings(max_examples=80, deadline=None)
@given(
    fmt=st.sampled_from(("swiss", "round_robin")),
    n=st.integers(2, 9),
    size=st.integers(2, 6),
    earlier=st.integers(1, 3),
    data=st.data(),
)
def test_no_meeting_is_repeated_that_the_best_split_avoids(fmt, n, size, earlier, data):
    order = players(n)
    history = History()
    for round_no in range(earlier):
        ranked = data.draw(st.permutations(order))
        history.add(pair(fmt, order, ranked, history, size, f"s:{round_no}").tables, ())
    ranked = data.draw(st.permutations(order))
    pairing = pair(fmt, order, ranked, history, size, "now")
    seated = [p for p in (ranked if fmt == "swiss" else order) if p not in pairing.byes]
    sizes = [len(table) for table in pairing.tables]
    assert repeats(pairing, history) == fewest_repeats(seated, sizes, history)


@settings(max_examples=30, deadline=None)
@given(size=st.integers(2, 6), extra=st.integers(0, 30), data=st.data())
def test_a_second_round_repeats_no_meeting_when_there_are_at_least_table_size_squared_players(
    size, extra, data
):
    order = players(size * size + extra)
    history = History()
    first = pair_swiss(data.draw(st.permutations(order)), history, size, "1")
    history.add(first.tables, first.byes)
    second = pair_swiss(data.draw(st.permutations(order)), history, size, "2")
    assert repeats(second, history) == 0


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 14), size=st.integers(2, 4), data=st.data())
def test_a_double_round_robin_seats_everyone_still_playing_once_whoever_drops_out(n, size, data):
    active = players(n)
    cycle = max(1, -(-(n - 1) // (size - 1)))
    history, earlier = History(), []
    for round_no in range(1, 2 * cycle + 1):
        if len(active) > 2 and data.draw(st.booleans()) and data.draw(st.booleans()):
            active.remove(data.draw(st.sampled_from(active)))
        pairing = pair_double_round_robin(active, active, earlier, cycle, history, size, f"s:{round_no}")
        seated = [p for table in pairing.tables for p in table]
        assert sorted(seated + list(pairing.byes)) == sorted(active)
        assert all(2 <= len(table) <= size for table in pairing.tables)
        history.add(pairing.tables, pairing.byes)
        earlier.append((pairing.tables, pairing.byes))
