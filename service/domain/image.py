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
from service.domain.struct_from import struct_from


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


# the fields the fold mutates in place: an image and a restored state get lists of their own
_LISTS = (
    "hands",
    "stock",
    "discard",
    "round_points",
    "totals",
    "out_round",
    "hand_sizes",
    "face_down",
    "recycled_hands",
)
# the fields held alike (numbers and tuples); the rules and a pending draw are converted
_ALIKE = tuple(name for name in StateImage.__struct_fields__ if name not in {"rules", "pending", *_LISTS})


def image_of(s: State) -> StateImage:
    return struct_from(
        StateImage,
        s,
        rules=s.book.rules if hasattr(s, "book") else None,
        pending=None if s.pending is None else s.pending.facts(),
        winners=tuple(s.winners),
        **{name: list(getattr(s, name)) for name in _LISTS},
    )


def restore(image: StateImage) -> State:
    """A new, independent ``State`` equal to the one the image was taken of."""
    s = State()
    if image.rules is not None:
        s.book = rulebook(image.rules)
    for name in _ALIKE:
        setattr(s, name, getattr(image, name))
    for name in _LISTS:
        setattr(s, name, list(getattr(image, name)))
    s.pending = None if image.pending is None else PendingDraw(*image.pending)
    return s


def copy_state(s: State) -> State:
    return restore(image_of(s))
