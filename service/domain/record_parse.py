"""A game record's text read back into a ``Record`` (the format: docs/game-records.md).

``parse_record`` takes what ``record.render`` writes and anything written by hand to the same
grammar; it refuses anything else with ``invalid_record``, the detail naming the first line it
could not read (lines count from 1). It checks the form, not the game: whether the rounds add up
is the import's question (``application.records``).
"""

import json
import re
from collections.abc import Callable
from typing import TypeVar

from service.domain import record
from service.domain.errors import RuleError
from service.domain.record import (
    NO_WINNER,
    SUIT_LETTER,
    VERSION_LINE,
    WON_BY,
    AnyLine,
    DisputeRaised,
    Header,
    Record,
    RecordSeat,
    RoundEnd,
    RulingGiven,
    SheetEntry,
)
from service.domain.record_scan import (
    CALL,
    CARD,
    CARDS,
    LABEL,
    NUMBERS,
    SALT,
    STRING,
    LineReader,
    Malformed,
    Scan,
    read_cards,
    read_label,
    read_string,
)

MOST_LINES = 100_000
T = TypeVar("T")


def parse_record(text: str) -> Record:
    """The ``Record`` the text writes; ``invalid_record`` naming the line when it is not one."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    if len(lines) > MOST_LINES:
        raise RuleError("invalid_record", why="record_most_lines", most_lines=MOST_LINES)
    at = 0
    try:
        header, first = _header(lines)
        seats = {seat.label: seat.seat for seat in header.seats}
        body: list[AnyLine] = []
        last = 0
        for at in range(first, len(lines)):
            line = _event_line(lines[at], seats, len(header.seats))
            if line.number <= last:
                raise Malformed(f"event {line.number} comes after event {last}")
            last = line.number
            body.append(line)
    except Malformed as error:
        at = error.at if isinstance(error, _HeaderError) else at
        raise RuleError("invalid_record", why="line", at=at + 1, error=error) from None
    return Record(header=header, lines=body)


def _header(lines: list[str]) -> tuple[Header, int]:
    """The header and the index of the first event line; a ``_HeaderError`` names the bad line."""
    fields: dict[str, re.Match[str]] = {}
    patterns = (
        ("version", re.escape(VERSION_LINE)),
        ("game", r"game (\S+)"),
        ("ruleset", r"ruleset (\S+) (\{.*\})"),
        ("league", r"league (\S+)"),
        ("created", r"created (\S+)"),
        ("clock", r"clock (none|\d+) forfeit (\d+)"),
        ("sight", rf"sight (public|full|seat ({LABEL}))"),
    )
    for at, (name, pattern) in enumerate(patterns):
        found = re.fullmatch(pattern, lines[at]) if at < len(lines) else None
        if found is None:
            raise _HeaderError(at, f"expected the {name} line")
        fields[name] = found
    seats: list[RecordSeat] = []
    at = len(patterns)
    while at < len(lines) and lines[at] != "":
        found = re.fullmatch(rf"seat (\d+) ({LABEL}) (player|bot) (\S+)", lines[at])
        if found is None:
            raise _HeaderError(at, "expected a seat line: seat <n> <label> player|bot <id>")
        label = _at(at, read_label, found[2])
        if int(found[1]) != len(seats) or label in {seat.label for seat in seats}:
            raise _HeaderError(at, "seats are numbered from 0 in order, each with a label of its own")
        seats.append(RecordSeat(seat=len(seats), label=label, kind=found[3], id=found[4]))  # type: ignore[arg-type]
        at += 1
    if not seats:
        raise _HeaderError(at, "expected a seat line")
    if at >= len(lines):
        raise _HeaderError(at, "expected a blank line after the seats")
    options = _at(2, json.loads, fields["ruleset"][2])
    if not isinstance(options, dict):
        raise _HeaderError(2, "the options are a JSON object")
    sight, sight_seat = fields["sight"][1], None
    if fields["sight"][2] is not None:
        label = _at(6, read_label, fields["sight"][2])
        labelled = {seat.label: seat.seat for seat in seats}
        if label not in labelled:
            raise _HeaderError(6, f"no seat is labelled {label!r}")
        sight, sight_seat = "seat", labelled[label]
    clock = fields["clock"]
    header = Header(
        game_id=fields["game"][1],
        ruleset=fields["ruleset"][1],
        options=options,
        league_id=None if fields["league"][1] == "none" else fields["league"][1],
        created=fields["created"][1],
        turn_clock=None if clock[1] == "none" else int(clock[1]),
        forfeit_after=int(clock[2]),
        sight=sight,  # type: ignore[arg-type]
        seats=seats,
        sight_seat=sight_seat,
    )
    return header, at + 1


class _HeaderError(Malformed):
    def __init__(self, at: int, message: str) -> None:
        super().__init__(message)
        self.at = at


def _at(at: int, read: Callable[[str], T], text: str) -> T:
    try:
        return read(text)
    except (Malformed, ValueError) as error:
        raise _HeaderError(at, str(error)) from None


def _event_line(text: str, seats: dict[str, int], count: int) -> AnyLine:
    found = re.match(r"(\d+) ", text)
    if found is None:
        raise Malformed("an event line starts with the event's number and a space")
    number = int(found[1])
    scan = Scan(text)
    scan.at = found.end()
    read = LineReader(scan, seats, count)
    line = _keyword_line(number, read) or _seat_line(number, read)
    scan.done()
    return line


def _keyword_line(n: int, read: LineReader) -> AnyLine | None:
    scan = read.scan
    if scan.maybe("game created"):
        return record.GameCreated(number=n)
    if scan.maybe("game abandoned: "):
        return record.Abandoned(number=n, reason=read_string(scan.take(STRING, "a quoted reason")[0]))
    if scan.maybe("match started: first dealer "):
        return record.MatchStarted(number=n, first_dealer=read.seat(scan.take(LABEL, "a seat")[0]))
    if scan.maybe("match ended: winners "):
        # "none" only as the whole list: a label may begin with it ("none#2")
        winners = scan.take(rf"none(?=;)|{LABEL}(?: {LABEL})*", "the winners")[0]
        totals = read.per_seat(scan.take(rf"; totals ({NUMBERS})", "; totals")[1], "totals")
        labels = [] if winners == "none" else re.findall(LABEL, winners)
        return record.MatchEnd(number=n, winners=[read.seat(label) for label in labels], totals=totals)
    if found := scan.maybe(
        rf"round (\d+) dealt by ({LABEL}): starter ({CARD}); "
        rf"(?:(\d+) cards each|cards ({NUMBERS})); stock (\d+)"
    ):
        sizes = None if found[5] is None else read.per_seat(found[5], "cards")
        return record.Dealt(
            number=n,
            round_no=int(found[1]),
            dealer=read.seat(found[2]),
            starter=found[3],
            hand_size=int(found[4]) if sizes is None else max(sizes),
            stock=int(found[6]),
            sizes=sizes,
            hands=read.hands(),
            stock_order=read.order("stock order"),
            salt=read.salt(),
        )
    if found := scan.maybe(rf"round (\d+) annulled: ({LABEL}) dealt four of rank (\w+); dealer ({LABEL})"):
        seat, dealer = read.seat(found[2]), read.seat(found[4])
        order, salt = read.order("deck order"), read.salt()
        return record.Annulled(
            number=n, round_no=int(found[1]), dealer=dealer, seat=seat, rank=found[3], order=order, salt=salt
        )
    if found := scan.maybe(r"round (\d+) ended: "):
        return _round_end(n, int(found[1]), read)
    if found := scan.maybe(r"round (\d+) entered by "):
        by, role, actor_id = _who(read)
        scan.take(": ", "': '")
        entry = _entry(read)
        return record.RoundEntered(
            number=n, round_no=int(found[1]), seat=by, role=role, actor_id=actor_id, entry=entry
        )
    if found := scan.maybe(rf"stock runs out: ({LABEL}) is to draw (\d+)(?: \((\w+)\))?"):
        return record.RanOut(
            number=n, seat=read.seat(found[1]), count=int(found[2]), reason=found[3] or "turn"
        )
    if found := scan.maybe(r"stock recycled: (\d+) cards"):
        return record.Recycled(number=n, count=int(found[1]), order=read.order("order"), salt=read.salt())
    if found := scan.maybe(rf"hidden cards reshuffled: cards ({NUMBERS}); stock (\d+)"):
        counts = read.per_seat(found[1], "cards")
        return record.Reshuffled(
            number=n,
            counts=counts,
            stock=int(found[2]),
            hands=read.hands(),
            order=read.order("order"),
            salt=read.salt(),
        )
    if found := scan.maybe(rf"salts of round (\d+) revealed: (-|\d+={SALT}(?: \d+={SALT})*)"):
        pairs = [] if found[2] == "-" else [pair.split("=") for pair in found[2].split(" ")]
        return record.Revealed(number=n, round_no=int(found[1]), salts=[(int(a), b) for a, b in pairs])
    if found := scan.maybe(r"dispute (\d+) raised by "):
        return _dispute(n, int(found[1]), read)
    if found := scan.maybe(r"ruling on dispute (\d+): "):
        return _ruling(n, int(found[1]), read)
    if scan.maybe("turned up: "):
        plays = []
        while True:
            found = scan.take(rf"({LABEL}) ({CARD}) as ({CARD})", "a seat, a card, as and a card")
            plays.append((read.seat(found[1]), found[2], found[3]))
            if not scan.maybe("; "):
                return record.TurnedUp(number=n, plays=plays)
    if found := scan.maybe(r"event (\w+)(?: (.+))?$"):
        if found[2] is not None:
            try:
                json.loads(found[2])
            except ValueError:
                raise Malformed("an event's data is JSON") from None
        return record.Other(number=n, type=found[1], data=found[2])
    return None


def _round_end(n: int, round_no: int, read: LineReader) -> RoundEnd:
    scan = read.scan
    winner: int | None = None
    reason = None
    for known, words in NO_WINNER.items():
        if scan.maybe(re.escape(words)):
            reason = known
    if reason is None and (found := scan.maybe(r"no winner \((\w+)\)")):
        reason = found[1]
    if reason is None and (found := scan.maybe(rf"winner ({LABEL}) \((\w+)\)")):
        winner, reason = read.seat(found[1]), found[2]
    if reason is None:
        winner = read.seat(scan.take(LABEL, "the winner")[0])
        # the longer phrase first: "went out" begins "went out unchallenged"
        for known, words in sorted(WON_BY.items(), key=lambda item: -len(item[1])):
            if reason is None and scan.maybe(" " + re.escape(words)):
                reason = known
        if reason is None:
            raise Malformed("expected how the round ended")
    points = read.per_seat(scan.take(rf"; points ({NUMBERS})", "; points")[1], "points")
    totals = read.per_seat(scan.take(rf"; totals ({NUMBERS})", "; totals")[1], "totals")
    return RoundEnd(number=n, round_no=round_no, winner=winner, reason=reason, points=points, totals=totals)


def _who(read: LineReader) -> tuple[int | None, str, str]:
    """A seat's label, or the role and quoted id of someone not seated."""
    if found := read.scan.maybe(rf"(admin|referee|system) ({STRING})"):
        return None, found[1], read_string(found[2])
    return read.seat(read.scan.take(LABEL, "who did it")[0]), "player", ""


