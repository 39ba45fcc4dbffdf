"""The count of wrong invitation secrets: per client address and invitation, over a sliding window."""

import time
from uuid import UUID, uuid4

from service.domain.errors import RuleError
from service.usecases.invitations import Refusals

FIRST, SECOND = UUID(int=1), UUID(int=2)


def turned_away(refusals: Refusals, address: str, invitation: UUID) -> bool:
    """Whether this wrong secret is refused as one too many, or only counted: the tests ask which, so
    not ``tests.refusals.refused``, which fails on one only counted."""
    try:
        refusals.count(address, invitation)
    except RuleError as error:
        assert error.code == "too_many_attempts"
        return True
    return False


def test_wrong_secrets_are_counted_per_address_and_invitation():
    refusals = Refusals(2)
    assert [turned_away(refusals, "198.51.100.1", FIRST) for _ in range(4)] == [False, False, True, True]
    assert not turned_away(refusals, "198.51.100.1", SECOND)
    assert not turned_away(refusals, "198.51.100.2", FIRST)


def test_a_limit_of_zero_refuses_nothing():
    refusals = Refusals(0)
    assert not any(turned_away(refusals, "198.51.100.1", FIRST) for _ in range(50))


def test_counts_leave_with_the_window_and_pairs_with_no_count_left_are_forgotten():
    refusals = Refusals(1, window=0.05)
    assert not turned_away(refusals, "198.51.100.1", FIRST)
    assert turned_away(refusals, "198.51.100.1", FIRST)
    for index in range(100):  # a guess at a different invitation each time
        turned_away(refusals, f"203.0.113.{index}", uuid4())
    time.sleep(0.1)
    assert not turned_away(refusals, "198.51.100.1", FIRST)  # the window has passed
    # what a sprayer left is not kept: only the pair counted just now is
    assert list(refusals._times) == [("198.51.100.1", FIRST)]
