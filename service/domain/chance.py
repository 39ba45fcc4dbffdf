"""Chance, outside the engine: a seeded shuffler answers the engine's chance nodes.

The engine never draws a random number. When a match starts, a round is due
or the stock must be recycled, the shuffler turns its seed into the data the
engine records (the first dealer, the deck order, the new stock order).
"""

import random

from service.domain.commands import Command, DealRound, RecycleStock, StartMatch
from service.domain.engine import recyclable
from service.domain.rulesets import Ruleset
from service.domain.state import DEAL, RECYCLE, State


class Shuffler:
    def __init__(self, seed: int | str | bytes) -> None:
        self._rng = random.Random(seed)

    def start(self, rules: Ruleset, seats: int) -> StartMatch:
        return StartMatch(rules, seats, self._rng.randrange(seats))

    def outcome(self, s: State) -> Command:
        """The command that settles the chance node ``s`` is waiting on."""
        if s.phase == DEAL:
            deck = list(s.book.deck)
            self._rng.shuffle(deck)
            return DealRound(tuple(deck))
        if s.phase == RECYCLE:
            order = recyclable(s)
            self._rng.shuffle(order)
            return RecycleStock(tuple(order))
        raise ValueError("the state is not waiting on chance")
