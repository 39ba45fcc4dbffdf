"""One page of a list from the read models, read as every list reads it (``service.http.pages``)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, TypeVarTuple

from litestar.di import NamedDependency

from service.http.pages import DEFAULT_LIMIT, Cursor, Limit, cursor_of, key_of
from service.http.params import After
from service.http.services import ServicesDep
from service.usecases.consistency import caught_up
from service.usecases.services import Services

K = TypeVar("K")
R = TypeVar("R")
Filters = TypeVarTuple("Filters")


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


@dataclass(frozen=True)
class Listing(Generic[K, R]):
    """A list the API pages through: the answer it makes, its name in its cursors, its sort key's type."""

    read: Callable[..., R]
    kind: str
    key_type: type[K]

    def page(
        self,
        services: Services,
        page: Page,
        load: Callable[[*Filters, K | None, int], tuple[list[Any], K | None]],
        *filters: *Filters,
    ) -> R:
        """The page under ``filters`` that the cursor continues: ``load(*filters, start, limit)``.

        A bad cursor is refused before anything waits; the position is read before the page, so the
        page holds at least what it says it holds."""
        start = key_of(page.cursor, self.kind, filters, self.key_type)
        caught_up(services.reader, page.after, services.app.recorder.max_notification_id)
        position = services.reader.position()
        items, last = load(*filters, start, page.limit)
        return self.read(items=items, next=cursor_of(self.kind, filters, last), position=position)
