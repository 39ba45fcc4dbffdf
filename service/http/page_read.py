"""One page of a list from the read models, read as every list reads it (``service.http.pages``)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, TypeVarTuple

from service.http.pages import Page, cursor_of, key_of
from service.usecases.consistency import caught_up
from service.usecases.services import Services

K = TypeVar("K")
R = TypeVar("R")
Filters = TypeVarTuple("Filters")


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
