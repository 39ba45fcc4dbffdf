"""What the server does at a stored Mao table: chance after every act, and a bot's turn.

When the stock must be recycled it shuffles the discards, in the same save as the act that emptied
it (``settle_chance``). A bot's seat on turn (or a forfeited seat's stand-in, ``bots.StandIn``)
moves in a turn of its own (``bot_turn``), which the workers play after the save that left it on
turn, as they play a card game's bots: the bot sees its ``PlayerView`` and the public log only,
and after an accepted play says the base calls.
"""

import random
from collections.abc import Callable

from service.domain.errors import RuleError
from service.domain.mao.aggregate import BOT_BY, BOT_PREFIX, SERVER_BY, MaoGame
from service.domain.mao.bots import Bot, RandomBot, StandIn, calls_after
from service.domain.mao.commands import PlayCard, RecycleStock, Say
from service.domain.mao.events import CardPlayed
from service.domain.mao.learning import LearningBot
from service.domain.mao.redaction import PUBLIC, redact_all
from service.domain.mao.state import PLAY, RECYCLE
from service.domain.mao.views import player_view

BOTS: dict[str, Callable[[random.Random], Bot]] = {
    f"{BOT_PREFIX}learning": LearningBot,
    f"{BOT_PREFIX}random": RandomBot,
}


def check_bot(name: str) -> None:
    if name not in BOTS:
        raise RuleError("unknown_bot", why="no_bot_bots", name=name, bots=", ".join(BOTS))


def settle_chance(game: MaoGame, rng: random.Random) -> None:
    """Recycle the stock while it must be: no seat can act before."""
    while game.state.phase == RECYCLE:
        order = game.state.discard[:-1]
        rng.shuffle(order)
        game.do(RecycleStock(tuple(order)), SERVER_BY)


def seat_to_move(game: MaoGame) -> int | None:
    """The seat on turn while play goes on (a bot's or a person's); none between rounds or during a
    pause."""
    s = game.state
    return s.turn if s.phase == PLAY and s.paused_by < 0 else None


def bot_to_move(game: MaoGame) -> int | None:
    """The seat the server moves now (a bot's, or a forfeited seat's), if any: none between rounds,
    during a pause, or at a human's turn."""
    seat = seat_to_move(game)
    return seat if seat is not None and game.is_bot(seat) else None


def bot_turn(game: MaoGame, rng: random.Random) -> None:
    """The turn of the seat ``bot_to_move`` names: its play or draw, the calls after an accepted
    play, and the recycles these need. The bot learns from the public log so far, read afresh."""
    seat = bot_to_move(game)
    if seat is None:
        raise RuleError("not_your_turn", why="turn")
    bot = StandIn() if seat in game.forfeited else BOTS[game.seats[seat]](rng)
    for entry in redact_all(game.facts, PUBLIC):
        bot.observe(entry)
    command = bot.choose(player_view(game.state, seat))
    events = game.do(command, BOT_BY)
    settle_chance(game, rng)
    if isinstance(command, PlayCard) and any(isinstance(e, CardPlayed) for e in events):
        for words in calls_after(command.card, player_view(game.state, seat)):
            window = game.state.window
            if window is None or window.seat != seat:
                break  # the round ended
            game.do(Say(seat, words), BOT_BY)
            settle_chance(game, rng)
