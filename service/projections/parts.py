"""The read models in parts that go stale alone.

The projection folds every event into five parts of the read models. When a part cannot fold an
event (a fault in its code, an event it does not know), that part is marked stale at the event
(``views_stale``, in the batch's transaction) and is folded no further; the others go on. A part
fed by another's state stops with it: ratings and webhook deliveries are made from the games as
folded, deliveries from the tournaments too. A stale part's rows stay as they were at the event it
stopped at until ``maumau projections rebuild`` (with the fault mended) folds the log again.

``/ready`` answers 503 while a part that players and clubs act on is stale (``REQUIRED``); a stale
ratings or webhooks part is named in its answer and metrics but leaves the process ready: the
games, standings and brackets it serves are current.

A player's name and erasure are written whatever is stale: an erasure is never held up.
"""

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
    MAO: (),
    RATINGS: (),
    WEBHOOKS: (),
}
