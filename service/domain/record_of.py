"""A game's ``Record`` built from its entries as one sight sees them (``redaction.redact``).

Secrecy follows one rule: the record is written from the entries the event log would show the
same viewer, so a card the log hides from a sight the record cannot name. What the entries do not
carry (a player's name) comes in as ``names``.
"""

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from service.domain.cards import format_cards, parse_card
from service.domain.dealing import dealt_hands
from service.domain.presets import PRESETS
from service.domain.record import (
    Abandoned,
    Annulled,
    AnyLine,
    Challenged,
    Chose,
    Dealt,
    DisputeRaised,
    Doubted,
    Drew,
    Eliminated,
    Forfeited,
    GameCreated,
    Hands,
    Header,
    Kept,
    MatchEnd,
    MatchStarted,
    Other,
    Passed,
    Played,
    RanOut,
    Record,
    RecordSeat,
    Recycled,
    Reshuffled,
    Revealed,
    RoundConfirmed,
    RoundEnd,
    RoundEntered,
    RulingGiven,
    SheetEntry,
    Shrank,
    SuitNamed,
    TimedOut,
    TookSkip,
    TurnedUp,
)
from service.domain.redaction import Viewer
from service.domain.rulesets import OPTIONS
from service.domain.views import Entry

Data = dict[str, Any]
# the rulings a line tells; one of a newer service is written as its event
RULINGS = ("resume", "penalty", "void", "correct")


def record_of(game_id: str, entries: Sequence[Entry], names: Mapping[str, str], viewer: Viewer) -> Record:
    """The record of a game: ``entries`` are all its events redacted for ``viewer``, the first its
    ``Created``; ``names`` gives a player's name by id (an id not in it stands for itself)."""
    created = entries[0].data
    seats = _seats(created["seats"], names)
    sight: Literal["public", "seat", "full"] = (
        "full" if viewer.full else "seat" if viewer.seat is not None else "public"
    )
    header = Header(
        game_id=game_id,
        ruleset=created["ruleset"]["name"],
        options=_options(created["ruleset"]),
        league_id=created.get("league_id"),
        created=entries[0].timestamp.isoformat(),
        turn_clock=created.get("turn_clock"),
        forfeit_after=created.get("forfeit_after", 0),
        sight=sight,
        seats=seats,
        sight_seat=None if viewer.full else viewer.seat,
    )
    return Record(header=header, lines=[_line(entry, viewer, seats) for entry in entries])


def _seats(specs: list[str], names: Mapping[str, str]) -> list[RecordSeat]:
    """Each seat with a label no other seat has: a name taken twice gets ``#`` and the seat number."""
    seats, taken = [], set()
    for index, spec in enumerate(specs):
        kind: Literal["player", "bot"]
        kind, ident = ("bot", spec[4:]) if spec.startswith("bot:") else ("player", spec)
        name = ident if kind == "bot" else names.get(ident, ident)
        label, extra = name, 0
        while label in taken or not label:
            extra += 1
            label = f"{name}#{index}" + (f".{extra}" if extra > 1 else "")
        taken.add(label)
        seats.append(RecordSeat(seat=index, label=label, kind=kind, id=ident))
    return seats


def _options(rules: Data) -> dict[str, Any]:
    preset = PRESETS.get(rules["name"])
    if preset is None:
        return {}
    return {
        key: rules[key] for key in OPTIONS if rules.get(key, getattr(preset, key)) != getattr(preset, key)
    }


def _hand(data: Data, seat: int | None) -> Hands:
    return [(seat, data["hand"])] if seat is not None and "hand" in data else []


