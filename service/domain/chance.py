"""Chance, outside the engine: a seeded shuffler answers the engine's chance nodes.

The engine never draws a random number. When a match starts, a round is due
or the stock must be recycled, the shuffler turns its seed into the data the
engine records (the first dealer, the deck order, the new stock order). When
a void reopens a round whose orders are public, it shuffles the hidden cards
anew (``hidden_reshuffle``).
"""

import random
from collections.abc import Sequence
from math import floor

from service.domain.cards import cards_in
from service.domain.commands import Command, DealRound, RecycleStock, StartMatch
from service.domain.events import HiddenCardsReshuffled
from service.domain.legal import recyclable
from service.domain.rulesets import Ruleset
from service.domain.state import DEAL, DRAWN, RECYCLE, State


class Shuffler:
    def __init__(self, seed: int | str | bytes) -> None:
        self._rng = random.Random(seed)

    def start(self, rules: Ruleset, seats: int) -> StartMatch:
        return StartMatch(rules, seats, self._rng.randrange(seats))

    def outcome(self, s: State) -> Command:
        """The command that settles the chance node ``s`` is waiting on."""
        if s.phase == DEAL:
            return DealRound(self._shuffled(s.book.deck))
        if s.phase == RECYCLE:
            return RecycleStock(self._shuffled(recyclable(s)))
        raise ValueError("the state is not waiting on chance")

    def hidden_reshuffle(self, s: State) -> HiddenCardsReshuffled:
        """Every hand and the stock gathered and shuffled, to be dealt back to the same counts."""
        kept = 1 << s.drawn if s.phase == DRAWN and s.drawn >= 0 else 0
        gathered: list[int] = []
        counts = []
        for hand in s.hands:
            cards = list(cards_in(hand & ~kept))
            gathered += cards
            counts.append(len(cards))
        gathered += reversed(s.stock)
        return HiddenCardsReshuffled(self._shuffled(gathered), tuple(counts))

    def _shuffled(self, cards: Sequence[int]) -> tuple[int, ...]:
        # Fisher-Yates on random() floats: twice as fast as random.shuffle's randbelow(),
        # and a 53-bit float's bias over at most CARD_COUNT (108) slots is far below anything observable.
        pool = list(cards)
        random = self._rng.random
        for i, slots in _SWAPS.get(len(pool)) or _swaps(len(pool)):
            j = floor(random() * slots)
            pool[i], pool[j] = pool[j], pool[i]
        return tuple(pool)


# By pool size n: each place i from the last down to 1, with the i + 1 slots it picks
# among as a float (random() * a float is what random() * (i + 1) computes).
_SWAPS: dict[int, tuple[tuple[int, float], ...]] = {}


def _swaps(n: int) -> tuple[tuple[int, float], ...]:
    swaps = _SWAPS[n] = tuple((i, float(i + 1)) for i in range(n - 1, 0, -1))
    return swaps
