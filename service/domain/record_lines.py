"""What record line an entry makes: the pieces an event class declares as its ``declaration.line``
(``record_of`` applies them to the entries one sight sees).

An event whose line takes its entry's fields by their names declares ``copied(<its Line class>)``;
one whose line names cards the entry does not, or renames a field, declares its own here. A piece
that returns None (an entry cut down past what its line needs) leaves the entry to ``Other``.
"""

from collections.abc import Callable
from typing import TypeVar, cast

import msgspec

from service.domain import record
from service.domain.cards import format_cards, parse_card
from service.domain.dealing import dealt_hands
from service.domain.history import Cause
from service.domain.record import AnyLine, Hands, RecordSeat, SheetEntry
from service.domain.sight import Data, Viewer

# an entry's number, data and cause, the sight and the table's seats: the line, or None
LineOf = Callable[[int, Data, Cause | None, Viewer, list[RecordSeat]], AnyLine | None]
# the rulings a line tells; one of a newer service is written as its event
RULINGS = ("resume", "penalty", "void", "correct")
L = TypeVar("L", bound=record.Line)


def copied(line: type[L], **renamed: str) -> LineOf:
    """The line ``line`` with each of its fields taken from the entry's field of that name, or of the
    name ``renamed`` gives it (a field with a default may be missing); None when a field without one is."""
    fields = [
        (field.name, renamed.get(field.name, field.name), field.required)
        for field in msgspec.structs.fields(line)
        if field.name != "number"
    ]
    required = tuple((name, key) for name, key, needed in fields if needed)
    optional = tuple((name, key) for name, key, needed in fields if not needed)

    def line_of(
        n: int, data: Data, cause: Cause | None, viewer: Viewer, seats: list[RecordSeat]
    ) -> AnyLine | None:
        try:
            values = {name: data[key] for name, key in required}
        except KeyError:
            return None
        for name, key in optional:
            if key in data:
                values[name] = data[key]
        return cast(AnyLine, line(number=n, **values))

    return line_of


def _hand(data: Data, seat: int | None) -> Hands:
    return [(seat, data["hand"])] if seat is not None and "hand" in data else []


def dealt(n: int, data: Data, cause: Cause | None, viewer: Viewer, seats: list[RecordSeat]) -> AnyLine | None:
    sizes: list[int] = data["cards"]
    hands = _hand(data, viewer.seat)
    stock_order = None
    if "deck" in data:  # the full sight: every hand, dealt as the engine deals it
        deck = tuple(parse_card(card) for card in data["deck"])
        hands_dealt = dealt_hands(len(sizes), data["dealer"], deck, tuple(sizes))
        hands = [(seat, format_cards(hand)) for seat, hand in enumerate(hands_dealt)]
        stock_order = data["deck"][sum(sizes) + 1 :]
    return record.Dealt(
        number=n,
        round_no=data["round_no"],
        dealer=data["dealer"],
        starter=data["starter"],
        hand_size=max(sizes),
        stock=data["stock"],
        hands=hands,
        stock_order=stock_order,
        salt=data.get("salt"),
        sizes=list(sizes) if len(set(sizes)) > 1 else None,
    )


def played(
    n: int, data: Data, cause: Cause | None, viewer: Viewer, seats: list[RecordSeat]
) -> AnyLine | None:
    return record.Played(
        number=n,
        seat=data["seat"],
        card=data["card"],
        suit=data["suit"],
        call=data["call"],
        missed=data["missed"],
        more=data.get("more") or None,
        declared=data.get("declared"),
    )


def reshuffled(
    n: int, data: Data, cause: Cause | None, viewer: Viewer, seats: list[RecordSeat]
) -> AnyLine | None:
    return record.Reshuffled(
        number=n,
        counts=data["counts"],
        stock=data["stock"],
        hands=_hand(data, viewer.seat),
        order=data.get("order"),
        salt=data.get("salt"),
    )


def turned_up(
    n: int, data: Data, cause: Cause | None, viewer: Viewer, seats: list[RecordSeat]
) -> AnyLine | None:
    plays = [(play["seat"], play["card"], play["declared"]) for play in data["plays"]]
    return record.TurnedUp(number=n, plays=plays)


def revealed(
    n: int, data: Data, cause: Cause | None, viewer: Viewer, seats: list[RecordSeat]
) -> AnyLine | None:
    salts = [(item["number"], item["salt"]) for item in data["salts"]]
    return record.Revealed(number=n, round_no=data["round_no"], salts=salts)


def dispute_raised(
    n: int, data: Data, cause: Cause | None, viewer: Viewer, seats: list[RecordSeat]
) -> AnyLine | None:
    dispute = data["dispute"]
    role, actor_id = dispute["raised_by"]
    return record.DisputeRaised(
        number=n,
        dispute=dispute["number"],
        seat=dispute.get("seat"),
        role=role,
        actor_id=actor_id,
        about=dispute.get("about"),
        reason=dispute.get("reason", ""),
    )


def _sheet_entry(data: Data) -> SheetEntry:
    hands = data.get("hands")
    return SheetEntry(
        winner=data["winner"],
        points=None if data.get("points") is None else list(data["points"]),
        hands=None if hands is None else [(seat, list(cards)) for seat, cards in enumerate(hands)],
        missed_calls=list(data.get("missed_calls") or ()),
        last_card=data.get("last_card"),
    )


def ruling_given(
    n: int, data: Data, cause: Cause | None, viewer: Viewer, seats: list[RecordSeat]
) -> AnyLine | None:
    ruling = data["ruling"]
    kind = ruling["type"]
    if kind not in RULINGS:
        return None
    counts, hands, stock_order = None, _hand(data, viewer.seat), None
    restored = data.get("restored")
    if isinstance(restored, dict):  # the full sight: the whole state the game goes on from
        counts = [hand.bit_count() for hand in restored["hands"]]
        hands = [(seat, format_cards(hand)) for seat, hand in enumerate(restored["hands"])]
        stock_order = format_cards(reversed(restored["stock"]))
    elif restored:
        counts = data["cards"]
    return record.RulingGiven(
        number=n,
        dispute=data["dispute"],
        kind=kind,
        seat=ruling.get("seat"),
        cards=ruling.get("cards"),
        from_event=ruling.get("from_event"),
        round_no=ruling.get("round_no") if kind == "correct" else None,
        entry=_sheet_entry(ruling["entry"]) if kind == "correct" else None,
        note=data["note"],
        counts=counts or None,  # no hand at all: a game played in person deals none
        hands=hands,
        stock_order=stock_order,
    )


def _who(cause: Cause | None, seats: list[RecordSeat]) -> tuple[int | None, str, str]:
    """Who caused the event: the seat of a player at the table, else the role and id."""
    actor = cause.actor if cause is not None else None
    if actor is None:
        return None, "system", ""
    for seat in seats:
        if actor.role == "player" and seat.kind == "player" and seat.id == actor.id:
            return seat.seat, "player", ""
    return None, actor.role, actor.id


def round_entered(
    n: int, data: Data, cause: Cause | None, viewer: Viewer, seats: list[RecordSeat]
) -> AnyLine | None:
    if "entry" not in data:
        return None
    seat, role, actor_id = _who(cause, seats)
    return record.RoundEntered(
        number=n,
        round_no=data["round_no"],
        seat=seat,
        role=role,
        actor_id=actor_id,
        entry=_sheet_entry(data["entry"]),
    )
