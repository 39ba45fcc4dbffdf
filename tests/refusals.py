"""A refusal by the rules, checked one way everywhere: the act raises ``RuleError`` with the code the
test expects and a message that says why. (Over HTTP the same refusal is ``Club.refuses``, in
tests/e2e/club.py: the problem+json of a status and code, and nothing stored.)"""

from collections.abc import Callable

import pytest

from service.domain.errors import RuleError


def refused(code: str, act: Callable[[], object]) -> RuleError:
    """``act`` is refused with ``code`` and a message; the error, for a test that reads more of it."""
    with pytest.raises(RuleError) as found:
        act()
    assert found.value.code == code, found.value
    assert found.value.message, found.value
    return found.value
