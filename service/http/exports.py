"""Read models as files a club files or opens in a spreadsheet: CSV (RFC 4180, UTF-8)."""

import csv
import io
from collections.abc import Sequence

import msgspec

# litestar adds "; charset=utf-8" to a text/* media type itself (naming it here doubled it)
CSV = "text/csv"


def csv_of(kind: type[msgspec.Struct], rows: Sequence[msgspec.Struct]) -> str:
    """A header row of ``kind``'s field names (even with no row), then each row's values (None as an
    empty cell)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    fields = kind.__struct_fields__
    writer.writerow(fields)
    writer.writerows([getattr(row, field) for field in fields] for row in rows)
    return out.getvalue()
