"""Games of any preset played through the aggregate, their events taken back from storage one by one.

Each stored event goes through the store's mapper (``MsgspecMapper``) and back, and is folded into
a replica the way the read models fold a game (``Tracked.apply``): what the replay and the secrecy
properties look at, event by event. Shared by ``test_stored_replay_properties.py`` and
``test_secrecy_properties.py``.
"""

import random
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from service.domain.game import Game
from service.domain.history import Cause
from service.domain.roles import SYSTEM
from service.domain.rulesets import Ruleset
from service.domain.seats import Seat
from service.persistence.mapper import MsgspecMapper
from service.projections.fold import Tracked
from tests.gameplay import SAME_ENTROPY, next_command
from tests.properties.invariants import preset_tables

# A stored game is followed for at most this many commands: enough for several rounds, and the
# properties hold at every event, so a match cut short proves as much as one played out.
MOST_COMMANDS = 1_500


@dataclass
class Step:
    """One stored event, as read back, and the replica right after it."""

    event: Any
    hands_before: list[int]  # each seat's hand just before the event (empty before the first deal)
    replica: Tracked
    live: Game | None  # the game as played, when the event is the last of its command


def stored_steps(rules: Ruleset, seats: int, seed: int, challenge_rate: float) -> Iterator[Step]:
    """Random legal play of a new game, every stored event read back and folded in turn."""
    game = Game.create(
        ruleset=rules,
        seats=tuple(Seat("player", str(uuid.UUID(int=seat + 1))) for seat in range(seats)),
        seed=f"stored {seed}",
        cause=Cause(SYSTEM, "CreateGame"),
        entropy=SAME_ENTROPY,
    )
    mapper = MsgspecMapper()
    rng = random.Random(seed)
    replica: Tracked | None = None
    for _ in range(MOST_COMMANDS):
        pending = game.collect_events()
        for index, event in enumerate(pending):
            back = mapper.to_domain_event(mapper.to_stored_event(event))
            if replica is None:
                before: list[int] = []
                replica = Tracked.created(back, 0)
            else:
                before = list(replica.game.state.hands)
                replica.apply(back)
            yield Step(back, before, replica, game if index == len(pending) - 1 else None)
        if game.over:
            return
        command = next_command(game.state, rng, challenge_rate)
        game.execute(command, Cause(SYSTEM, "Move", key=f"k{game.version}"))


def stored_tables(name: str) -> st.SearchStrategy[tuple[Ruleset, int]]:
    """The stored games of preset ``name`` hypothesis chooses: its table, whole matches or single rounds."""
    return st.booleans().flatmap(lambda single: preset_tables(name, single_round=single))


challenge_rates = st.sampled_from((0.0, 0.3, 0.8))
