"""Lists: ``?limit=`` and ``?cursor=``, an opaque cursor, and the refusals of bad ones and bad filters.

Every list answers a page: ``items`` in a stable order, ``next`` (the cursor of the page after, or
null on the last page) and ``position`` (as every read). The cursor is the sort key of the last item
of its page, with the list and the filters it was made for: the next page starts right after that
item (keyset paging), so paging through a list that does not change meanwhile gives each item exactly
once, and a page costs the same however deep it is. A cursor is refused (422 ``invalid_cursor``) when
it was not made by this service, or made for another list or other filters; a filter that is not
one (an unknown status, an id that is not a UUID) is 400 ``invalid_filter``.
"""

import base64
import binascii
import hashlib
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar
from uuid import UUID

import msgspec
from litestar.di import NamedDependency
from litestar.openapi.spec import Example
from litestar.params import Parameter, ParameterKwarg

from service.domain.errors import RuleError
from service.http.params import After
from service.http.services import ServicesDep

DEFAULT_LIMIT = 20
MOST_LIMIT = 100
K = TypeVar("K")
# characters: the longest key fits (a name of MAX_NAME characters of 4 bytes each, and an id)
MOST_CURSOR = 1000

Limit = Annotated[
    int,
    Parameter(
        ge=1,
        le=MOST_LIMIT,
        description=f"at most this many items (1 to {MOST_LIMIT})",
        examples=[Example(value=DEFAULT_LIMIT)],
    ),
]
Cursor = Annotated[
    str | None,
    Parameter(
        min_length=1,
        max_length=MOST_CURSOR,
        description="the `next` of the page before, as it came (with the same filters); none: the first page",
        examples=[Example(summary="the next page", value="k6VnYW1lc6g1YTJiM2M0ZM0SZw")],
    ),
]
Next = Annotated[
    str | None,
    msgspec.Meta(
        description="the cursor of the next page (send it as `cursor`); null on the last page",
        examples=["k6VnYW1lc6g1YTJiM2M0ZM0SZw"],
    ),
]


@dataclass(frozen=True, slots=True)
class Page:
    """What a list's request asks: how many items, after which (its cursor), read after which write."""

    limit: int
    cursor: str | None
    after: int | None


def provide_page(
    services: ServicesDep, limit: Limit = DEFAULT_LIMIT, cursor: Cursor = None, after: After = None
) -> Page:
    # ``services`` only orders it after them, as ``service.http.api`` orders the actor
    return Page(limit, cursor, after)


# a list's handler takes it last, keyword-only (``*, page``): the document names its parameters
# after the list's own filters
PageDep = NamedDependency[Page]


def _filters_digest(filters: tuple[Any, ...]) -> str:
    return hashlib.sha256(repr(filters).encode()).hexdigest()[:8]


def cursor_of(kind: str, filters: tuple[Any, ...], key: Any) -> str | None:
    """The cursor that continues the list ``kind`` under ``filters`` after ``key`` (None: no key)."""
    if key is None:
        return None
    payload = msgspec.msgpack.encode([kind, _filters_digest(filters), key])
    return base64.urlsafe_b64encode(payload).rstrip(b"=").decode()


def key_of(cursor: str | None, kind: str, filters: tuple[Any, ...], key_type: type[K]) -> K | None:
    """The sort key a cursor continues after (None: no cursor, the first page)."""
    if cursor is None:
        return None
    try:
        data = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        found_kind, digest, key = msgspec.msgpack.decode(data, type=tuple[str, str, key_type])  # type: ignore[valid-type]
    except (binascii.Error, ValueError, msgspec.DecodeError):
        raise RuleError("invalid_cursor", why="cursor_not_service") from None
    if found_kind != kind:
        raise RuleError("invalid_cursor", why="cursor_continues_another", kind=kind)
    if digest != _filters_digest(filters):
        raise RuleError("invalid_cursor", why="cursor_continues_list")
    return key


def uuid_filter(name: str, value: str | None) -> UUID | None:
    """A filter naming an id: None when not given; ``invalid_filter`` when it is not a UUID."""
    if value is None:
        return None
    try:
        return UUID(value)
    except ValueError:
        raise RuleError("invalid_filter", why="id", name=name, value=value[:60]) from None


def choice_filter(name: str, value: str | None, choices: tuple[str, ...]) -> str | None:
    """A filter with a few values: None when not given; ``invalid_filter`` for any other value."""
    if value is None or value in choices:
        return value
    raise RuleError("invalid_filter", why="choice", name=name, choices=", ".join(choices), value=value[:60])


def league_and_status(
    league: str | None, status: str | None, statuses: tuple[str, ...]
) -> tuple[UUID | None, str | None]:
    """The filters of a list by league and state (the tournaments, the Mao matches), in that order."""
    return uuid_filter("league", league), choice_filter("status", status, statuses)


def id_filter(description: str, example: str) -> ParameterKwarg:
    """A query parameter naming an id (annotating ``str | None``): the document says UUID; the handler
    refuses anything else."""
    return Parameter(
        description=description,
        schema_extra={"format": "uuid"},
        examples=[Example(value=example)],
    )


def choice_parameter(description: str, choices: tuple[str, ...]) -> ParameterKwarg:
    return Parameter(
        description=f"{description}: {', '.join(choices)}",
        schema_extra={"enum": list(choices)},
        examples=[Example(value=choices[0])],
    )
