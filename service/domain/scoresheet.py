"""Score sheets: a round played with real cards, as the table's scorer writes it down.

An entry names the seat that went out (or none: the round stopped with no winner) and, per
seat, either the cards left in hand or the points those cards are worth by the ruleset's
card values. ``values_of`` checks that such a table could exist and gives each seat's points
left, which the engine scores as it scores a round played here (``engine.score_round``).
Missed calls challenged are written down too; they cost cards, never points (docs/rules/,
section 6 of each page), so they change no score.
"""

import msgspec

from service.domain.cards import CARD_COUNT, alike, rank_name, rank_of
from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.domain.round_scoring import card_entry, only_value
from service.domain.rulebook import Rulebook


class RoundEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One round of a score sheet. Exactly one of ``hands`` and ``points`` is given."""

    winner: int | None  # the seat that went out; None: the round stopped with no winner
    hands: tuple[tuple[int, ...], ...] | None = None  # per seat, the cards left in hand
    points: tuple[int, ...] | None = None  # per seat, the points of the cards left in hand
    missed_calls: tuple[int, ...] = ()  # per seat, missed calls challenged (empty: none noted)
    # the card the winner went out with, when the sheet says it: it may double the losers' points
    # or score the winner (``round_scoring``); a sheet that does not say scores the round without it
    last_card: int | None = None


class Correction(msgspec.Struct, frozen=True, kw_only=True):
    """A referee's ruling that replaced a round's entry."""

    by: Actor
    at: int  # the event number of the ruling
    dispute: int
    replaced: RoundEntry  # the entry it replaced


class RoundSheet(msgspec.Struct, frozen=True, kw_only=True):
    """A round's entry in force, who wrote it, who confirmed it and how it was corrected."""

    round_no: int
    entry: RoundEntry
    entered_by: Actor
    entered_at: int  # the event number of the ``RoundEntered``
    confirmed_by: tuple[int, ...] = ()  # seats, in the order they confirmed
    corrections: tuple[Correction, ...] = ()

    def confirmed(self, seat: int) -> "RoundSheet":
        """The sheet once ``seat`` confirmed it too."""
        return msgspec.structs.replace(self, confirmed_by=(*self.confirmed_by, seat))


def values_of(book: Rulebook, seats: int, entry: RoundEntry, out: int = 0) -> list[int]:
    """Each seat's points left in hand, or the ``RuleError`` that says why the entry is impossible.

    ``out``: the seats out of the match (a bit each), who hold no card and cannot win.
    """
    winner = entry.winner
    if winner is not None and (type(winner) is not int or not 0 <= winner < seats):
        raise RuleError("not_a_seat", why="seat_given", seat=winner)
    _check_last_card(book, entry)
    if (entry.hands is None) == (entry.points is None):
        raise RuleError("invalid_entry", why="give_either_cards")
    if entry.missed_calls and len(entry.missed_calls) != seats:
        raise RuleError("seat_count", why="table_seats_give", seats=seats)
    if any(count < 0 for count in entry.missed_calls):
        raise RuleError("invalid_entry", why="count_missed_calls")
    values = (
        _hand_values(book, seats, entry.hands) if entry.hands is not None else _points(book, seats, entry)
    )
    if winner is not None and values[winner]:
        raise RuleError("winner_holds_cards", winner=winner)
    for seat, value in enumerate(values):
        # a 101 hand of nines is worth 0 points: the cards say what points cannot
        holds = value or (entry.hands is not None and entry.hands[seat])
        if out >> seat & 1 and (holds or seat == winner):
            raise RuleError("seat_out", why="seat_out_match", seat=seat)
    empty = [seat for seat in _empty_hands(book, entry, values) if seat != winner and not out >> seat & 1]
    if len(empty) > _most_empty_losers(book, seats):
        raise RuleError("loser_without_cards", empty=empty)
    return values


def _empty_hands(book: Rulebook, entry: RoundEntry, values: list[int]) -> list[int]:
    """The seats the entry says hold no card. Points of 0 say it only where every card is worth
    something: in 101 a hand of nines is worth 0 too."""
    if entry.hands is not None:
        return [seat for seat, hand in enumerate(entry.hands) if not hand]
    if min(worth(book, card) for card in book.deck) == 0:
        return []
    return [seat for seat, value in enumerate(values) if not value]


