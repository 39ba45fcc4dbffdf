"""The workers' steps run in this process, without a broker: for the benchmark's straight-through
run and for tests of the steps themselves.

Queued steps run in the order they fall due, without waiting for their
countdowns (a turn clock "runs out" as soon as nothing else is left to do), so
a whole tournament plays out as fast as the application allows.
"""

import heapq
import itertools
from collections.abc import Callable
from typing import Any
from uuid import UUID

from workers.conduct import Conductor


class Inline:
    """A ``Dispatch`` that keeps the queued steps in memory; ``run`` works them off."""

    def __init__(self) -> None:
        self.queue: list[tuple[float, int, str, tuple[Any, ...]]] = []
        self.done: list[tuple[str, tuple[Any, ...]]] = []  # every step run, in order
        self._clock = 0.0  # the virtual time: the due time of the step running
        self._order = itertools.count()

    def conduct_tournament(self, tournament_id: UUID) -> None:
        self._push(0.0, "conduct_tournament", (tournament_id,))

    def advance_game(self, game_id: UUID, countdown: float = 0.0) -> None:
        self._push(countdown, "advance_game", (game_id,))

    def time_out_turn(self, game_id: UUID, seat: int, version: int, countdown: float) -> None:
        self._push(countdown, "time_out_turn", (game_id, seat, version))

    def deliver_webhook(self, delivery_id: UUID, countdown: float = 0.0) -> None:
        self._push(countdown, "deliver_webhook", (delivery_id,))

    def queued(self, step: str) -> list[tuple[Any, ...]]:
        """The arguments of the queued steps named ``step``, in due order."""
        return [args for _, _, name, args in sorted(self.queue) if name == step]

    def run(
        self, conductor: Conductor, until: Callable[[], bool] | None = None, limit: int = 1_000_000
    ) -> int:
        """Run queued steps in due order until none is left (or ``until()`` holds); how many ran."""
        ran = 0
        while self.queue and not (until is not None and until()):
            if ran >= limit:
                raise RuntimeError(f"still {len(self.queue)} steps queued after {limit}")
            self._clock, _, name, args = heapq.heappop(self.queue)
            self.done.append((name, args))
            getattr(conductor, name)(*args)
            ran += 1
        return ran

    def _push(self, countdown: float, name: str, args: tuple[Any, ...]) -> None:
        heapq.heappush(self.queue, (self._clock + countdown, next(self._order), name, args))
