"""The pieces a game record's lines are read with (``record_parse``): the patterns of a label, a
card, the numbers; a line read from the left (``Scan``), an event line's seats and hands
(``LineReader``), and ``Malformed``, what is wrong with one line."""

import json
import re

from service.domain.record import RESERVED, Hands

STRING = r'"(?:[^"\\]|\\.)*"'
LABEL = rf'(?:{STRING}|[^\s"\\:;,=()]+)'
CARD = r"(?:(?:10|[2-9JQKA])[CDHS]|X[12])(?:\.2)?"  # as ``cards.format_card`` writes them
CARDS = rf"(?:-|{CARD}(?: {CARD})*)"
NUMBERS = r"-?\d+(?: -?\d+)*"
SALT = r"[0-9A-Za-z]+"
CALL = r"(?:mau_mau|mau)"


class Malformed(Exception):
    """What is wrong with one line (the line number is added by ``parse_record``)."""


class Scan:
    """One line read from the left: each ``take`` matches at the place the last one ended."""

    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0

    def maybe(self, pattern: str) -> re.Match[str] | None:
        found = re.compile(pattern).match(self.text, self.at)
        if found is not None:
            self.at = found.end()
        return found

    def take(self, pattern: str, what: str) -> re.Match[str]:
        found = self.maybe(pattern)
        if found is None:
            raise Malformed(f"expected {what} at {self.text[self.at : self.at + 30]!r}")
        return found

    def done(self) -> None:
        if self.at != len(self.text):
            raise Malformed(f"unexpected {self.text[self.at : self.at + 30]!r}")


def read_string(text: str) -> str:
    try:
        value = json.loads(text)
    except ValueError:
        raise Malformed(f"{text[:30]!r} is not a quoted string") from None
    if not isinstance(value, str):
        raise Malformed(f"{text[:30]!r} is not a quoted string")
    return value


def read_label(text: str) -> str:
    if text.startswith('"'):
        return read_string(text)
    if text.lower() in RESERVED:
        raise Malformed(f"{text!r} is a word of the format: quote it to name a seat")
    return text


def read_cards(text: str) -> list[str]:
    return [] if text == "-" else text.split(" ")


def read_numbers(text: str) -> list[int]:
    return [int(n) for n in text.split(" ")]


class LineReader:
    """One event line's reading: the seats by label, how many there are."""

    def __init__(self, scan: Scan, seats: dict[str, int], count: int) -> None:
        self.scan, self.seats, self.count = scan, seats, count

    def seat(self, text: str) -> int:
        label = read_label(text)
        if label not in self.seats:
            raise Malformed(f"no seat is labelled {label!r}")
        return self.seats[label]

    def per_seat(self, text: str, what: str) -> list[int]:
        numbers = read_numbers(text)
        if len(numbers) != self.count:
            raise Malformed(f"{what} has {len(numbers)} numbers for {self.count} seats")
        return numbers

    def hands(self) -> Hands:
        hands: Hands = []
        while (found := self.scan.maybe(rf"; hand ({LABEL}) ({CARDS})")) is not None:
            hands.append((self.seat(found[1]), read_cards(found[2])))
        return hands

    def order(self, word: str) -> list[str] | None:
        found = self.scan.maybe(rf"; {word} ({CARDS})")
        return None if found is None else read_cards(found[1])

    def salt(self) -> str | None:
        found = self.scan.maybe(rf"; salt ({SALT})")
        return None if found is None else found[1]
