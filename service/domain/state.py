"""The state of one table's match: the fold of its events.

The fold owns the state and mutates it in place (``evolve``); it holds facts,
never rules. Hands are bitmasks; the stock and the discard pile are lists with
their top card last.
"""

from typing import Any

from service.domain.rulebook import Rulebook

# Phases of a match. DEAL and RECYCLE are chance nodes: the shuffle comes from outside.
# CHOOSING: the player of a card that makes another player draw chooses who.
NEW, DEAL, NAMING_SUIT, PLAY, DRAWN, RECYCLE, OVER, CHOOSING = range(8)
PHASE_NAMES = ("new", "deal", "name_suit", "play", "drawn", "recycle", "over", "choose_player")

# Why cards were drawn. EFFECT: a card made others draw (the turn stays where the play put it).
TURN, DEBT, PENALTY, EFFECT = 0, 1, 2, 3
DRAW_REASONS = ("turn", "debt", "penalty", "effect")

CLOCKWISE = 1


class PendingDraw:
    """A draw waiting for the stock to be recycled."""

    __slots__ = ("count", "reason", "resume_phase", "seat")

    def __init__(self, seat: int, count: int, reason: int, resume_phase: int) -> None:
        self.seat = seat
        self.count = count
        self.reason = reason
        self.resume_phase = resume_phase

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PendingDraw) and self.facts() == other.facts()

    def facts(self) -> tuple[int, int, int, int]:
        return (self.seat, self.count, self.reason, self.resume_phase)


class State:
    __slots__ = (
        "book",
        "covering",
        "dealer",
        "debt",
        "declared",
        "direction",
        "discard",
        "doubt",
        "drawn",
        "face_down",
        "follow",
        "hand_sizes",
        "hands",
        "missed",
        "named_suit",
        "next_dealer",
        "out",
        "out_round",
        "passing",
        "pending",
        "phase",
        "recycled_hands",
        "round_no",
        "round_points",
        "round_winner",
        "seats",
        "skip_due",
        "stock",
        "totals",
        "turn",
        "winners",
    )

    book: Rulebook
    hands: list[int]
    hand_sizes: list[int]
    stock: list[int]
    discard: list[int]
    # (offender, call) of a missed call whose challenge window is open
    missed: tuple[int, int] | None
    pending: PendingDraw | None
    round_points: list[tuple[int, ...]]
    totals: list[int]
    winners: tuple[int, ...]
    out_round: list[int]

    def __init__(self) -> None:
        self.phase = NEW
        self.seats = 0
        self.turn = -1
        self.direction = CLOCKWISE
        self.dealer = -1
        self.next_dealer = -1
        self.hands = []
        self.stock = []
        self.discard = []
        self.follow = 0  # cards that may be played on the top card when no debt is pending
        self.named_suit = -1
        self.debt = 0
        self.drawn = -1  # the card drawn this turn, while it may still be played
        self.covering = False  # the player on turn must cover the top card they played (must_cover)
        self.skip_due = False  # the player on turn faces a waiting skip: pass it on or take it
        # the player on turn moves again after a card of theirs (may_pass) and may end the turn instead
        self.passing = False
        self.missed = None
        self.pending = None
        # every hand as it was when the stock was last recycled this round; empty: not recycled yet
        self.recycled_hands: list[int] = []
        self.out = 0  # the seats out of the match, as a bitmask: every turn passes over them
        self.round_no = 0
        self.round_points = []  # one tuple of points per finished round
        self.totals = []
        self.winners = ()
        self.out = 0  # seats out of the match, a bit each
        # per seat, the round at whose end it went out of the match (0: still in); empty: nobody out.
        # Places in a match follow it: a seat out later placed better (``rating.places``).
        self.out_round = []
        self.hand_sizes = []  # per seat, the cards the next deal gives; empty: the ruleset's hand_size
        self.round_winner = -1  # who went out in the last round ended, -1: nobody
        # blind: the card the face-down top of the discard pile was declared as, -1: the top is face up
        self.declared = -1
        # blind: (its player, the seat that may challenge it) while the face-down top may be challenged
        self.doubt: tuple[int, int] | None = None
        # blind: (seat, card, declared) of each card played face down this round and not yet turned up
        self.face_down: list[tuple[int, int, int]] = []

    @property
    def top(self) -> int:
        return self.discard[-1]

    @property
    def shown(self) -> int:
        """The card the top of the discard pile counts as: a face-down card's declaration."""
        return self.discard[-1] if self.declared < 0 else self.declared

    def facts(self) -> dict[str, Any]:
        """Everything the state holds, for comparing two states."""
        return {
            name: getattr(self, name) for name in self.__slots__ if name != "book" and hasattr(self, name)
        } | {"rules": self.book.rules if hasattr(self, "book") else None}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.facts() == other.facts()

    def __repr__(self) -> str:
        return f"State(phase={PHASE_NAMES[self.phase]}, round={self.round_no}, turn={self.turn})"


def next_seat(s: State, seat: int, direction: int) -> int:
    """The next seat in ``direction`` still in the match."""
    seats, out = s.seats, s.out
    seat = (seat + direction) % seats
    while out >> seat & 1:
        seat = (seat + direction) % seats
    return seat
