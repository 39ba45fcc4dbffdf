"""The projection: the application's stored events, folded in memory by every view, written in batches.

``ViewsProjection`` is an eventsourcing ``Projection`` over a ``Views`` store, fed in batches by the
runner, never one event at a time (``process_event``, eventsourcing's way, refuses): ``apply`` folds
many events in memory, ``flush`` writes every row they changed and the last position in one
transaction. A game moved fifty times in a batch is drawn and written once.

The views are composed from the registry (``views.VIEWS``): each event goes to the folds of the
views that read its type (``Folds.handlers``, looked up once per type), in the registry's order.
Each fold is guarded: one that fails on an event makes its part stale (``parts``; its rows stay as
they were) and the others go on. A store that fails is no fault of the event: that stops the batch.

If a write fails, what is in memory may be ahead of the store: ``reset`` forgets it, and the runner
starts again from the store's tracking position (each game's or tournament's state is read back from
its row when next needed).
"""

from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

from service.projections.store import NAME, Views
from service.projections.views import VIEWS
from service.projections.views.base import (
    APPLICATION,
    STORE_ERRORS,
    Changes,
    Fold,
    Folds,
    MatchAt,
    ReadBackFailed,
    StaleView,
    View,
)
from service.projections.views.changes import Follows

Handlers = list[tuple[str | None, Fold, Callable[[Any, int], None]]]


class FoldFailed(Exception):
    """An event of the log could not be folded: its position, type and originator (the cause chained)."""

    def __init__(self, position: int, event: Any, cause: Exception) -> None:
        self.position = position
        self.event_type = type(event).__qualname__
        self.originator_id: UUID | None = getattr(event, "originator_id", None)
        self.cause = type(cause).__name__
        super().__init__(
            f"event {position} ({self.event_type} of {self.originator_id}) could not be folded: "
            f"{self.cause}: {cause}"
        )


class ViewsProjection(Projection[Views]):
    name = NAME

    def __init__(self, view: Views, match_at: MatchAt | None = None, views: Sequence[View] = VIEWS) -> None:
        """``views``: the registry the folds are composed from (a test may swap one)."""
        super().__init__(view)
        self._match_at = match_at
        self._views = views
        self.position = 0  # the last position written
        self.reset()

    def reset(self) -> None:
        """Forget everything not written, and everything in memory; take the store's position again."""
        self.folds = Folds(self.view, self._match_at, (view.fold for view in self._views))
        self.position = self.folds.changes.position
        self._handlers: dict[type, Handlers] = {}
        self._follows = [fold for fold in self.folds.all if isinstance(fold, Follows)]

    @property
    def stale(self) -> dict[str, StaleView]:
        """The parts that stopped at an event, by name."""
        return self.folds.stale

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        """eventsourcing's feed, one event and one write at a time, is not this projection's: a write
        must end a change, and one event cannot tell whether the next goes on with its change (the
        turns a move leaves would be judged half way). ``Runner.catch_up`` feeds it."""
        raise NotImplementedError("the read models are fed in batches by Runner.catch_up")

    @property
    def applied(self) -> int:
        """The position of the last event folded into memory (written or not)."""
        return self.folds.changes.position

    def ends_changes(self, event: Any) -> bool:
        """Whether every change folded so far is whole if ``event`` comes next in the log (where a
        catch-up may write: ``Runner.catch_up``)."""
        stale = self.folds.stale
        return all(fold.ends_with(event) for fold in self._follows if fold.part not in stale)

    @property
    def pending(self) -> bool:
        """Events applied in memory and not written yet."""
        return self.folds.changes.position > self.position

    def apply(self, batch: list[tuple[Any, int]]) -> None:
        """Fold these (event, position) pairs, in log order, into memory.

        Raises ``FoldFailed`` naming the first event not folded (memory is then partly ahead of
        the store: ``reset``).
        """
        folds = self.folds
        try:
            for fold in folds.all:
                fold.begin(batch)
            self._fold(batch)
        except STORE_ERRORS:
            raise  # reading back failed: the store's trouble, not the event's
        except Exception as error:
            # the fold moves the position past each event it folded: the first one beyond it failed
            applied = folds.changes.position
            event, position = next((entry for entry in batch if entry[1] > applied), batch[-1])
            cause = error.__cause__ if isinstance(error, ReadBackFailed) else error
            raise FoldFailed(position, event, cause if isinstance(cause, Exception) else error) from error

    def _fold(self, batch: list[tuple[Any, int]]) -> None:
        folds, known = self.folds, self._handlers
        changes, stale = folds.changes, folds.stale
        for event, position in batch:
            handlers = known.get(type(event))
            if handlers is None:
                handlers = known[type(event)] = folds.handlers(type(event))
            for part, fold, handler in handlers:
                if part in stale:  # (None, a part never stale, is no key)
                    continue
                try:
                    handler(event, position)
                except (*STORE_ERRORS, ReadBackFailed):
                    raise
                except Exception as error:
                    if part is None:
                        raise
                    fold.spoil(event)
                    folds.spoil(part, event, position, error)
            changes.position = position

    def flush(self, whole: bool = True) -> int:
        """Write what the applied events changed, with their last position; the position written.
        ``whole``: every change folded is whole (see ``Changes.whole``)."""
        folds = self.folds
        changes = folds.changes
        changes.whole = whole
        if changes.position <= self.position:
            return self.position
        for fold in folds.all:
            fold.flush(changes)
        self.view.write(changes, Tracking(APPLICATION, changes.position))
        self.position = changes.position
        for fold in folds.all:
            fold.written()
        folds.changes = Changes(position=self.position)
        return self.position
