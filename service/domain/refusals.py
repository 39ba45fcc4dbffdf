"""The engine's refusals shared by its commands: a seat or suit that is none, a command the phase
does not take (``phase_refusal``)."""

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


def check_seat(s: State, seat: int) -> None:
    if not 0 <= seat < s.seats:
        raise RuleError("not_a_seat", f"seat {seat} is not at this table")


def check_suit(suit: int) -> None:
    if not 0 <= suit < 4:
        raise RuleError("malformed_suit", f"{suit!r} is not a suit")


_PHASE_REFUSALS = {
    NEW: ("match_not_started", "the match has not started"),
    DEAL: ("round_not_dealt", "the next round has not been dealt"),
    NAMING_SUIT: ("suit_not_named", "the dealer must first name the suit for the starter"),
    CHOOSING: ("player_not_chosen", "the player of the card must first choose who draws"),
    RECYCLE: ("awaiting_shuffle", "the stock is being recycled"),
    OVER: ("game_over", "the match is over"),
}


def phase_refusal(s: State, code: str, message: str) -> RuleError:
    """Why a command does not fit the phase; `code` covers the phases not listed above."""
    code, message = _PHASE_REFUSALS.get(s.phase, (code, message))
    return RuleError(code, message)
