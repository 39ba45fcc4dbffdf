"""The read models in parts that go stale alone.

The projection folds every event into five parts of the read models. When a part cannot fold an
event (a fault in its code, an event it does not know), that part is marked stale at the event
(``views_stale``, in the batch's transaction) and is folded no further; the others go on. A part
fed by another's state stops with it: ratings and webhook deliveries are made from the games as
folded, deliveries from the tournaments too, and people's notices from the Mao matches as well. A
stale part's rows stay as they were at the event it stopped at until ``maumau projections
rebuild`` (with the fault mended) folds the log again, all of it or ``--part NAME`` only
(``rebuilt_with``: with the parts fed by it).

``/ready`` answers 503 while a part that players and clubs act on is stale (``REQUIRED``); a stale
ratings or webhooks part is named in its answer and metrics but leaves the process ready: the
games, standings and brackets it serves are current.

A player's name and erasure are written whatever is stale: an erasure is never held up.
"""

from collections.abc import Collection, Iterable
from typing import Final

CORE: Final = "core"  # games, players, leagues and their people, standings, lists, disputes, bot turns
TOURNAMENTS: Final = "tournaments"  # brackets and seats
MAO: Final = "mao"  # Mao matches' list rows and their standings
RATINGS: Final = "ratings"  # league ratings and their history
WEBHOOKS: Final = "webhooks"  # the hooks and the deliveries their events make

PARTS: Final = (CORE, TOURNAMENTS, MAO, RATINGS, WEBHOOKS)
REQUIRED: Final = frozenset({CORE, TOURNAMENTS, MAO})
# the parts made from another's state: stale with it
FED_BY: Final[dict[str, tuple[str, ...]]] = {
    CORE: (RATINGS, WEBHOOKS),
    TOURNAMENTS: (WEBHOOKS,),
    MAO: (WEBHOOKS,),  # the notices of a Mao seat's turn
    RATINGS: (),
    WEBHOOKS: (),
}
# tables of another part's view a part writes rows into (a Mao match's end adds to the standings):
# a rebuild of the part replaces them too, so the part that owns them must fold soundly as well
SHARES: Final[dict[str, tuple[str, ...]]] = {MAO: ("standings",)}


def rebuilt_with(parts: Iterable[str]) -> tuple[str, ...]:
    """These parts and every part fed by them, in ``PARTS``' order: what a rebuild of them replaces."""
    found = set(parts)
    grown = True
    while grown:
        more = {fed for part in found for fed in FED_BY[part]} - found
        found |= more
        grown = bool(more)
    return tuple(part for part in PARTS if part in found)


def feeding(part: str) -> tuple[str, ...]:
    """The parts ``part`` is fed by."""
    return tuple(feeder for feeder in PARTS if part in FED_BY[feeder])


def mending(stale: Collection[str]) -> str:
    """The command that rebuilds these stale parts: each one not fed by another of them (the rebuild of
    a part takes those fed by it along)."""
    roots = [part for part in PARTS if part in stale and not set(feeding(part)) & set(stale)]
    return "maumau projections rebuild " + " ".join(f"--part {part}" for part in roots)
