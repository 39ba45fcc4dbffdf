"""Read models as files a club files or opens in a spreadsheet: CSV (RFC 4180, UTF-8).

A name is whatever a person typed, and a spreadsheet runs a cell that begins with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return as a formula (``=HYPERLINK(...)`` fetches an address when
clicked). So every text cell of a CSV export goes through ``text_cell``, which puts a ``'`` before
such a start (OWASP's rule for CSV injection), and is quoted, its quotes doubled (OWASP's advice
too), so that a quote or a separator inside a name does not end its cell. Numbers and yes or no
are not text and are written bare: ``-3`` points stay the number -3.
"""

import csv
import io
from collections.abc import Callable, Sequence
from typing import Any, assert_never
from uuid import UUID

import msgspec
from litestar import Response, get
from litestar.handlers import HTTPRouteHandler

from service.http.calls import reads
from service.http.routes import file_route

# litestar adds "; charset=utf-8" to a text/* media type itself (naming it here doubled it)
CSV = "text/csv"
# a cell beginning with one of these is read as a formula
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# what the exported structs' fields hold
Cell = str | UUID | bool | int | float | None


def text_cell(text: str) -> str:
    """``text`` as a spreadsheet shows it and never runs: ``'`` put before a formula's start."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _cell(value: Cell) -> str | int | float | None:
    """The field's type, not its content, decides what is text: a str (a name, a kind) is."""
    match value:
        case str():
            return text_cell(value)
        case UUID():
            return str(value)
        case bool() | int() | float() | None:
            return value
        case _:
            assert_never(value)


def csv_of(kind: type[msgspec.Struct], rows: Sequence[msgspec.Struct]) -> str:
    """A header row of ``kind``'s field names (even with no row), then each row's values: text and
    ids quoted, text neutralised (``text_cell``), numbers and ``True``/``False`` bare, None as ``""``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    fields = kind.__struct_fields__
    writer.writerow(fields)
    writer.writerows([_cell(getattr(row, field)) for field in fields] for row in rows)
    return out.getvalue()


def csv_answer(kind: type[msgspec.Struct], rows: Sequence[msgspec.Struct]) -> Response[str]:
    """A route's answer: the rows as CSV (``csv_of``)."""
    return Response(csv_of(kind, rows), media_type=CSV)


def csv_read(
    path: str,
    operation_id: str,
    summary: str,
    description: str,
    what: str,
    query: Callable[..., Any],
    kind: type[msgspec.Struct],
    **params: Any,
) -> HTTPRouteHandler:
    """A public ``GET`` of a read model's rows as CSV: ``query``'s answer's ``rows``, of ``kind``
    (``what``: whose rows they are, for the document)."""

    def rows(found: Any) -> Response[str]:
        return csv_answer(kind, found.rows)

    answer = f"the {what} rows as CSV (RFC 4180, UTF-8)"
    return get(
        path,
        operation_id=operation_id,
        summary=summary,
        description=description,
        **file_route(CSV, answer, 404),
    )(reads(query, Response[str], rows, **params))
