"""A game record: every action of a game, one numbered line each, as plain text (docs/game-records.md).

``Record`` is the record as data: a header (the game, its rules, its seats) and one ``Line`` per
stored event, each a Struct of its own. ``render`` writes it as text; ``record_parse.parse_record``
reads the text back into the same ``Record``, so ``render(parse_record(text)) == text`` for any
text ``render`` wrote. Which cards a record names is not decided here: a record is built from
entries already cut down to a sight (``record_of``), so it holds what that sight holds.

In a line a seat is named by its label (``Header.seats``): a player's name, a bot's name, made
unique at the table. A label is written bare when it cannot be mistaken for a word of the format,
else as a JSON string (``"Ada Lovelace"``, ``"round"``).
"""

import json
import re
from typing import Any, Literal, assert_never

import msgspec

from service.domain.cards import SUIT_NAMES, SUITS

VERSION_LINE = "maumau game record 1"

# Words a line begins with or puts where a label could stand: a label spelled so is quoted.
RESERVED = frozenset(
    (
        "game",
        "turned",
        "match",
        "round",
        "stock",
        "hidden",
        "salts",
        "dispute",
        "ruling",
        "event",
        "none",
        "no",
        "winner",
        "player",
        "bot",
        "admin",
        "referee",
        "system",
    )
)
_BARE = re.compile(r"[^\s\"\\:;,=()\d][^\s\"\\:;,=()]*")
SUIT_NAME = dict(zip(SUITS, SUIT_NAMES, strict=True))
SUIT_LETTER = {name: letter for letter, name in SUIT_NAME.items()}
# how a round ended, as the engine names it, and as a line says it after the winner's label
WON_BY = {"went_out": "went out", "window_closed": "went out unchallenged"}
NO_WINNER = {"stock_exhausted": "no winner, stock exhausted", "stalled": "no winner, stalled"}


