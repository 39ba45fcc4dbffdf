"""One page of a list from the read models, read as every list reads it (``service.http.pages``)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar

from service.http.pages import (
    Page,
    PageDep,
    choice_parameter,
    cursor_of,
    id_filter,
    key_of,
    league_and_status,
)
from service.http.params import LEAGUE_ID
from service.http.services import ServicesDep
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

    def by_league_and_status(self, what: str, statuses: tuple[str, ...]) -> Callable[..., Any]:
        """The handler of this list filtered by league and state (the tournaments, the Mao matches),
        ``what`` naming its items in the filters' descriptions."""

        def list_items(
            controller: object,
            services: ServicesDep,
            league: Any = None,
            status: Any = None,
            *,
            page: PageDep,
        ) -> Any:
            return self.page(services, page, *league_and_status(league, status, statuses))

        # litestar documents and decodes the filters and the answer by the handler's annotations
        list_items.__annotations__ |= {
            "league": Annotated[str | None, id_filter(f"only the {what} of this league", LEAGUE_ID)],
            "status": Annotated[str | None, choice_parameter(f"only the {what} in this state", statuses)],
            "return": self.read,
        }
        list_items.__name__ = list_items.__qualname__ = f"list_{self.kind.replace('-', '_')}"
        return list_items
