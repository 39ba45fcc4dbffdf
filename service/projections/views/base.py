"""What a view is: its tables, statements and queries (a ``View``), and its fold (a ``Fold``).

A view module gives one ``View``: its ``CREATE`` statements and named statements for a store's
``Dialect``, and its ``Fold``, which names the tables it keeps (rebuilt by ``maumau projections
rebuild``) and the statements a batch writes its rows with (in the order they are written). Its
queries are a mixin of ``Store`` that the read models' store (``store.Views``) inherits.

A ``Fold`` reads the event types in its ``reads`` (a dict from event class to the method that
folds it; the most specific class an event is an instance of wins, and ``None`` there means the
view does not read it), puts the rows it changes into the batch's ``Changes``, and writes what it
keeps in memory at ``flush``. The projection composes the folds of every registered view
(``Folds``), dispatches each event to the folds that read its type and guards each: a fold that
fails on an event makes its part stale (``parts``), and the others go on.
"""

import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar
from uuid import UUID

import msgspec
import psycopg
from eventsourcing.persistence import PersistenceError

from service.persistence.dialect import Dialect
from service.projections.parts import FED_BY

if TYPE_CHECKING:
    from service.projections.store import Views

APPLICATION = "maumau"  # the application whose log the read models follow (the tracking record's name)

log = logging.getLogger(__name__)

# a store's failure is no fault of the event folded: it stops the batch, it makes no view stale
STORE_ERRORS = (PersistenceError, psycopg.Error, sqlite3.Error)

Row = tuple[Any, ...]
# a fold's event types, each with the method that folds it (``object``: every other type, first)
Reads = dict[type, Callable[..., None]]
# reads a Mao match back from the event store at a version (``source.Source.mao_match``)
MatchAt = Callable[[UUID, int], Any]


class Changes(msgspec.Struct, kw_only=True):
    """One batch: the rows to write, by the name of the statement that writes them (in the order of
    the views' ``writes``), and the last position folded."""

    position: int = 0
    # whether every change in the batch is whole: it ends at the log's end or where the next event
    # begins a change (``Runner.catch_up``); not so only up to a position an older runner wrote,
    # where a change open goes on in the next batch
    whole: bool = True
    rows: dict[str, list[Row]] = msgspec.field(default_factory=dict)
    # players erased: their names leave the stored deliveries after this batch's are in
    erased: list[UUID] = msgspec.field(default_factory=list)

    def to(self, statement: str) -> list[Row]:
        """The rows ``statement`` writes, to add to."""
        rows = self.rows.get(statement)
        if rows is None:
            rows = self.rows[statement] = []
        return rows


class StaleView(msgspec.Struct, frozen=True, kw_only=True):
    """A part that could not fold an event: from ``position`` on its rows are not kept up to date."""

    view: str
    position: int  # the event it could not fold
    reason: str  # names only types (the event's, the error's) and ids: /ready shows it
    since: float  # Unix time


