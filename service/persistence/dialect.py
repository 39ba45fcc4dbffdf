"""How the read models' store spells its SQL: what each module that keeps tables there builds its
statements from.

One store holds the read models (``service.projections.views``) and a few tables that are no read
model (``notes``, ``sessions``, ``runner_failures``): on PostgreSQL in ``MAUMAU_DATABASE_SCHEMA``,
on SQLite in a file of their own. Each module gives its ``CREATE`` statements and its queries for a
``Dialect``; only the placeholder, the column types and the qualified names differ.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, kw_only=True)
class Dialect:
    table: Callable[[str], str]  # a table's qualified name (``views_<name>``) from its short name
    ph: str  # the placeholder
    uuid: str  # the column types
    blob: str
    integer: str
    real: str
    unlogged: str  # "UNLOGGED " where a table may skip the write-ahead log (PostgreSQL)
    holds: str  # the test that ``payload`` holds the bytes of the placeholder's value
    tracking: str  # the tracking record's qualified name
    postgres: bool
    prefix: str  # the tables' (and indexes') names begin with it and "_"

    def marks(self, count: int) -> str:
        return ", ".join([self.ph] * count)


class Statements(Protocol):
    """What the tables' own modules ask of the store: their named statements, run."""

    def query(self, name: str, params: Sequence[Any], suffix: str = "") -> list[tuple[Any, ...]]: ...

    def execute(self, name: str, params: Sequence[Any]) -> None: ...

    def execute_all(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> None: ...

    def change(self, name: str, params: Sequence[Any]) -> list[tuple[Any, ...]]: ...

    def _in(self, count: int) -> str: ...
