"""A ``Record`` written as text (``render``; the format: docs/game-records.md), which
``record_parse.parse_record`` reads back: ``render(parse_record(text)) == text`` for any text
``render`` wrote. A label is written bare when it cannot be mistaken for a word of the format,
else as a JSON string (``"Ada Lovelace"``, ``"round"``).
"""

import json
import re
from typing import assert_never

from service.domain.record import (
    NO_WINNER,
    RESERVED,
    SUIT_NAME,
    VERSION_LINE,
    WON_BY,
    Abandoned,
    Annulled,
    AnyLine,
    Cards,
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

_BARE = re.compile(r"[^\s\"\\:;,=()\d][^\s\"\\:;,=()]*")

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
