"""One page of a list from the read models, read as every list reads it (``service.http.pages``)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from service.http.pages import cursor_of, key_of
from service.usecases.consistency import caught_up
from service.usecases.services import Services

K = TypeVar("K")
R = TypeVar("R")


@dataclass(frozen=True)
class Listing(Generic[K, R]):
    """A list the API pages through: the answer it makes, its name in its cursors, its sort key's type."""

    read: Callable[..., R]
    kind: str
    key_type: type[K]

    def page(
        self,
        services: Services,
        filters: tuple[Any, ...],
        cursor: str | None,
        after: int | None,
        load: Callable[[K | None], tuple[list[Any], Any]],
    ) -> R:
        """The page under ``filters`` that ``cursor`` continues.

        A bad cursor is refused before anything waits; the position is read before the page, so the
        page holds at least what it says it holds."""
        start = key_of(cursor, self.kind, filters, self.key_type)
        caught_up(services.reader, after, services.app.recorder.max_notification_id)
        position = services.reader.position()
        items, last = load(start)
        return self.read(items=items, next=cursor_of(self.kind, filters, last), position=position)
