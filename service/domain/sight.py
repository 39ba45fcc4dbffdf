"""What each sight of a game's events keeps of an entry: the pieces an event class declares as its
``declaration.shown`` (``redaction.redact`` applies them; the sights and the rule are told there).

An event whose entry only keeps its fields declares ``kept``; one with cards, suits or calls to name,
or cards to hide, declares its own here.
"""

from collections.abc import Callable
from typing import Any

import msgspec

from service.domain.cards import SUITS, format_card, format_cards
from service.domain.dealing import dealt_hands
from service.domain.rulebook import CALL_NAMES
from service.domain.state import DRAW_REASONS, PHASE_NAMES


class Viewer(msgspec.Struct, frozen=True):
    full: bool = False
    seat: int | None = None

    @classmethod
    def at(cls, seat: int) -> "Viewer":
        return cls(seat=seat)


FULL = Viewer(full=True)
PUBLIC = Viewer()


class Table(msgspec.Struct, frozen=True):
    """What redaction needs to know of the game: how many seats, how many cards a hand is dealt."""

    seats: int
    hand_size: int


Data = dict[str, Any]


# what a sight keeps of an entry's data: an event class's ``declaration.shown``
Shown = Callable[[Data, Viewer, Table], Data]


def _suit(suit: int) -> str | None:
    return SUITS[suit] if suit >= 0 else None


def _call(call: int) -> str | None:
    return CALL_NAMES[call]


def created(data: Data, viewer: Viewer, table: Table) -> Data:
    deck = data.pop("deck", None)
    data["seats"] = [f"bot:{name}" if kind == "bot" else name for kind, name in data["seats"]]
    data["explicit_deck"] = deck is not None
    if viewer.full and deck is not None:
        data["deck"] = format_cards(deck)
    return data


def kept(data: Data, viewer: Viewer, table: Table) -> Data:
    return data


def round_dealt(data: Data, viewer: Viewer, table: Table) -> Data:
    deck: list[int] = data.pop("deck")
    salt = data.pop("salt", None)
    seats, dealt = table.seats, table.seats * table.hand_size
    dealer = data["dealer"]
    sizes: list[int] = data.get("sizes") or []
    if sizes:  # hands of their own sizes, seats out of the match dealt nothing
        dealt = sum(sizes)
    data["phase"] = PHASE_NAMES[data["phase"]]
    data["starter"] = format_card(deck[dealt])
    data["cards"] = list(sizes) or [table.hand_size] * seats
    data["stock"] = len(deck) - dealt - 1
    if viewer.full:
        data["deck"] = format_cards(deck)
        data["salt"] = salt
    elif viewer.seat is not None and sizes:
        data["hand"] = format_cards(dealt_hands(seats, dealer, tuple(deck), tuple(sizes))[viewer.seat])
    elif viewer.seat is not None:
        first = (viewer.seat - dealer - 1) % seats  # the seat's first card in the deal
        data["hand"] = format_cards(sorted(deck[first:dealt:seats]))
    return data


def deal_annulled(data: Data, viewer: Viewer, table: Table) -> Data:
    """Who was dealt four of which rank is said at the table; the rest of that deal stays hidden
    cards: its order and salt in the full sight only (the salt is public once the round ends)."""
    deck: list[int] = data.pop("deck", [])
    salt = data.pop("salt", None)
    if viewer.full:
        data["deck"] = format_cards(deck)
        data["salt"] = salt
    return data


def suit_named(data: Data, viewer: Viewer, table: Table) -> Data:
    data["suit"] = _suit(data["suit"])
    return data


def card_played(data: Data, viewer: Viewer, table: Table) -> Data:
    declared = data.pop("declared", -1)  # plays stored before blind have none
    if declared >= 0:
        if viewer.full or viewer.seat == data["seat"]:
            data["declared"] = format_card(declared)
        else:  # face down: the others see the declaration where the card would be, and nothing else
            data["card"] = declared
    data["card"] = format_card(data["card"])
    data["more"] = format_cards(data.get("more") or ())  # plays stored before quick have none
    data["suit"] = _suit(data["suit"])
    data["call"] = _call(data["call"])
    data["missed"] = _call(data["missed"])
    if "phase" in data:  # plays stored before a play could start a choice have none
        data["phase"] = PHASE_NAMES[data["phase"]]
    return data


def cards_drawn(data: Data, viewer: Viewer, table: Table) -> Data:
    cards: list[int] = data.pop("cards")
    data["count"] = len(cards)
    data["reason"] = DRAW_REASONS[data["reason"]]
    data["phase"] = PHASE_NAMES[data["phase"]]
    if viewer.full or viewer.seat == data["seat"]:
        data["cards"] = format_cards(cards)
    return data


def stock_ran_out(data: Data, viewer: Viewer, table: Table) -> Data:
    data["reason"] = DRAW_REASONS[data["reason"]]
    return data


def stock_recycled(data: Data, viewer: Viewer, table: Table) -> Data:
    order: list[int] = data.pop("order")
    salt = data.pop("salt", None)
    data["count"] = len(order)
    if viewer.full:
        data["order"] = format_cards(order)
        data["salt"] = salt
    return data


def hidden_cards_reshuffled(data: Data, viewer: Viewer, table: Table) -> Data:
    order: list[int] = data.pop("order")
    salt = data.pop("salt", None)
    counts = data["counts"] = list(data["counts"])
    data["stock"] = len(order) - sum(counts)
    if viewer.full:
        data["order"] = format_cards(order)
        data["salt"] = salt
    elif viewer.seat is not None and viewer.seat < len(counts):
        first = sum(counts[: viewer.seat])
        data["hand"] = format_cards(sorted(order[first : first + counts[viewer.seat]]))
    return data


def declaration_challenged(data: Data, viewer: Viewer, table: Table) -> Data:
    data["card"] = format_card(data["card"])  # turned up for all to see
    data["declared"] = format_card(data["declared"])
    return data


def declarations_revealed(data: Data, viewer: Viewer, table: Table) -> Data:
    data["plays"] = [
        {"seat": seat, "card": format_card(card), "declared": format_card(declared)}
        for seat, card, declared in data["plays"]
    ]
    return data


def missed_call_challenged(data: Data, viewer: Viewer, table: Table) -> Data:
    data["call"] = _call(data["call"])
    return data


def deck_revealed(data: Data, viewer: Viewer, table: Table) -> Data:
    data["salts"] = [{"number": number, "salt": salt} for number, salt in data["salts"]]
    return data


def _entry(entry: Data) -> Data:
    """A score sheet's round with its cards named."""
    if entry.get("hands") is not None:
        entry["hands"] = [format_cards(hand) for hand in entry["hands"]]
    if entry.get("last_card") is not None:
        entry["last_card"] = format_card(entry["last_card"])
    return entry


def round_entered(data: Data, viewer: Viewer, table: Table) -> Data:
    data["entry"] = _entry(data["entry"])
    return data


def ruling_given(data: Data, viewer: Viewer, table: Table) -> Data:
    if data["ruling"].get("type") == "correct":
        data["ruling"]["entry"] = _entry(data["ruling"]["entry"])
    if viewer.full:
        return data
    restored = data.pop("restored", None)
    data["restored"] = restored is not None
    if restored is not None:
        hands: list[int] = restored["hands"]
        data["cards"] = [hand.bit_count() for hand in hands]
        if viewer.seat is not None and viewer.seat < len(hands):
            data["hand"] = format_cards(hands[viewer.seat])
    return data
