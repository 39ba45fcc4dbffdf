"""The turns a change to a game leaves, judged over the change folded whole.

A change is saved as several events (a card game's move: its facts, then the chance they lead to; a
Mao bot's turn: its play, then each call it says). A seat the turn passes through on the way (the
next seat, when the last card of a hand ends the round in the same change) never gets it, so nobody
is told of it. A fold keeps its games' open changes here, telling with each event whether it begins
a change; a change is whole when the next change of its game begins or the batch ends (a batch ends
at the log's end, and a store commits a change's events at once; only a long catch-up writes in the
middle of the log, whose notices are old).
"""

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, Protocol, TypeVar


class TurnSettled(NamedTuple):
    """A change to a game, folded whole, that left a person to move who was not to move before it."""

    game: Any  # read for what never changes (its id, league, seats): it folds on meanwhile
    seat: int
    event: Any  # the change's last event
    position: int


class Kept(Protocol):
    """What a fold keeps of a game: the game as folded so far."""

    game: Any


K = TypeVar("K", bound=Kept)


@dataclass(slots=True)
class _Open(Generic[K]):
    kept: K
    before: int | None  # the seat to move before the change
    event: Any  # its last event so far
    position: int


class Changing(Generic[K]):
    """The open changes of a fold's games, by key, and the turns of those found whole (``settled``:
    what folding the last event, or the flush, found; the consumers read it then)."""

    def __init__(
        self,
        starts: Callable[[Any, Any], bool],
        turn_of: Callable[[Any], int | None],
        tells: Callable[[Any, int], bool],
    ) -> None:
        self._starts = starts  # whether an event begins a change, given the game's event before it
        self._turn_of = turn_of  # the seat to move in a game, if one is
        self._tells = tells  # whether the person at that seat hears of their turn
        self._open: dict[Hashable, _Open[K]] = {}
        self.settled: list[TurnSettled] = []

    def fold(self, key: Hashable, kept: K, event: Any, position: int) -> None:
        """Before ``event`` is applied to ``kept.game``: it begins a change (the open one is whole) or
        goes on with the open one."""
        self.settled = []
        change = self._open.get(key)
        if change is not None and self._starts(event, change.event):
            self._settle(change)
            change = None
        if change is None:
            self._open[key] = _Open(kept, self._turn_of(kept.game), event, position)
        else:
            change.event, change.position = event, position

    def created(self, key: Hashable, kept: K, event: Any, position: int) -> None:
        """A new game: its first change begins with nobody to move."""
        self.settled = []
        self._open[key] = _Open(kept, None, event, position)

    def settle_all(self) -> None:
        """The batch ends: every open change is whole."""
        self.settled = []
        for change in self._open.values():
            self._settle(change)
        self._open = {}

    def forget(self, key: Hashable) -> None:
        """Folding the game's event failed half way: its change is not known."""
        self._open.pop(key, None)

    def written(self) -> None:
        self.settled = []

    def _settle(self, change: _Open[K]) -> None:
        game = change.kept.game
        now = self._turn_of(game)
        if now is not None and now != change.before and self._tells(game, now):
            self.settled.append(TurnSettled(game, now, change.event, change.position))
