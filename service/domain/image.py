"""An engine ``State`` as plain data, and back.

Snapshots of a game and the ruling that voids turns store the whole state of
the table; ``StateImage`` is that state as a msgspec Struct, with the exact
container types the fold uses (lists where the fold keeps lists, tuples where
it keeps tuples), so ``restore(image_of(s)) == s``. The rulebook is not
stored: it is compiled again from the ruleset.
"""

import msgspec

from service.domain.rulebook import rulebook
from service.domain.rulesets import Ruleset
from service.domain.state import PendingDraw, State


class StateImage(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    rules: Ruleset | None = None  # None before the match starts
    phase: int
    seats: int
    turn: int
    direction: int
    dealer: int
    next_dealer: int
    hands: list[int]
    stock: list[int]
    discard: list[int]
    follow: int
    named_suit: int
    debt: int
    drawn: int
    missed: tuple[int, int] | None = None
    pending: tuple[int, int, int, int] | None = None  # seat, count, reason, resume phase
    round_no: int
    round_points: list[tuple[int, ...]]
    totals: list[int]
    winners: tuple[int, ...]
    out: int = 0
    out_round: list[int] = []
    hand_sizes: list[int] = []
    round_winner: int = -1
    declared: int = -1  # blind: the face-down top's declaration
    doubt: tuple[int, int] | None = None
    face_down: list[tuple[int, int, int]] = []
    covering: bool = False
    skip_due: bool = False
    passing: bool = False
    recycled_hands: list[int] = []


def image_of(s: State) -> StateImage:
    return StateImage(
        rules=s.book.rules if hasattr(s, "book") else None,
        phase=s.phase,
        seats=s.seats,
        turn=s.turn,
        direction=s.direction,
        dealer=s.dealer,
        next_dealer=s.next_dealer,
        hands=list(s.hands),
        stock=list(s.stock),
        discard=list(s.discard),
        follow=s.follow,
        named_suit=s.named_suit,
        debt=s.debt,
        drawn=s.drawn,
        missed=s.missed,
        pending=None if s.pending is None else s.pending.facts(),
        round_no=s.round_no,
        round_points=list(s.round_points),
        totals=list(s.totals),
        winners=tuple(s.winners),
        out=s.out,
        out_round=list(s.out_round),
        hand_sizes=list(s.hand_sizes),
        round_winner=s.round_winner,
        declared=s.declared,
        doubt=s.doubt,
        face_down=list(s.face_down),
        covering=s.covering,
        skip_due=s.skip_due,
        passing=s.passing,
        recycled_hands=list(s.recycled_hands),
    )


def restore(image: StateImage) -> State:
    """A new, independent ``State`` equal to the one the image was taken of."""
    s = State()
    if image.rules is not None:
        s.book = rulebook(image.rules)
    s.phase = image.phase
    s.seats = image.seats
    s.turn = image.turn
    s.direction = image.direction
    s.dealer = image.dealer
    s.next_dealer = image.next_dealer
    s.hands = list(image.hands)
    s.stock = list(image.stock)
    s.discard = list(image.discard)
    s.follow = image.follow
    s.named_suit = image.named_suit
    s.debt = image.debt
    s.drawn = image.drawn
    s.missed = image.missed
    s.pending = None if image.pending is None else PendingDraw(*image.pending)
    s.round_no = image.round_no
    s.round_points = list(image.round_points)
    s.totals = list(image.totals)
    s.winners = image.winners
    s.out = image.out
    s.out_round = list(image.out_round)
    s.hand_sizes = list(image.hand_sizes)
    s.round_winner = image.round_winner
    s.declared = image.declared
    s.doubt = image.doubt
    s.face_down = list(image.face_down)
    s.covering = image.covering
    s.skip_due = image.skip_due
    s.passing = image.passing
    s.recycled_hands = list(image.recycled_hands)
    return s


def copy_state(s: State) -> State:
    return restore(image_of(s))
