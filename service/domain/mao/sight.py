"""What each sight of a Mao match's events keeps of an entry: the pieces an event class declares as
its ``declaration.shown`` (``redaction.redact`` applies them; the sights and the rule are told there).

The sights are the card game's (``service.domain.sight``): the judge's is ``FULL``. An event whose
entry only keeps its fields declares ``sight.kept``; one with cards to name, or with the rule or
cards to hide, declares its own here.
"""

from service.domain.cards import format_card, format_cards
from service.domain.mao.speech import RULE_CALL
from service.domain.sight import Data, Shown, Table, Viewer


def named(data: Data, viewer: Viewer, table: Table) -> Data:
    data["card"] = format_card(data["card"])
    return data


def judge_only(*fields: str) -> Shown:
    def show(data: Data, viewer: Viewer, table: Table) -> Data:
        if not viewer.full:
            for name in fields:
                data.pop(name)
        return data

    return show


def round_dealt(data: Data, viewer: Viewer, table: Table) -> Data:
    deck: list[int] = data.pop("deck")
    seats, dealt = table.seats, table.seats * table.hand_size
    data["starter"] = format_card(deck[dealt])
    data["cards"] = [table.hand_size] * seats
    data["stock"] = len(deck) - dealt - 1
    if viewer.full:
        data["deck"] = format_cards(deck)
    elif viewer.seat is not None:
        first = (viewer.seat - data["dealer"] - 1) % seats
        data["hand"] = format_cards(sorted(deck[first:dealt:seats]))
    return data


def card_played(data: Data, viewer: Viewer, table: Table) -> Data:
    data = named(data, viewer, table)
    if not viewer.full:
        del data["in_force"], data["due"]
    return data


def card_taken(data: Data, viewer: Viewer, table: Table) -> Data:
    card = data.pop("card")
    if viewer.full or viewer.seat == data["seat"]:
        data["card"] = format_card(card)
    return data


def call_missed(data: Data, viewer: Viewer, table: Table) -> Data:
    if data["kind"] == RULE_CALL and not viewer.full:
        del data["words"]
    return data


def stock_recycled(data: Data, viewer: Viewer, table: Table) -> Data:
    order: list[int] = data.pop("order")
    data["count"] = len(order)
    if viewer.full:
        data["order"] = format_cards(order)
    return data


def rule_proposed(data: Data, viewer: Viewer, table: Table) -> Data:
    if not (viewer.full or viewer.seat == data["seat"]):
        del data["text"]
    return data