class Store:
    """What a view's queries ask of the store they are mixed into (``store.Views`` runs them)."""

    statements: dict[str, str]
    _table: Callable[[str], str]  # a table's qualified name
    _ph: str  # the placeholder

    def query(self, name: str, params: Sequence[Any], suffix: str = "") -> list[Row]:
        raise NotImplementedError

    def select(self, sql: str, params: Sequence[Any]) -> list[Row]:
        """Run a query made here (the lists' queries depend on which filters are given)."""
        raise NotImplementedError

    def execute(self, name: str, params: Sequence[Any]) -> None:
        """Run one writing statement in a transaction of its own."""
        raise NotImplementedError

    def execute_all(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Run writing statements in one transaction."""
        raise NotImplementedError

    def change(self, name: str, params: Sequence[Any]) -> list[Row]:
        """Run one writing statement with a RETURNING clause in a transaction of its own: its rows."""
        raise NotImplementedError

    def position(self) -> int:
        return self.query("position", (APPLICATION,))[0][0] or 0

    def keyset_page(
        self,
        columns: str,
        table: str,
        order: tuple[str, str],
        filters: Sequence[tuple[str, Sequence[Any]]],
        after: tuple[Any, UUID] | None,
        limit: int,
    ) -> list[Row]:
        """A page of a list: ``columns`` of the rows of ``table`` that pass every filter (a condition
        and its parameters), ordered by ``order`` (a key, then the id that breaks its ties), the
        first ``limit`` after the (key, id) ``after``."""
        ph = self._ph
        key = ", ".join(order)
        if after is not None:
            filters = [*filters, (f"({key}) > ({ph}, {ph})", after)]
        sql = (
            f"SELECT {columns} FROM {self._table(table)}{where([c for c, _ in filters])} "
            f"ORDER BY {key} LIMIT {ph}"
        )
        return self.select(sql, [*(p for _, params in filters for p in params), limit])

    def newest_page(
        self,
        columns: str,
        table: str,
        league_id: UUID | None,
        status: str | None,
        after: int | None,
        limit: int,
    ) -> list[Row]:
        """A page of a list by ``created`` (a log position), newest first: ``columns`` of the rows of
        ``table`` of that league and status (None: any), the first ``limit`` created before ``after``."""
        ph = self._ph
        conditions: list[str] = []
        params: list[Any] = []
        for column, value in (("league_id", league_id), ("status", status), ("created", after)):
            if value is not None:
                conditions.append(f"{column} {'<' if column == 'created' else '='} {ph}")
                params.append(value)
        sql = (
            f"SELECT {columns} FROM {self._table(table)}{where(conditions)} ORDER BY created DESC LIMIT {ph}"
        )
        return self.select(sql, [*params, limit])

    def _in(self, count: int) -> str:
        raise NotImplementedError


class Fold:
    """One view's fold of the log: see the module's docstring."""

    part: ClassVar[str | None]  # the part it goes stale with (``parts``); None: it never does
    tables: ClassVar[tuple[str, ...]]  # short names (``views_<name>``) of the tables a rebuild replaces
    writes: ClassVar[tuple[str, ...]]  # the statements a batch's rows are written with, in that order
    # PostgreSQL: statements whose rows are written as one array per column (``unnest``)
    columnar: ClassVar[frozenset[str]] = frozenset()
    reads: ClassVar[Reads]
    # False: the fold makes nothing from events in this store (the notices in a rebuild's), and
    # reads none
    active = True

    def __init__(self, folds: "Folds") -> None:
        self.folds = folds

    def begin(self, batch: Sequence[tuple[Any, int]]) -> None:
        """The batch about to be folded (to read back at once what its events need of the store)."""

    def flush(self, changes: Changes) -> None:
        """Put the rows of what is kept in memory and changed into ``changes``, before they are written."""

    def written(self) -> None:
        """The batch is stored: let go of what memory need not keep."""

    def spoil(self, event: Any) -> None:
        """Folding ``event`` failed half way: forget what is in memory of what it is about."""


F = TypeVar("F", bound=Fold)


@dataclass(frozen=True, kw_only=True)
class View:
    """A view's tables and statements (see the module's docstring): its fold says which tables and
    statements are its own."""

    name: str
    create: Callable[[Dialect], list[str]]  # CREATE TABLE and CREATE INDEX, IF NOT EXISTS
    statements: Callable[[Dialect], dict[str, str]]
    fold: type[Fold]

    @property
    def tables(self) -> tuple[str, ...]:
        return self.fold.tables

    @property
    def writes(self) -> tuple[str, ...]:
        return self.fold.writes

    @property
    def columnar(self) -> frozenset[str]:
        return self.fold.columnar


class Folds:
    """Every view's fold, in the registry's order, over one store; and which parts are stale."""

    def __init__(self, store: "Views", match_at: MatchAt | None, folds: Iterable[type[Fold]]) -> None:
        self.store = store
        self.match_at = match_at
        self.changes = Changes(position=store.max_tracking_id(APPLICATION) or 0)
        self.stale = {found.view: found for found in store.stale_views()}
        self.all: list[Fold] = []
        for kind in folds:
            self.all.append(kind(self))  # a fold may look up those made before it (``of``)

    def of(self, kind: type[F]) -> F:
        """The fold of this kind."""
        for fold in self.all:
            if isinstance(fold, kind):
                return fold
        raise LookupError(kind.__name__)

    def handlers(self, event_type: type) -> list[tuple[str | None, Fold, Callable[[Any, int], None]]]:
        """The folds that read this event type, in order: (part, fold, its method bound to it).

        A fold's ``object`` entry reads every event its other entries do not name, before any fold
        folds it (an open change to a game is whole then: ``changes``)."""
        first: list[tuple[str | None, Fold, Callable[[Any, int], None]]] = []
        found: list[tuple[str | None, Fold, Callable[[Any, int], None]]] = []
        for fold in self.all:
            if not fold.active:
                continue
            for kind in event_type.__mro__:
                if kind in fold.reads:
                    # bound by name: a subclass that overrides the method is obeyed
                    method = getattr(fold, fold.reads[kind].__name__)
                    (first if kind is object else found).append((fold.part, fold, method))
                    break
        return first + found

    def spoil(self, part: str, event: Any, position: int, error: Exception) -> None:
        """``part``, and the parts fed by it, are stale from the event at ``position`` on."""
        what = f"event {position} ({type(event).__qualname__} of {getattr(event, 'originator_id', None)})"
        self.stale_from(part, position, f"{what} could not be folded ({type(error).__name__})", error)

    def stale_from(self, part: str, position: int, reason: str, error: Exception) -> None:
        now = time.time()
        for name in (part, *FED_BY[part]):
            if name in self.stale:
                continue
            said = reason if name == part else f"fed by {part}, which is stale: {reason}"
            self.stale[name] = StaleView(view=name, position=position, reason=said, since=now)
            self.changes.to("stale").append((name, position, said, now))
        log.error(
            "read models: %s is stale from position %s: %s",
            part,
            position,
            reason,
            exc_info=error,
            extra={"projection": "views", "view": part, "position": position},
        )


def as_uuid(value: Any) -> UUID:
    return value if isinstance(value, UUID) else UUID(str(value))


def where(conditions: list[str]) -> str:
    return " WHERE " + " AND ".join(conditions) if conditions else ""


class ReadBackFailed(Exception):
    """What a fold read back from the store could not be restored: the store's trouble, not the
    event's, so no part goes stale; the batch stops (``projection.FoldFailed``, the cause chained)."""


class ProjectionError(Exception):
    """The log and the store disagree (an event for a game or tournament the store does not know)."""


def tracked_position(d: Dialect) -> str:
    """A subquery of the position the read models applied (its parameter: ``APPLICATION``), read in
    the statement that reads the rows, so the rows are at least that new."""
    return f"(SELECT notification_id FROM {d.tracking} WHERE application_name = {d.ph})"
