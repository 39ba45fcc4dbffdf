"""One page of a list from the read models, read as every list reads it (``service.http.pages``)."""

from collections.abc import Callable
from typing import Any, TypeVar

from service.http.pages import cursor_of, key_of
from service.usecases.consistency import caught_up
from service.usecases.services import Services

K = TypeVar("K")
R = TypeVar("R")


def page_read(
    services: Services,
    read: Callable[..., R],
    kind: str,
    filters: tuple[Any, ...],
    key_type: type[K],
    cursor: str | None,
    after: int | None,
    load: Callable[[K | None], tuple[list[Any], Any]],
) -> R:
    """The page of list ``kind`` under ``filters`` that ``cursor`` continues, as ``read`` answers it.

    A bad cursor is refused before anything waits; the position is read before the page, so the
    page holds at least what it says it holds."""
    start = key_of(cursor, kind, filters, key_type)
    caught_up(services.reader, after, services.app.recorder.max_notification_id)
    position = services.reader.position()
    items, last = load(start)
    return read(items=items, next=cursor_of(kind, filters, last), position=position)
