"""A whole match of bots on an engine table, each bot choosing for its own seat."""

import random
from collections.abc import Callable, Sequence

from service.domain.bots import Bot
from service.domain.rulesets import Ruleset
from service.domain.state import NAMING_SUIT
from service.domain.table import Table


def played_out(table: Table, bots: Sequence[Bot]) -> Table:
    """``table`` played to its end by ``bots``, one a seat (a refused command raises)."""
    table.settle_chance()
    while not table.over:
        s = table.state
        seat = s.dealer if s.phase == NAMING_SUIT else s.turn
        table.execute(bots[seat].choose(s, seat))
        table.settle_chance()
    return table


def bot_match(rules: Ruleset, bot: Callable[..., Bot], seed: int) -> Table:
    """Three bots of one kind, a little forgetful, through a match of ``rules``."""
    rng = random.Random(seed)
    return played_out(Table(rules, 3, seed), [bot(rng, forgetfulness=0.1) for _ in range(3)])
