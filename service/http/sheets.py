"""The API's printable score sheets of a tournament's round, in English: drawn by
``service.projections.sheets`` (the pages draw the same in the reader's language), served with the
service's policy and the sheets' own style let in by its hash."""

from service.http import headers
from service.projections.sheets import STYLE_SOURCE

HTML = "text/html"  # litestar adds the charset (utf-8)
POLICY = f"{headers.POLICY}; {STYLE_SOURCE}"