def _entry(read: LineReader) -> SheetEntry:
    scan = read.scan
    winner = None
    if not scan.maybe("no winner"):
        winner = read.seat(scan.take(rf"winner ({LABEL})", "the winner or no winner")[1])
    points = scan.maybe(rf"; points ({NUMBERS})")
    hands = read.hands()
    if (points is None) == (not hands):
        raise Malformed("a score sheet's round gives either the points or the hands")
    missed = scan.maybe(rf"; missed calls ({NUMBERS})")
    last = scan.maybe(rf"; last card ({CARD})")
    return SheetEntry(
        winner=winner,
        points=None if points is None else read.per_seat(points[1], "points"),
        hands=hands or None,
        missed_calls=[] if missed is None else read.per_seat(missed[1], "missed calls"),
        last_card=None if last is None else last[1],
    )


def _dispute(n: int, number: int, read: LineReader) -> DisputeRaised:
    scan = read.scan
    seat, role, actor_id = _who(read)
    about = scan.maybe(r" about event (\d+)")
    reason = read_string(scan.take(rf": ({STRING})", "a quoted reason")[1])
    return DisputeRaised(
        number=n,
        dispute=number,
        seat=seat,
        role=role,
        actor_id=actor_id,
        about=None if about is None else int(about[1]),
        reason=reason,
    )


