"""One page of a list from the read models, read as every list reads it (``service.http.pages``)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from service.http.pages import Page, cursor_of, key_of
from service.usecases.queries import lists
from service.usecases.services import Services

K = TypeVar("K")
R = TypeVar("R")


@dataclass(frozen=True)
class Listing(Generic[K, R]):
    """A list the API pages through: the answer it makes, its name in its cursors, its sort key's
    type, the list it reads (``service.usecases.queries.lists``)."""

    read: Callable[..., R]
    kind: str
    key_type: type[K]
    load: lists.Load[K]

    def page(self, services: Services, page: Page, *filters: Any) -> R:
        """The page under ``filters`` that the cursor continues; a bad cursor is refused before
        anything waits."""
        start = key_of(page.cursor, self.kind, filters, self.key_type)
        found = lists.page(services, self.load, filters, start, page.limit, page.after)
        return self.read(
            items=found.items, next=cursor_of(self.kind, filters, found.last), position=found.position
        )
