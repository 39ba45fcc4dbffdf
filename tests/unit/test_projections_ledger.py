"""The projection's ledger: which counted facts are in force after voids."""

from datetime import UTC, datetime

from service.projections.fold import End, Ledger, Mark


def penalties(*numbers: int) -> list[Mark]:
    return [Mark(number, 1, 0, 2) for number in numbers]


def in_force(ledger: Ledger) -> list[int]:
    return [mark.number for mark in ledger.in_force().penalties]


def test_without_a_void_every_fact_is_in_force():
    assert in_force(Ledger(created=1, penalties=penalties(5, 9))) == [5, 9]


def test_a_void_drops_the_facts_from_its_first_voided_event_to_the_ruling_and_keeps_later_ones():
    # a ruling at event 20 voids events 8 to 19
    ledger = Ledger(created=1, penalties=penalties(5, 8, 12, 25), voids=[(20, 8)])
    assert in_force(ledger) == [5, 25]


def test_a_later_void_reaching_back_past_an_earlier_one_restores_what_was_in_force_then():
    # ruling 1 at 20 voids 10..19 (fact 12 goes); ruling 2 at 40 voids back from 15: the game goes on
    # from its state after event 14 as it was folded then, when fact 12 still stood
    ledger = Ledger(created=1, penalties=penalties(5, 12, 25, 30), voids=[(20, 10), (40, 15)])
    assert in_force(ledger) == [5, 12]


def test_a_void_reaching_back_past_the_match_end_reopens_the_match():
    at = datetime(2026, 1, 1, tzinfo=UTC)
    ledger = Ledger(created=1, ends=[End(50, at)])
    assert ledger.in_force().ended_at == at
    ledger.voids.append((52, 45))
    assert ledger.in_force().ended_at is None