def _check_last_card(book: Rulebook, entry: RoundEntry) -> None:
    card = entry.last_card
    if card is None:
        return
    if entry.winner is None:
        raise RuleError("invalid_entry", why="round_no_winner")
    if type(card) is not int or not 0 <= card < 52:
        raise RuleError("malformed_card", why="not_card", card=card)
    if not book.deck_mask >> card & 1:
        raise RuleError("card_not_in_deck", why="plays_without_card", name=book.rules.name)
    if entry.hands is not None and any(card in hand for hand in entry.hands):
        raise RuleError("card_entered_twice", why="card_went_out")


def _most_empty_losers(book: Rulebook, seats: int) -> int:
    """How many seats can end a round with no card and not win it (docs/rules/club.md, section 6).

    A player who plays their last card without "Mau Mau" keeps an empty hand while the window is
    open: the next player may go out with the right call and win (or the round stops for want of a
    draw). Only one window is open at a time, so one such seat, unless a challenged missed call
    costs no card (``call_penalty`` 0): then every challenged player stays out of cards.
    """
    return seats if book.rules.call_penalty == 0 else 1


def _hand_values(book: Rulebook, seats: int, hands: tuple[tuple[int, ...], ...]) -> list[int]:
    if len(hands) != seats:
        raise RuleError("seat_count", why="table_seats_not", seats=seats, count=len(hands))
    # A scorer cannot tell a card's copies apart (nor one joker from another): each is counted
    # against how many the deck holds, by its kind (the lowest id alike).
    entered: dict[int, int] = {}
    for hand in hands:
        for card in hand:
            if type(card) is not int or not 0 <= card < CARD_COUNT:
                raise RuleError("malformed_card", why="not_card", card=card)
            if not book.deck_mask >> card & 1:
                raise RuleError("card_not_in_deck", why="plays_without_card", name=book.rules.name)
            copies = alike(card) & book.deck_mask
            kind = (copies & -copies).bit_length()
            entered[kind] = entered.get(kind, 0) + 1
            if entered[kind] > copies.bit_count():
                raise RuleError("card_entered_twice", why="card_entered_more")
    # the top card of the discard pile stays on the table
    if sum(entered.values()) > len(book.deck) - 1:
        raise RuleError("too_many_cards", count=len(book.deck) - 1)
    return [_left(book, hand) for hand in hands]


def _left(book: Rulebook, hand: tuple[int, ...]) -> int:
    """What a hand entered at the round's end counts (cards may repeat when the deck holds copies)."""
    only = only_value(book.rules, hand)
    return sum(worth(book, card) for card in hand) if only is None else only


def worth(book: Rulebook, card: int) -> int:
    """A card's points by the ruleset's values, keyed as ``rank_name`` names ranks (a joker ``"joker"``)."""
    return book.rules.card_points.get(rank_name(card), 0)


def card_values(book: Rulebook) -> list[tuple[str, int]]:
    """Each rank the deck holds, lowest first and a joker (``"joker"``) last, with its points."""
    ranks = dict.fromkeys(rank_name(card) for card in sorted(book.deck, key=rank_of))
    return [(rank, book.rules.card_points.get(rank, 0)) for rank in ranks]


def _points(book: Rulebook, seats: int, entry: RoundEntry) -> list[int]:
    points = entry.points or ()
    if len(points) != seats:
        raise RuleError("seat_count", why="table_seats_not", seats=seats, count=len(points))
    values = [worth(book, card) for card in book.deck]
    lowest = min(values)
    # every card but the lowest one, which lies on the discard pile at the least; a hand of
    # cards listed in ``only_points`` (101: queens) may count more than their points
    bonus = sum(
        max(0, (card_entry(book.rules.only_points, card) or 0) - worth(book, card)) for card in book.deck
    )
    most = sum(values) - lowest + bonus
    for seat, value in enumerate(points):
        if type(value) is not int or value < 0:
            raise RuleError("invalid_points", seat=seat)
        if 0 < value < lowest:
            raise RuleError("impossible_points", why="no_card_worth", ruleset=book.rules.name, lowest=lowest)
    if sum(points) > most:
        raise RuleError("impossible_points", why="cards_left_worth", most=most)
    return list(points)
