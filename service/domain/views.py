"""The referee's view of a game: everything on and under the table, at one event number.

Nothing is redacted here: every hand, the stock in order; the seed and the
entropy it is mixed with are the only things left out (and, from the log's entries, the tournament
table a game's creation carries, which the tournament's bracket shows). Views for players and the
public are cut down from this by the HTTP layer.
"""

from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from service.domain.adjudication import Dispute
from service.domain.cards import format_card, format_cards, format_suit
from service.domain.events import RoundEnded
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.rulebook import CALL_NAMES
from service.domain.seats import Seat
from service.domain.state import DRAW_REASONS, PHASE_NAMES, State


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    occupant: Seat
    hand: list[str]
    cards: int
    total: int  # the match score so far
    # the cards this seat is dealt: this round's, or the next deal's once a loss shrank it (faraon);
    # 0 for a seat out of the match
    hand_size: int = 0
    out: bool = False  # out of the match (over 101's limit, or faraon's last card lost): passed over


class MissedCall(msgspec.Struct, frozen=True):
    seat: int
    call: str  # "mau" or "mau_mau"


class PendingDraw(msgspec.Struct, frozen=True):
    seat: int
    cards: int
    reason: str


class TableView(msgspec.Struct, frozen=True, kw_only=True):
    game_id: UUID
    number: int  # the event number this is the state after
    ruleset: str
    phase: str
    round_no: int
    dealer: int
    turn: int
    direction: int  # 1 clockwise, -1 the other way
    seats: list[SeatView]
    top: str | None
    discard: list[str]  # bottom first, the top card last
    stock: list[str]  # the top of the stock first
    named_suit: str | None
    debt: int
    drawn: str | None  # the card just drawn, while it may still be played
    missed: MissedCall | None  # a missed call whose challenge window is open
    pending: PendingDraw | None  # a draw waiting for the stock to be recycled
    round_points: list[list[int]]
    totals: list[int]
    winners: list[int]
    dispute: Dispute | None
    paused: bool
    over: bool
    abandoned: str | None = None  # why the match was called off unfinished (it counts for nobody)


def table_view(game: Game) -> TableView:
    s: State = game.state
    started = hasattr(s, "book")
    totals = list(s.totals) or [0] * len(game.seats)
    sizes = list(s.hand_sizes) or [game.ruleset.hand_size] * len(game.seats)
    seats = [
        SeatView(
            seat=index,
            occupant=occupant,
            hand=format_cards(s.hands[index]) if s.hands else [],
            cards=s.hands[index].bit_count() if s.hands else 0,
            total=totals[index],
            hand_size=0 if s.out >> index & 1 else sizes[index],
            out=bool(s.out >> index & 1),
        )
        for index, occupant in enumerate(game.seats)
    ]
    return TableView(
        game_id=game.id,
        number=game.version,
        ruleset=game.ruleset.name,
        phase=PHASE_NAMES[s.phase],
        round_no=s.round_no,
        dealer=s.dealer,
        turn=s.turn,
        direction=s.direction,
        seats=seats,
        top=format_card(s.discard[-1]) if s.discard else None,
        discard=format_cards(s.discard),
        stock=format_cards(reversed(s.stock)),
        named_suit=format_suit(s.named_suit) if s.named_suit >= 0 else None,
        debt=s.debt,
        drawn=format_card(s.drawn) if s.drawn >= 0 else None,
        missed=MissedCall(s.missed[0], CALL_NAMES[s.missed[1]] or "") if s.missed else None,
        pending=(
            PendingDraw(s.pending.seat, s.pending.count, DRAW_REASONS[s.pending.reason])
            if s.pending is not None
            else None
        ),
        round_points=[list(points) for points in s.round_points],
        totals=totals if started else [],
        winners=list(game.result().winners),  # never a seat that forfeited
        dispute=game.dispute,
        paused=game.paused,
        over=game.over,
        abandoned=game.abandoned,
    )


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    """One stored event of a game, numbered, for the referee's list."""

    number: int
    type: str  # "CardPlayed", "RulingGiven", ...
    timestamp: datetime
    data: dict[str, Any]
    cause: Cause | None = None


# the seed and the entropy it is mixed with stay in the store: with them every deck could be foretold;
# a creation's tournament table too, so the log reads as before games carried it (the bracket names it)
_NOT_DATA = frozenset(
    ("originator_id", "originator_version", "timestamp", "cause", "fact", "seed", "entropy", "table")
)


def entry_of(event: Any) -> Entry:
    """The referee's entry for a stored Game event (engine events are shown with their fields)."""
    data: dict[str, Any] = {}
    fact = getattr(event, "fact", None)
    if fact is not None:
        data.update(msgspec.to_builtins(fact))
        data.pop("type", None)
    for name, value in vars(event).items():
        if name not in _NOT_DATA:
            data[name] = msgspec.to_builtins(value)
    if isinstance(fact, RoundEnded) and fact.winner < 0:
        # stored as -1 (events are forever); clients get null, as the totals and tables say it
        data["winner"] = None
    return Entry(
        number=event.originator_version,
        type=type(event).__name__,
        timestamp=event.timestamp,
        data=data,
        cause=getattr(event, "cause", None),
    )
