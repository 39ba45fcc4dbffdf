"""What the server does at a stored Mao table after every command: chance and the bots.

When the stock must be recycled it shuffles the discards; while a bot's seat is on turn
(and nobody paused) it plays that bot (or a forfeited seat's stand-in, ``bots.StandIn``), as
``table.Table`` does in tests: the bot sees its ``PlayerView`` and the public log only, and after
an accepted play says the base calls.
It stops at a human's turn, between rounds (the judge deals) and at the match's end.
"""

import random
from collections.abc import Callable

from service.domain.errors import RuleError
from service.domain.mao.aggregate import BOT_PREFIX, SERVER_BY, MaoGame
from service.domain.mao.bots import Bot, RandomBot, StandIn, calls_after
from service.domain.mao.commands import Command, PlayCard, RecycleStock, Say
from service.domain.mao.events import CardPlayed, Event
from service.domain.mao.learning import LearningBot
from service.domain.mao.redaction import PUBLIC, redact, redact_all
from service.domain.mao.state import PLAY, RECYCLE
from service.domain.mao.views import player_view

BOTS: dict[str, Callable[[random.Random], Bot]] = {
    f"{BOT_PREFIX}learning": LearningBot,
    f"{BOT_PREFIX}random": RandomBot,
}
# a table of bots alone plays a whole round in one go; this bounds one command's work
MAX_ACTS = 2_000


def check_bot(name: str) -> None:
    if name not in BOTS:
        raise RuleError("unknown_bot", why="no_bot_bots", name=name, bots=", ".join(BOTS))


class _Bots:
    """The table's bots, each having watched the public log so far."""

    def __init__(self, game: MaoGame, rng: random.Random) -> None:
        self.bots: dict[int, Bot] = {
            seat: StandIn() if seat in game.forfeited else BOTS[name](rng)
            for seat, name in enumerate(game.seats)
            if game.is_bot(seat)
        }
        for entry in redact_all(game.facts, PUBLIC):
            self.observe(entry)

    def observe(self, entry: dict) -> None:
        for bot in self.bots.values():
            bot.observe(entry)


def settle(game: MaoGame, rng: random.Random) -> None:
    """Recycle and move bots until a human, the judge or nobody is to act."""
    bots: _Bots | None = None
    for _ in range(MAX_ACTS):
        s = game.state
        if s.phase == RECYCLE:
            _recycle(game, rng, bots)
        elif s.phase == PLAY and s.paused_by < 0 and game.is_bot(s.turn):
            bots = bots or _Bots(game, rng)
            seat = s.turn
            command = bots.bots[seat].choose(player_view(s, seat))
            events = _do(game, command, bots)
            if isinstance(command, PlayCard) and any(isinstance(e, CardPlayed) for e in events):
                for words in calls_after(command.card, player_view(game.state, seat)):
                    if game.state.phase == RECYCLE:  # the play settled a penalty of the seat before
                        _recycle(game, rng, bots)
                    window = game.state.window
                    if window is None or window.seat != seat:
                        break  # the round ended
                    _do(game, Say(seat, words), bots)
        else:
            return


def _recycle(game: MaoGame, rng: random.Random, bots: _Bots | None) -> None:
    order = game.state.discard[:-1]
    rng.shuffle(order)
    _do(game, RecycleStock(tuple(order)), bots)


def _do(game: MaoGame, command: Command, bots: _Bots | None) -> list[Event]:
    before = game.state.copy()
    events = game.do(command, SERVER_BY)
    if bots is not None:
        for event in events:
            bots.observe(redact(event, PUBLIC, before))
            event.apply(before)
    return events
