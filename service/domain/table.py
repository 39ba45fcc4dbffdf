"""A match in memory: the state, every event so far, and chance from a seed.

Bots, the simulator, tests and benchmarks drive matches through this; the
event store (later) keeps the same events.
"""

from service.domain.chance import Shuffler
from service.domain.commands import Command
from service.domain.engine import decide
from service.domain.events import Event
from service.domain.legal import is_chance
from service.domain.rulesets import Ruleset
from service.domain.state import OVER, State


class Table:
    def __init__(self, rules: Ruleset, seats: int, seed: int | str) -> None:
        self.state = State()
        self.events: list[Event] = []
        self.shuffler = Shuffler(seed)
        self.execute(self.shuffler.start(rules, seats))

    def execute(self, command: Command) -> list[Event]:
        """Decide and apply one command; a refused command changes nothing."""
        events = decide(self.state, command)
        for event in events:
            event.apply(self.state)
        self.events += events
        return events

    def settle_chance(self) -> None:
        while is_chance(self.state):
            self.execute(self.shuffler.outcome(self.state))

    @property
    def over(self) -> bool:
        return self.state.phase == OVER
