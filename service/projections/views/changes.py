"""The turns a change to a game leaves, judged over the change folded whole.

A change is saved as several events (a card game's move: its facts, then the chance they lead to; a
Mao bot's turn: its play, then each call it says). A seat the turn passes through on the way (the
next seat, when the last card of a hand ends the round in the same change) never gets it, so nobody
is told of it. A store commits a change's events together, one after the other in the log, so a
change is whole as soon as the log goes on with anything else: the next change of its game, another
aggregate's event (a fold's ``passing``: before any fold folds that event, so a webhook registered or
a player dropping out after the change is no part of its judgement) or the log's end. A runner
writes only where a change ends (``Runner.catch_up`` asks ``ends_with`` of the next event), so a
change never spans a restart.
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


class Follows:
    """A fold that follows its games' changes (``_changing``): what the folds that read the turns
    call, and its ``object`` entry (``passing``)."""

    _changing: "Changing[Any]"

    def listen(self, who: str, on: bool) -> None:
        """Whether ``who`` reads the turns from now on (``Changing.listen``)."""
        self._changing.listen(who, on)

    def turns(self, position: int | None) -> list[TurnSettled]:
        """The turns of the changes found whole at the event at ``position``, or at the flush (None)."""
        return self._changing.turns(position)

    def passing(self, event: Any, position: int) -> None:
        self._changing.passing(position)

    def ends_with(self, event: Any) -> bool:
        """Whether the open change is whole if ``event`` comes next (``Changing.ends_with``)."""
        return self._changing.ends_with(event)


class Changing(Generic[K]):
    """The open change of a fold's games (a change's events come one after the other: one is open at
    a time), and the turns of those found whole at each event (``turns``)."""

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
        self._settled: list[TurnSettled] = []
        self._at: int | None = None  # the position of the event the settled turns were found at
        # who reads the turns (``listen``): with nobody (a rebuild, no hook taking turns) no change is
        # followed, a sixth of a rebuild's time
        self._listeners: set[str] = set()

    def listen(self, who: str, on: bool) -> None:
        """Whether ``who`` reads the turns from now on. Only at another aggregate's event (a hook's)
        or before the first: no change is half way through then."""
        if on:
            self._listeners.add(who)
        else:
            self._listeners.discard(who)

    def turns(self, position: int | None) -> list[TurnSettled]:
        """The turns of the changes found whole at the event at ``position`` (None: at the flush)."""
        return self._settled if self._at == position else []

    def fold(self, key: Hashable, kept: K, event: Any, position: int) -> None:
        """Before ``event`` is applied to ``kept.game``: it begins a change (the open one is whole) or
        goes on with the open one."""
        if not self._listeners:
            return
        change = self._open.pop(key, None)
        if self._open:  # another game's change: the log went on with this one
            self._settle_all(position)
        if change is not None and self._starts(event, change.event):
            self._settle(change, position)
            change = None
        if change is None:
            self._open[key] = _Open(kept, self._turn_of(kept.game), event, position)
        else:  # (the game may have been read back since: folded on in another object)
            change.kept, change.event, change.position = kept, event, position
            self._open[key] = change

    def created(self, key: Hashable, kept: K, event: Any, position: int) -> None:
        """A new game: its first change begins with nobody to move."""
        if not self._listeners:
            return
        if self._open:
            self._settle_all(position)
        self._open[key] = _Open(kept, None, event, position)

    def ends_with(self, event: Any) -> bool:
        """Whether the open change is whole if ``event`` comes next in the log, before it is folded:
        it is another aggregate's, or it begins a change of the same game."""
        for change in self._open.values():
            last = change.event
            if event.originator_id == last.originator_id and not self._starts(event, last):
                return False
        return True

    def passing(self, position: int) -> None:
        """Another aggregate's event, before any fold folds it: the open change is whole."""
        if self._open:
            self._settle_all(position)

    def flush(self, whole: bool) -> None:
        """The batch ends: where a change ends (``whole``: the log's end, or the next event begins
        one) every open change is whole; else (up to a position an older runner wrote in the middle
        of a change) the open one goes on in the next batch."""
        self._settled, self._at = [], None
        if whole:
            self._settle_all(None)

    def forget(self, key: Hashable) -> None:
        """Folding the game's event failed half way: its change is not known."""
        self._open.pop(key, None)

    def written(self) -> None:
        self._settled, self._at = [], None

    def _settle_all(self, position: int | None) -> None:
        for change in self._open.values():
            self._settle(change, position)
        self._open = {}

    def _settle(self, change: _Open[K], position: int | None) -> None:
        game = change.kept.game
        now = self._turn_of(game)
        if now is not None and now != change.before and self._tells(game, now):
            if self._at != position:  # the first turn found at this event
                self._settled, self._at = [], position
            self._settled.append(TurnSettled(game, now, change.event, change.position))
