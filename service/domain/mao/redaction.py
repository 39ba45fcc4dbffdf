"""What a viewer may see of each Mao event: the judge everything, a seat its own cards,
the public what is on the table and what was said aloud.

Hidden from all but the judge: the rule until ``RuleRevealed`` (written, proposed,
approved), the clauses in force and the calls due (they tell the rule), the words of a
missed call of the rule's own, the deck and a recycle's order. A seat sees the cards it
was dealt and the cards it takes. Cards are named ("QH").
"""

from collections.abc import Callable
from typing import Any

import msgspec

from service.domain.cards import format_card, format_cards
from service.domain.mao.events import Event
from service.domain.mao.speech import RULE_CALL
from service.domain.mao.state import State


class Viewer(msgspec.Struct, frozen=True):
    judge: bool = False
    seat: int | None = None

    @classmethod
    def at(cls, seat: int) -> "Viewer":
        return cls(seat=seat)


JUDGE = Viewer(judge=True)
PUBLIC = Viewer()

Data = dict[str, Any]


def redact(event: Event, viewer: Viewer, s: State) -> Data:
    """The event as ``viewer`` may see it; ``s`` is the state before it (for the deal's hands)."""
    data: Data = msgspec.to_builtins(event)
    shown = _SHOW.get(data["type"])
    if shown is None:
        return data if viewer.judge else {"type": data["type"]}
    return shown(data, viewer, s)


def _all(data: Data, viewer: Viewer, s: State) -> Data:
    return data


def _named(data: Data, viewer: Viewer, s: State) -> Data:
    data["card"] = format_card(data["card"])
    return data


def _judge_only(*fields: str) -> Callable[[Data, Viewer, State], Data]:
    def show(data: Data, viewer: Viewer, s: State) -> Data:
        if not viewer.judge:
            for name in fields:
                data.pop(name)
        return data

    return show


def _round_dealt(data: Data, viewer: Viewer, s: State) -> Data:
    deck: list[int] = data.pop("deck")
    seats, dealt = s.seats, s.seats * s.hand_size
    data["starter"] = format_card(deck[dealt])
    data["cards"] = [s.hand_size] * seats
    data["stock"] = len(deck) - dealt - 1
    if viewer.judge:
        data["deck"] = format_cards(deck)
    elif viewer.seat is not None:
        first = (viewer.seat - data["dealer"] - 1) % seats
        data["hand"] = format_cards(sorted(deck[first:dealt:seats]))
    return data


def _card_played(data: Data, viewer: Viewer, s: State) -> Data:
    data = _named(data, viewer, s)
    if not viewer.judge:
        del data["in_force"], data["due"]
    return data


def _card_taken(data: Data, viewer: Viewer, s: State) -> Data:
    card = data.pop("card")
    if viewer.judge or viewer.seat == data["seat"]:
        data["card"] = format_card(card)
    return data


def _call_missed(data: Data, viewer: Viewer, s: State) -> Data:
    if data["kind"] == RULE_CALL and not viewer.judge:
        del data["words"]
    return data


def _stock_recycled(data: Data, viewer: Viewer, s: State) -> Data:
    order: list[int] = data.pop("order")
    data["count"] = len(order)
    if viewer.judge:
        data["order"] = format_cards(order)
    return data


def _rule_proposed(data: Data, viewer: Viewer, s: State) -> Data:
    if not (viewer.judge or viewer.seat == data["seat"]):
        del data["text"]
    return data


_SHOW: dict[str, Callable[[Data, Viewer, State], Data]] = {
    "MatchStarted": _all,
    "RuleWritten": _judge_only("text"),
    "RoundDealt": _round_dealt,
    "CardPlayed": _card_played,
    "PlayReturned": _named,  # the card was shown on the table, then taken back
    "PlayCancelled": _named,
    "CardDrawn": _judge_only("in_force"),
    "CallMade": _all,
    "Spoke": _all,
    "CallMissed": _call_missed,
    "PenaltyGiven": _all,
    "CardTaken": _card_taken,
    "StockRanOut": _all,
    "StockRecycled": _stock_recycled,
    "PauseCalled": _all,
    "PauseEnded": _all,
    "RoundEnded": _all,
    "RuleRevealed": _all,
    "RuleProposed": _rule_proposed,
    "RuleApproved": _judge_only("text"),
    "RuleRefused": _judge_only("text"),
    "MatchEnded": _all,
}


def redact_all(events: list[Event], viewer: Viewer) -> list[Data]:
    """Every event of a log as ``viewer`` may see it."""
    s, shown = State(), []
    for event in events:
        shown.append(redact(event, viewer, s))
        event.apply(s)
    return shown