class RecordSeat(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    label: str  # unique at the table
    kind: Literal["player", "bot"]
    id: str  # the player's id, or the bot's name


class Header(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    ruleset: str  # the preset's name
    options: dict[str, Any]  # the options that differ from the preset (rulesets.OPTIONS)
    league_id: str | None
    created: str  # ISO 8601, UTC
    turn_clock: int | None  # seconds per turn
    forfeit_after: int  # timeouts in a row that forfeit a seat; 0: never
    sight: Literal["public", "seat", "full"]
    seats: list[RecordSeat]
    sight_seat: int | None = None  # whose cards a seat's record shows


Cards = list[str]
Hands = list[tuple[int, Cards]]  # (seat, its cards), seat order


class Line(msgspec.Struct, frozen=True, kw_only=True, tag_field="line"):
    number: int  # the event number a referee cites


class GameCreated(Line, tag="created", frozen=True):
    pass


class MatchStarted(Line, tag="match_started", frozen=True):
    first_dealer: int


class Dealt(Line, tag="dealt", frozen=True):
    round_no: int
    dealer: int
    starter: str
    hand_size: int  # the most cards a seat is dealt
    stock: int  # cards left in the stock
    hands: Hands = []  # the seat's own in its sight, every one in the full sight
    # per seat, the cards dealt when hands differ (faraon's shrunk hands; 0 for a seat out of the
    # match); None: ``hand_size`` each
    sizes: list[int] | None = None
    stock_order: Cards | None = None  # top first (full sight)
    salt: str | None = None  # (full sight)


class SuitNamed(Line, tag="suit_named", frozen=True):
    seat: int
    suit: str  # "C", "D", "H", "S"


class Played(Line, tag="played", frozen=True):
    seat: int
    card: str
    suit: str | None = None  # named with a wild card
    call: str | None = None  # said: "mau", "mau_mau"
    missed: str | None = None  # due and not said
    more: list[str] | None = None  # quick: cards of its rank laid on it in the same play, the last on top
    declared: str | None = None  # blind: what the card, face down, was declared as (its player's sight)


class Drew(Line, tag="drew", frozen=True):
    seat: int
    count: int
    reason: str  # "turn", "debt", "penalty"
    cards: Cards | None = None  # in the drawer's sight and the full one


class Kept(Line, tag="kept", frozen=True):
    seat: int


class RanOut(Line, tag="ran_out", frozen=True):
    seat: int
    count: int
    reason: str


class Recycled(Line, tag="recycled", frozen=True):
    count: int
    order: Cards | None = None
    salt: str | None = None


class Reshuffled(Line, tag="reshuffled", frozen=True):
    counts: list[int]
    stock: int
    hands: Hands = []
    order: Cards | None = None
    salt: str | None = None


class Challenged(Line, tag="challenged", frozen=True):
    seat: int
    offender: int
    call: str


class RoundEnd(Line, tag="round_ended", frozen=True):
    round_no: int
    winner: int | None
    reason: str
    points: list[int]
    totals: list[int]


class MatchEnd(Line, tag="match_ended", frozen=True):
    winners: list[int]
    totals: list[int]


class Revealed(Line, tag="revealed", frozen=True):
    round_no: int
    salts: list[tuple[int, str]]  # (event number of the shuffle, its salt)


class DisputeRaised(Line, tag="dispute", frozen=True):
    dispute: int
    seat: int | None  # the seat that raised it, when a seated player did
    role: str  # else who did: "referee", "admin", "system"
    actor_id: str
    about: int | None
    reason: str


class SheetEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A round of a score sheet (a game played in person): by points or by the cards left."""

    winner: int | None
    points: list[int] | None = None
    hands: Hands | None = None  # every seat's cards left, seat order
    missed_calls: list[int] = []  # per seat; empty: none noted
    last_card: str | None = None  # the card the winner went out with, when the sheet says it


class RoundEntered(Line, tag="round_entered", frozen=True):
    round_no: int
    seat: int | None  # the seated player who entered it
    role: str  # else who did: "referee", "admin", "system"
    actor_id: str
    entry: SheetEntry


class RoundConfirmed(Line, tag="round_confirmed", frozen=True):
    round_no: int
    seat: int


class RulingGiven(Line, tag="ruling", frozen=True):
    dispute: int
    kind: Literal["resume", "penalty", "void", "correct"]
    seat: int | None = None  # penalty
    cards: int | None = None  # penalty
    from_event: int | None = None  # void
    round_no: int | None = None  # correct
    entry: SheetEntry | None = None  # correct: the round's entry in force now
    note: str = ""
    counts: list[int] | None = None  # a void: the cards each seat holds again
    hands: Hands = []
    stock_order: Cards | None = None


class TimedOut(Line, tag="timed_out", frozen=True):
    seat: int


class Forfeited(Line, tag="forfeited", frozen=True):
    seat: int
    turns: int


class Abandoned(Line, tag="abandoned", frozen=True):
    reason: str


class Chose(Line, tag="chose", frozen=True):
    """The player of a card that makes another player draw chose who (the draw is its own line)."""

    seat: int
    chosen: int


class TookSkip(Line, tag="took_skip", frozen=True):
    """The player facing a waiting skip took it: their turn is over, no card moved."""

    seat: int


class Passed(Line, tag="passed", frozen=True):
    """The player who could play again after a card of theirs ended the turn instead."""

    seat: int


class Annulled(Line, tag="annulled", frozen=True):
    """A deal that does not stand: a hand was dealt four of one rank; the dealer deals again."""

    round_no: int
    dealer: int
    seat: int
    rank: str  # "Q", "joker"
    order: Cards | None = None  # the annulled deal's deck, first card dealt first (full sight)
    salt: str | None = None  # (full sight)


class Eliminated(Line, tag="eliminated", frozen=True):
    seat: int
    reason: str  # "over_ceiling", "lost_holding_one_card"
    total: int


class Shrank(Line, tag="shrank", frozen=True):
    seat: int
    hand_size: int  # dealt from the next round on


class Doubted(Line, tag="doubted", frozen=True):
    """The next player challenged a face-down card (blind): turned up, a lie or the truth."""

    seat: int  # the challenger
    player: int
    card: str
    declared: str
    lied: bool


class TurnedUp(Line, tag="turned_up", frozen=True):
    """The round ended: the cards still face down (blind) are turned up."""

    plays: list[tuple[int, str, str]]  # seat, card, declared


class Other(Line, tag="other", frozen=True):
    """An event this format has no line for: its type, and its data when the sight shows it."""

    type: str
    data: str | None = None  # compact JSON


AnyLine = (
    GameCreated
    | MatchStarted
    | Dealt
    | SuitNamed
    | Played
    | Drew
    | Kept
    | RanOut
    | Recycled
    | Reshuffled
    | Challenged
    | RoundEnd
    | MatchEnd
    | Revealed
    | DisputeRaised
    | RulingGiven
    | TimedOut
    | Forfeited
    | Abandoned
    | RoundEntered
    | RoundConfirmed
    | Chose
    | TookSkip
    | Passed
    | Annulled
    | Eliminated
    | Shrank
    | Doubted
    | TurnedUp
    | Other
)


class Record(msgspec.Struct, frozen=True, kw_only=True):
    header: Header
    lines: list[AnyLine]


# ---------------------------------------------------------------------------
# writing


def quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def label_text(label: str) -> str:
    """A label as a line writes it: bare when it reads as one word of no other meaning."""
    if _BARE.fullmatch(label) and label.lower() not in RESERVED:
        return label
    return quoted(label)


def cards_text(cards: Cards) -> str:
    return " ".join(cards) if cards else "-"


def numbers_text(numbers: list[int]) -> str:
    return " ".join(str(n) for n in numbers)


def render(record: Record) -> str:
    """The record as text: the header, a blank line, one line per event; a newline ends each."""
    labels = [label_text(seat.label) for seat in record.header.seats]
    out = _header_lines(record.header, labels)
    out.append("")
    out += [f"{line.number} {_line_text(line, labels)}" for line in record.lines]
    return "\n".join(out) + "\n"


def _header_lines(header: Header, labels: list[str]) -> list[str]:
    clock = "none" if header.turn_clock is None else str(header.turn_clock)
    options = json.dumps(header.options, sort_keys=True, separators=(",", ":"))
    lines = [
        VERSION_LINE,
        f"game {header.game_id}",
        f"ruleset {header.ruleset} {options}",
        f"league {header.league_id or 'none'}",
        f"created {header.created}",
        f"clock {clock} forfeit {header.forfeit_after}",
        f"sight {header.sight}" + (f" {labels[header.sight_seat]}" if header.sight_seat is not None else ""),
    ]
    for seat, label in zip(header.seats, labels, strict=True):
        lines.append(f"seat {seat.seat} {label} {seat.kind} {seat.id}")
    return lines


def _hands(hands: Hands, labels: list[str]) -> str:
    return "".join(f"; hand {labels[seat]} {cards_text(cards)}" for seat, cards in hands)


def _line_text(line: AnyLine, labels: list[str]) -> str:
    match line:
        case GameCreated():
            return "game created"
        case MatchStarted():
            return f"match started: first dealer {labels[line.first_dealer]}"
        case Dealt():
            text = (
                f"round {line.round_no} dealt by {labels[line.dealer]}: starter {line.starter}; "
                + (
                    f"cards {numbers_text(line.sizes)}"
                    if line.sizes is not None
                    else f"{line.hand_size} cards each"
                )
                + f"; stock {line.stock}"
            ) + _hands(line.hands, labels)
            if line.stock_order is not None:
                text += f"; stock order {cards_text(line.stock_order)}"
            return text + (f"; salt {line.salt}" if line.salt is not None else "")
        case SuitNamed():
            return f"{labels[line.seat]} names {SUIT_NAME[line.suit]}"
        case Played():
            text = f"{labels[line.seat]} plays {line.card}"
            if line.more:
                text += f" with {cards_text(line.more)}"
            if line.declared is not None:
                text += f" as {line.declared}"
            if line.suit is not None:
                text += f" names {SUIT_NAME[line.suit]}"
            if line.call is not None:
                text += f" says {line.call}"
            return text + (f" misses {line.missed}" if line.missed is not None else "")
        case Drew():
            text = f"{labels[line.seat]} draws {line.count}"
            if line.reason != "turn":
                text += f" ({line.reason})"
            return text + (f": {cards_text(line.cards)}" if line.cards is not None else "")
        case Kept():
            return f"{labels[line.seat]} keeps"
        case RanOut():
            reason = f" ({line.reason})" if line.reason != "turn" else ""
            return f"stock runs out: {labels[line.seat]} is to draw {line.count}{reason}"
        case Recycled():
            text = f"stock recycled: {line.count} cards"
            if line.order is not None:
                text += f"; order {cards_text(line.order)}"
            return text + (f"; salt {line.salt}" if line.salt is not None else "")
        case Reshuffled():
            text = f"hidden cards reshuffled: cards {numbers_text(line.counts)}; stock {line.stock}"
            text += _hands(line.hands, labels)
            if line.order is not None:
                text += f"; order {cards_text(line.order)}"
            return text + (f"; salt {line.salt}" if line.salt is not None else "")
        case Challenged():
            return f"{labels[line.seat]} challenges {labels[line.offender]}: missed {line.call}"
        case RoundEnd():
            if line.winner is None:
                how = NO_WINNER.get(line.reason, f"no winner ({line.reason})")
            elif line.reason in WON_BY:
                how = f"{labels[line.winner]} {WON_BY[line.reason]}"
            else:
                how = f"winner {labels[line.winner]} ({line.reason})"
            return (
                f"round {line.round_no} ended: {how}; points {numbers_text(line.points)}; "
                f"totals {numbers_text(line.totals)}"
            )
        case MatchEnd():
            winners = " ".join(labels[seat] for seat in line.winners) or "none"
            return f"match ended: winners {winners}; totals {numbers_text(line.totals)}"
        case Revealed():
            salts = " ".join(f"{number}={salt}" for number, salt in line.salts) or "-"
            return f"salts of round {line.round_no} revealed: {salts}"
        case DisputeRaised():
            who = _who(line.seat, line.role, line.actor_id, labels)
            about = f" about event {line.about}" if line.about is not None else ""
            return f"dispute {line.dispute} raised by {who}{about}: {quoted(line.reason)}"
        case RulingGiven():
            return _ruling_text(line, labels)
        case TimedOut():
            return f"{labels[line.seat]} timed out"
        case Forfeited():
            return f"{labels[line.seat]} forfeits after {line.turns} timeouts"
        case Abandoned():
            return f"game abandoned: {quoted(line.reason)}"
        case RoundEntered():
            who = _who(line.seat, line.role, line.actor_id, labels)
            return f"round {line.round_no} entered by {who}: {_entry_text(line.entry, labels)}"
        case RoundConfirmed():
            return f"{labels[line.seat]} confirms round {line.round_no}"
        case Chose():
            return f"{labels[line.seat]} chooses {labels[line.chosen]} to draw"
        case TookSkip():
            return f"{labels[line.seat]} takes the skip"
        case Passed():
            return f"{labels[line.seat]} ends the turn"
        case Annulled():
            return (
                f"round {line.round_no} annulled: {labels[line.seat]} dealt four of rank {line.rank}; "
                f"dealer {labels[line.dealer]}"
                + (f"; deck order {cards_text(line.order)}" if line.order is not None else "")
                + (f"; salt {line.salt}" if line.salt is not None else "")
            )
        case Eliminated():
            return f"{labels[line.seat]} out of the match ({line.reason}): total {line.total}"
        case Shrank():
            return f"{labels[line.seat]} dealt {line.hand_size} cards from the next round"
        case Doubted():
            verdict = "a lie" if line.lied else "the truth"
            return (
                f"{labels[line.seat]} doubts the card {labels[line.player]} laid face down: "
                f"{line.card} as {line.declared}, {verdict}"
            )
        case TurnedUp():
            shown = "; ".join(f"{labels[seat]} {card} as {declared}" for seat, card, declared in line.plays)
            return f"turned up: {shown}"
        case Other():
            return f"event {line.type}" + (f" {line.data}" if line.data is not None else "")
        case _:
            assert_never(line)


def _ruling_text(line: RulingGiven, labels: list[str]) -> str:
    text = f"ruling on dispute {line.dispute}: "
    match line.kind:
        case "penalty":
            assert line.seat is not None
            text += f"penalty {labels[line.seat]} draws {line.cards}"
        case "void":
            text += f"void from event {line.from_event}"
        case "correct":
            assert line.entry is not None
            text += f"correct round {line.round_no}: {_entry_text(line.entry, labels)}"
        case "resume":
            text += "resume"
        case _:
            assert_never(line.kind)
    text += f"; note {quoted(line.note)}"
    if line.counts is not None:
        text += f"; cards {numbers_text(line.counts)}"
    text += _hands(line.hands, labels)
    if line.stock_order is not None:
        text += f"; stock order {cards_text(line.stock_order)}"
    return text


def _who(seat: int | None, role: str, actor_id: str, labels: list[str]) -> str:
    """Who did it: a seat's label, or the role and id of someone not seated (an official)."""
    return labels[seat] if seat is not None else f"{role} {quoted(actor_id)}"


def _entry_text(entry: SheetEntry, labels: list[str]) -> str:
    text = f"winner {labels[entry.winner]}" if entry.winner is not None else "no winner"
    if entry.points is not None:
        text += f"; points {numbers_text(entry.points)}"
    text += _hands(entry.hands or [], labels)
    if entry.missed_calls:
        text += f"; missed calls {numbers_text(entry.missed_calls)}"
    return text + (f"; last card {entry.last_card}" if entry.last_card is not None else "")