def _dealt(entry: Entry, viewer: Viewer) -> Dealt:
    data = entry.data
    sizes: list[int] = data["cards"]
    hands = _hand(data, viewer.seat)
    stock_order = None
    if "deck" in data:  # the full sight: every hand, dealt as the engine deals it
        deck = tuple(parse_card(card) for card in data["deck"])
        dealt = dealt_hands(len(sizes), data["dealer"], deck, tuple(sizes))
        hands = [(seat, format_cards(hand)) for seat, hand in enumerate(dealt)]
        stock_order = data["deck"][sum(sizes) + 1 :]
    return Dealt(
        number=entry.number,
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


def _ruling(entry: Entry, viewer: Viewer) -> RulingGiven:
    data = entry.data
    ruling = data["ruling"]
    kind = ruling["type"]
    counts, hands, stock_order = None, _hand(data, viewer.seat), None
    restored = data.get("restored")
    if isinstance(restored, dict):  # the full sight: the whole state the game goes on from
        counts = [hand.bit_count() for hand in restored["hands"]]
        hands = [(seat, format_cards(hand)) for seat, hand in enumerate(restored["hands"])]
        stock_order = format_cards(reversed(restored["stock"]))
    elif restored:
        counts = data["cards"]
    return RulingGiven(
        number=entry.number,
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


def _who(entry: Entry, seats: list[RecordSeat]) -> tuple[int | None, str, str]:
    """Who caused the event: the seat of a player at the table, else the role and id."""
    actor = entry.cause.actor if entry.cause is not None else None
    if actor is None:
        return None, "system", ""
    for seat in seats:
        if actor.role == "player" and seat.kind == "player" and seat.id == actor.id:
            return seat.seat, "player", ""
    return None, actor.role, actor.id


def _sheet_entry(data: Data) -> SheetEntry:
    hands = data.get("hands")
    return SheetEntry(
        winner=data["winner"],
        points=None if data.get("points") is None else list(data["points"]),
        hands=None if hands is None else [(seat, list(cards)) for seat, cards in enumerate(hands)],
        missed_calls=list(data.get("missed_calls") or ()),
        last_card=data.get("last_card"),
    )


def _line(entry: Entry, viewer: Viewer, seats: list[RecordSeat]) -> AnyLine:
    n, data = entry.number, entry.data
    match entry.type:
        case "Created":
            return GameCreated(number=n)
        case "MatchStarted":
            return MatchStarted(number=n, first_dealer=data["first_dealer"])
        case "RoundDealt":
            return _dealt(entry, viewer)
        case "SuitNamed":
            return SuitNamed(number=n, seat=data["seat"], suit=data["suit"])
        case "CardPlayed":
            return Played(
                number=n,
                seat=data["seat"],
                card=data["card"],
                suit=data["suit"],
                call=data["call"],
                missed=data["missed"],
                more=data.get("more") or None,
                declared=data.get("declared"),
            )
        case "CardsDrawn":
            return Drew(
                number=n,
                seat=data["seat"],
                count=data["count"],
                reason=data["reason"],
                cards=data.get("cards"),
            )
        case "CardKept":
            return Kept(number=n, seat=data["seat"])
        case "StockRanOut":
            return RanOut(number=n, seat=data["seat"], count=data["count"], reason=data["reason"])
        case "StockRecycled":
            return Recycled(number=n, count=data["count"], order=data.get("order"), salt=data.get("salt"))
        case "HiddenCardsReshuffled":
            return Reshuffled(
                number=n,
                counts=data["counts"],
                stock=data["stock"],
                hands=_hand(data, viewer.seat),
                order=data.get("order"),
                salt=data.get("salt"),
            )
        case "MissedCallChallenged":
            return Challenged(number=n, seat=data["seat"], offender=data["offender"], call=data["call"])
        case "RoundEnded":
            return RoundEnd(
                number=n,
                round_no=data["round_no"],
                winner=data["winner"],
                reason=data["reason"],
                points=list(data["points"]),
                totals=list(data["totals"]),
            )
        case "MatchEnded":
            return MatchEnd(number=n, winners=list(data["winners"]), totals=list(data["totals"]))
        case "DeckRevealed":
            salts = [(item["number"], item["salt"]) for item in data["salts"]]
            return Revealed(number=n, round_no=data["round_no"], salts=salts)
        case "DisputeRaised":
            dispute = data["dispute"]
            role, actor_id = dispute["raised_by"]
            return DisputeRaised(
                number=n,
                dispute=dispute["number"],
                seat=dispute.get("seat"),
                role=role,
                actor_id=actor_id,
                about=dispute.get("about"),
                reason=dispute.get("reason", ""),
            )
        case "RulingGiven" if data["ruling"]["type"] in RULINGS:
            return _ruling(entry, viewer)
        case "TurnTimedOut":
            return TimedOut(number=n, seat=data["seat"])
        case "SeatForfeited":
            return Forfeited(number=n, seat=data["seat"], turns=data["turns"])
        case "Abandoned" if "reason" in data:
            return Abandoned(number=n, reason=data["reason"])
        case "RoundEntered" if "entry" in data:
            seat, role, actor_id = _who(entry, seats)
            return RoundEntered(
                number=n,
                round_no=data["round_no"],
                seat=seat,
                role=role,
                actor_id=actor_id,
                entry=_sheet_entry(data["entry"]),
            )
        case "PlayerChosen":
            return Chose(number=n, seat=data["seat"], chosen=data["chosen"])
        case "SkipTaken":
            return TookSkip(number=n, seat=data["seat"])
        case "TurnPassed":
            return Passed(number=n, seat=data["seat"])
        case "DealAnnulled":
            return Annulled(
                number=n,
                round_no=data["round_no"],
                dealer=data["dealer"],
                seat=data["seat"],
                rank=data["rank"],
                order=data.get("deck"),
                salt=data.get("salt"),
            )
        case "PlayerEliminated":
            return Eliminated(number=n, seat=data["seat"], reason=data["reason"], total=data["total"])
        case "DeclarationChallenged":
            return Doubted(
                number=n,
                seat=data["seat"],
                player=data["player"],
                card=data["card"],
                declared=data["declared"],
                lied=data["lied"],
            )
        case "DeclarationsRevealed":
            plays = [(play["seat"], play["card"], play["declared"]) for play in data["plays"]]
            return TurnedUp(number=n, plays=plays)
        case "HandShrank":
            return Shrank(number=n, seat=data["seat"], hand_size=data["hand_size"])
        case "RoundConfirmed" if "seat" in data:
            return RoundConfirmed(number=n, round_no=data["round_no"], seat=data["seat"])
    shown = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False) if data else None
    return Other(number=n, type=entry.type, data=shown)
