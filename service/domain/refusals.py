"""The engine's refusals shared by its commands: a seat or suit that is none, a command the phase
does not take (``phase_refusal``)."""

from typing import Protocol

from service.domain.errors import RuleError
from service.domain.state import (
    CHOOSING,
    DEAL,
    NAMING_SUIT,
    NEW,
    OVER,
    RECYCLE,
    State,
)


class Seated(Protocol):
    """A game's state as far as its seats go (the card game's and Mao's)."""

    @property
    def seats(self) -> int: ...


def check_seat(s: Seated, seat: int) -> None:
    if not 0 <= seat < s.seats:
        raise RuleError("not_a_seat", why="seat", seat=seat)


def check_suit(suit: int) -> None:
    if not 0 <= suit < 4:
        raise RuleError("malformed_suit", why="not_suit", suit=suit)


_PHASE_REFUSALS = {
    NEW: "match_not_started",
    DEAL: "round_not_dealt",
    NAMING_SUIT: "suit_not_named",
    CHOOSING: "player_not_chosen",
    RECYCLE: "awaiting_shuffle",
    OVER: "game_over",
}


def phase_refusal(s: State, code: str) -> RuleError:
    """Why a command does not fit the phase; `code` covers the phases not listed above."""
    return RuleError(_PHASE_REFUSALS.get(s.phase, code))
