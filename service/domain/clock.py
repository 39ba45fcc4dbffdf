"""Turn clocks and forfeits by clock: a league's setting (or a friendly game's own), fixed in each
game when it is created.

A game with a turn clock gives the seat to move ``turn_clock`` seconds; when the
clock runs out a clock bot plays the turn for it (``Game.time_out_turn``). A seat
whose clock runs out ``forfeit_after`` times in a row forfeits the game at that
timeout (``Game.SeatForfeited``); a move of its own in between starts the count
again. ``forfeit_after`` 0 means never. Refusals: ``invalid_turn_clock``,
``invalid_forfeit_after``. The whole rule, and how a forfeit is scored:
docs/standings.md.
"""

from typing import Any

from service.domain.errors import RuleError

MAX_TURN_CLOCK = 86_400  # a day to make one move
FORFEIT_AFTER = 3  # a player who lets the clock play three turns running has left the table
MAX_FORFEIT_AFTER = 100


def check_clock(turn_clock: Any, forfeit_after: Any) -> None:
    """Refuse a turn clock other than None or 1 to ``MAX_TURN_CLOCK`` seconds, or a forfeit count
    other than 0 (never) to ``MAX_FORFEIT_AFTER`` timeouts in a row."""
    if turn_clock is not None and (type(turn_clock) is not int or not 1 <= turn_clock <= MAX_TURN_CLOCK):
        raise RuleError("invalid_turn_clock", max_turn_clock=MAX_TURN_CLOCK)
    if type(forfeit_after) is not int or not 0 <= forfeit_after <= MAX_FORFEIT_AFTER:
        raise RuleError("invalid_forfeit_after", max_forfeit_after=MAX_FORFEIT_AFTER)
