"""What a viewer may see of each Mao event: the judge everything, a seat its own cards,
the public what is on the table and what was said aloud.

The sights are the card game's (``service.domain.sight``): the judge's is ``FULL`` (``JUDGE``),
a seat's ``Viewer.at(seat)``, anyone's ``PUBLIC``. Hidden from all but the judge: the rule until
``RuleRevealed`` (written, proposed, approved), the clauses in force and the calls due (they tell
the rule), the words of a missed call of the rule's own, the deck and a recycle's order. A seat
sees the cards it was dealt and the cards it takes. Cards are named ("QH").

Each event class declares what a sight keeps of it, beside its fields (``declaration.shown``, from
``mao.sight``); ``redact`` applies it.
"""

import msgspec

from service.domain.mao.events import Event
from service.domain.mao.state import State
from service.domain.sight import FULL as JUDGE
from service.domain.sight import PUBLIC as PUBLIC
from service.domain.sight import Data, Table
from service.domain.sight import Viewer as Viewer

__all__ = ["JUDGE", "PUBLIC", "Viewer", "redact", "redact_all"]


def redact(event: Event, viewer: Viewer, s: State) -> Data:
    """The event as ``viewer`` may see it; ``s`` is the state before it (for the deal's hands)."""
    return event.declaration.shown(msgspec.to_builtins(event), viewer, Table(s.seats, s.hand_size))


def redact_all(events: list[Event], viewer: Viewer) -> list[Data]:
    """Every event of a log as ``viewer`` may see it."""
    s, shown = State(), []
    for event in events:
        shown.append(redact(event, viewer, s))
        event.apply(s)
    return shown