def _ruling(n: int, number: int, read: LineReader) -> RulingGiven:
    scan = read.scan
    seat = cards = from_event = round_no = entry = None
    if scan.maybe("resume"):
        kind = "resume"
    elif found := scan.maybe(rf"penalty ({LABEL}) draws (\d+)"):
        kind, seat, cards = "penalty", read.seat(found[1]), int(found[2])
    elif found := scan.maybe(r"correct round (\d+): "):
        kind, round_no, entry = "correct", int(found[1]), _entry(read)
    else:
        kind, from_event = "void", int(scan.take(r"void from event (\d+)", "resume, penalty or void")[1])
    note = read_string(scan.take(rf"; note ({STRING})", "; note")[1])
    counts = scan.maybe(rf"; cards ({NUMBERS})")
    return RulingGiven(
        number=n,
        dispute=number,
        kind=kind,  # type: ignore[arg-type]
        seat=seat,
        cards=cards,
        from_event=from_event,
        round_no=round_no,
        entry=entry,
        note=note,
        counts=None if counts is None else read.per_seat(counts[1], "cards"),
        hands=read.hands(),
        stock_order=read.order("stock order"),
    )


def _seat_line(n: int, read: LineReader) -> AnyLine:
    scan = read.scan
    seat = read.seat(scan.take(LABEL, "a seat or a keyword")[0])
    if found := scan.maybe(rf" plays ({CARD})"):
        more = scan.maybe(rf" with ({CARD}(?: {CARD})*)")
        declared = scan.maybe(rf" as ({CARD})")
        suit = scan.maybe(r" names (\w+)")
        call = scan.maybe(rf" says ({CALL})")
        missed = scan.maybe(rf" misses ({CALL})")
        return record.Played(
            number=n,
            seat=seat,
            card=found[1],
            suit=None if suit is None else _suit(suit[1]),
            call=None if call is None else call[1],
            missed=None if missed is None else missed[1],
            more=None if more is None else read_cards(more[1]),
            declared=None if declared is None else declared[1],
        )
    if found := scan.maybe(rf" draws (\d+)(?: \((\w+)\))?(?:: ({CARDS}))?"):
        cards = None if found[3] is None else read_cards(found[3])
        return record.Drew(number=n, seat=seat, count=int(found[1]), reason=found[2] or "turn", cards=cards)
    if scan.maybe(" keeps"):
        return record.Kept(number=n, seat=seat)
    if scan.maybe(" takes the skip"):
        return record.TookSkip(number=n, seat=seat)
    if scan.maybe(" ends the turn"):
        return record.Passed(number=n, seat=seat)
    if found := scan.maybe(r" names (\w+)"):
        return record.SuitNamed(number=n, seat=seat, suit=_suit(found[1]))
    if found := scan.maybe(rf" challenges ({LABEL}): missed ({CALL})"):
        return record.Challenged(number=n, seat=seat, offender=read.seat(found[1]), call=found[2])
    if scan.maybe(" timed out"):
        return record.TimedOut(number=n, seat=seat)
    if found := scan.maybe(r" forfeits after (\d+) timeouts"):
        return record.Forfeited(number=n, seat=seat, turns=int(found[1]))
    if found := scan.maybe(r" confirms round (\d+)"):
        return record.RoundConfirmed(number=n, seat=seat, round_no=int(found[1]))
    if found := scan.maybe(
        rf" doubts the card ({LABEL}) laid face down: ({CARD}) as ({CARD}), (a lie|the truth)"
    ):
        player, lied = read.seat(found[1]), found[4] == "a lie"
        return record.Doubted(number=n, seat=seat, player=player, card=found[2], declared=found[3], lied=lied)
    if found := scan.maybe(rf" chooses ({LABEL}) to draw"):
        return record.Chose(number=n, seat=seat, chosen=read.seat(found[1]))
    if found := scan.maybe(r" out of the match \((\w+)\): total (-?\d+)"):
        return record.Eliminated(number=n, seat=seat, reason=found[1], total=int(found[2]))
    if found := scan.maybe(r" dealt (\d+) cards from the next round"):
        return record.Shrank(number=n, seat=seat, hand_size=int(found[1]))
    raise Malformed(
        "expected plays, draws, keeps, takes the skip, ends the turn, names, challenges, doubts, "
        "timed out, forfeits, confirms, chooses, out of the match or dealt"
    )


def _suit(name: str) -> str:
    if name not in SUIT_LETTER:
        raise Malformed(f"{name!r} is not a suit: clubs, diamonds, hearts or spades")
    return SUIT_LETTER[name]
