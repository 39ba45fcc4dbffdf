"""The application's one retry policy, and the error its one save path raises (``Core.save``).

Every use case that changes something is an attempt: it loads what it changes (from the store, or a
game from the process's game cache), decides, and hands the aggregates it changed to ``Core.save``,
which stores their new events in one transaction. A save that meets another write at one of those
aggregates' versions stores nothing of it and raises ``Conflict``. ``retried`` runs the attempt again
from what is stored now, after a short pause, at most ``ATTEMPTS`` times in all: a request sent twice
at once finds what the first stored (an aggregate remembers each idempotency key with its request's
digest: ``domain.kind.Keyed``), one the other write made pointless is refused
by the domain, the rest succeed. Past the limit the conflict becomes the refusal ``stale_version``
(409), raised ``from None``: the store's error is no part of the answer.
"""

import random
import time
from collections.abc import Callable
from typing import TypeVar

from service.domain.errors import RuleError

T = TypeVar("T")

# how many times an attempt is made at most, and the pause before the second (doubled before each
# later one, and drawn at random below it, so that two writers that met do not meet again in step)
ATTEMPTS = 5
BACKOFF = 0.002  # seconds


class Conflict(Exception):
    """Another write stored events at a version this save meant to: nothing of this save is stored,
    and the aggregates it was given are spent (their events were taken): load them again."""


def retried(attempt: Callable[[], T]) -> T:
    """``attempt`` (which loads what it changes) again while its save meets a concurrent one; past
    ``ATTEMPTS`` the refusal ``stale_version``."""
    for number in range(1, ATTEMPTS):
        try:
            return attempt()
        except Conflict:
            time.sleep(random.uniform(0.0, BACKOFF * 2 ** (number - 1)))
    try:
        return attempt()
    except Conflict:
        raise RuleError("stale_version", why="was_changed_meanwhile") from None
