"""What a viewer may see of a game's events: the referee's entries, cut down.

Three sights (``Viewer``):

- ``FULL``: an admin or the game's referee: everything (the seed and its entropy are never in an entry);
- ``Viewer.at(seat)``: the player at that seat: their own cards in deals, draws and a
  void's restored state, and of the others only how many cards they hold;
- ``PUBLIC``: anyone: no card of any hand.

Nobody but ``FULL`` sees an order of cards still to come: a deal's deck, a
recycle's new stock order, a reshuffle's order (a seat sees the cards it was
dealt back), an explicit deck given at creation, the secret
salts of the shuffle commitments (the shuffles endpoint publishes orders
once their salts are revealed, see ``MauMau.shuffles``), nor the idempotency
keys of other clients. Counts stay: cards dealt, drawn and left in the stock.
The starter and every played card are on the table, so public, except a card played face down
(``blind``): until it is challenged or the round ends, only its player sees it; the others see
the card it was declared as in its place. So is a score sheet's entry
of a game played in person (``RoundEntered``, and a ruling that corrects one): it names the cards
left in hand once the round is over, as the sheet on the table does.

Each event class declares what a sight keeps of its entry, beside its fields (``declaration.shown``, from
``sight``); ``redact`` finds it by the entry's type. Only the fields it names pass: a type no class
declares (a newer service's) shows its type and number and nothing else, unless the sight is ``FULL``.

Cards, suits, calls, draw reasons and phases are shown by name ("10H", "S",
"mau", "debt", "play") for every sight, as the HTTP API speaks them.
"""

import msgspec

from service.domain.declared import DECLARED
from service.domain.history import Cause
from service.domain.sight import FULL as FULL
from service.domain.sight import PUBLIC as PUBLIC
from service.domain.sight import Shown
from service.domain.sight import Table as Table
from service.domain.sight import Viewer as Viewer
from service.domain.views import Entry


def redact(entry: Entry, viewer: Viewer, table: Table) -> Entry:
    """The entry as ``viewer`` may see it (cards named)."""
    shown = SHOWN.get(entry.type)
    if shown is None:
        data = dict(entry.data) if viewer.full else {}
    else:
        data = shown(dict(entry.data), viewer, table)
    data.pop("originator_topic", None)
    cause = entry.cause
    if cause is not None and not viewer.full:
        cause = Cause(cause.actor, cause.command)
    return msgspec.structs.replace(entry, data=data, cause=cause)


SHOWN: dict[str, Shown] = {name: declaration.shown for name, declaration in DECLARED.items()}
