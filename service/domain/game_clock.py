"""A game's turn clock (``clock``) and forfeits: a timed-out turn is played by a clock bot
(``Game.time_out_turn``), a seat forfeits after ``forfeit_after`` timeouts in a row or when its
player is erased (``Game.forfeit_seat``), and the match ends when one seat is left in."""

import random
from typing import TYPE_CHECKING

from service.domain.bots import HeuristicBot
from service.domain.commands import ChallengeDeclaration
from service.domain.engine import decide
from service.domain.errors import RuleError
from service.domain.game_facts import record, settle_chance
from service.domain.history import Cause
from service.domain.state import CHOOSING, DRAWN, OVER, PLAY, State

if TYPE_CHECKING:
    from service.domain.game import Game


def time_out_turn(game: "Game", seat: int, cause: Cause) -> None:
    """The turn clock of ``seat`` ran out: a clock bot plays the whole turn for it.

    The ``TurnTimedOut`` event flags the turn; the bot's plays follow as usual
    facts. The bot never forgets a call, and its choices follow from the game's
    seed, so the same history gives the same turn. The ``forfeit_after``-th
    timeout in a row forfeits the seat (``SeatForfeited``) before the bot plays:
    when that ends the match, nobody plays the turn.
    """
    game.check_played_here()
    game.check_playable()
    if cause.actor.role == "player":
        raise RuleError("not_allowed", why="service_referee_times")
    game.check_seat(seat, cause.actor)
    if seat != game.seat_to_move:
        raise RuleError("not_your_turn", why="seat_not_move", seat=seat)
    if seat in game.forfeited:
        raise RuleError("seat_forfeited", why="seat_forfeited_bot", seat=seat)
    game.trigger_event(game.TurnTimedOut, seat=seat, cause=cause)
    if game.forfeit_after and game.clock_runs[seat] >= game.forfeit_after:
        game.trigger_event(game.SeatForfeited, seat=seat, turns=game.clock_runs[seat])
        if game.over:
            return
    bot = HeuristicBot(random.Random(f"{game.seed}:{game.version}"))
    while True:
        command = bot.choose(game.state, seat)
        record(game, decide(game.state, command), None)
        settle_chance(game)
        # a challenge of a face-down card (blind) comes before the challenger's move
        if not _same_turn(game.state, seat) and not (
            type(command) is ChallengeDeclaration and game.state.turn == seat
        ):
            break


def forfeit_seat(game: "Game", seat: int, cause: Cause) -> None:
    """The seat's player can no longer play (erased on request, ``docs/privacy.md``): the seat
    forfeits the match as one whose clock ran out does, at once, even while a dispute pauses the
    game (nobody is left to play it on after the ruling)."""
    if cause.actor.role != "system":
        raise RuleError("not_allowed", why="service_forfeits_seat")
    if game.abandoned is not None:
        raise RuleError("game_abandoned", abandoned=game.abandoned)
    if game.state.phase == OVER:
        raise RuleError("game_over")
    game.check_seat(seat, cause.actor)
    if seat in game.forfeited:
        raise RuleError("seat_forfeited", why="already", seat=seat)
    game.trigger_event(game.SeatForfeited, seat=seat, turns=game.clock_runs[seat])


def apply_forfeit(game: "Game", seat: int) -> None:
    """``SeatForfeited``: with one seat left in (not forfeited, not out of the match), the match
    is over and that seat wins."""
    game.forfeited = (*game.forfeited, seat)
    # a seat out of the match (101, faraon) is no longer in it either
    out = game.state.out
    still = [
        other for other in range(len(game.seats)) if other not in game.forfeited and not out >> other & 1
    ]
    if len(still) == 1:
        game.state.phase = OVER
        game.state.winners = tuple(still)


def _same_turn(s: State, seat: int) -> bool:
    """``seat`` still has its turn to finish: a drawn card to play or keep, a player to choose,
    or a card of its own that lets it move again."""
    if s.turn != seat:
        return False
    return s.phase == DRAWN or s.phase == CHOOSING or (s.phase == PLAY and s.book.again[s.shown])
