"""Disputes and rulings (docs/referees.md; docs/rules/README.md).

A dispute stops the game at once: until a referee rules, every move is refused
with ``game_paused``. The referee inspects the exact state with the replay and
gives one ruling:

- ``Resume()``: the game goes on unchanged;
- ``Penalty(seat, cards)``: that seat draws penalty cards, then the game goes on;
- ``Void(from_event)``: every turn from event number ``from_event`` on is void;
  the game goes on from the state it had just before that event. The voided
  events stay in the log; the ruling that voids them is an event too, and it
  carries the state the game goes on from;
- ``Correct(round_no, entry)``, in a game played in person only: that round's score sheet
  entry is replaced; the round and every later one are scored again (``Game.give_ruling``).
"""

import msgspec

from service.domain.commands import GivePenalty
from service.domain.engine import decide
from service.domain.errors import RuleError
from service.domain.events import Event
from service.domain.roles import Actor
from service.domain.scoresheet import RoundEntry
from service.domain.state import DEAL, NEW, OVER, RECYCLE, State

# A penalty ruling is a number of cards a seat draws; more than this is a typo.
MOST_PENALTY_CARDS = 20


class Dispute(msgspec.Struct, frozen=True, kw_only=True):
    number: int  # 1 for the game's first dispute, and so on
    raised_by: Actor
    seat: int | None = None  # the seat that raised it, when a player did
    about: int | None = None  # the event number the dispute is about, when named
    reason: str = ""
    raised_at: int  # the event number of the DisputeRaised event


class Resume(msgspec.Struct, frozen=True, tag="resume"):
    pass


class Penalty(msgspec.Struct, frozen=True, tag="penalty"):
    seat: int
    cards: int


class Void(msgspec.Struct, frozen=True, tag="void"):
    from_event: int  # the first voided event; the game goes on from the state before it


class Correct(msgspec.Struct, frozen=True, tag="correct"):
    round_no: int
    entry: RoundEntry  # replaces the round's entry


Ruling = Resume | Penalty | Void | Correct


def check_penalty(s: State, ruling: Penalty) -> None:
    if not 0 <= ruling.seat < s.seats:
        raise RuleError("not_a_seat", why="seat", seat=ruling.seat)
    if not 1 <= ruling.cards <= MOST_PENALTY_CARDS:
        raise RuleError("invalid_ruling", why="penalty_cards", most_penalty_cards=MOST_PENALTY_CARDS)
    if s.phase in (NEW, DEAL, RECYCLE, OVER):
        raise RuleError("invalid_ruling", why="penalty_cards_given")


def penalty_events(s: State, seat: int, count: int) -> list[Event]:
    """The engine events of ``seat`` drawing ``count`` penalty cards now.

    The same events a successful challenge causes: the cards come off the
    stock, and when the stock is short a ``StockRanOut`` asks for a recycle
    first (the draw is then completed by the engine's ``RecycleStock``). The
    turn and the phase stay as they are; a penalty the stock cannot give even
    after a recycle is refused with ``stock_exhausted``.
    """
    return decide(s, GivePenalty(seat, count))


def check_void(ruling: Void, dispute: Dispute, first_voidable: int) -> None:
    if not first_voidable <= ruling.from_event < dispute.raised_at:
        raise RuleError(
            "invalid_ruling",
            why="events_voided_first",
            first_voidable=first_voidable,
            last=dispute.raised_at - 1,
        )
