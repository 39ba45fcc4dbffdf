"""The API's lists, a page at a time (keyset paging: ``service.http.pages`` makes the cursors): each
list is the read model's method that pages it, read once the read models have applied ``?after=``,
with the position read first, so the page holds at least what it says it holds."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from uuid import UUID

from service.projections.reader import ReadModels
from service.usecases.consistency import caught_up
from service.usecases.context import Context

K = TypeVar("K")
# a list of the read models: (the read models, its filters..., the key to start after, how many)
Load = Callable[..., tuple[list[Any], K | None]]

PLAYERS: Load[tuple[str, UUID]] = ReadModels.players  # by name: ?q= searches them
LEAGUES: Load[tuple[str, UUID]] = ReadModels.leagues  # by name
GAMES: Load[int] = ReadModels.games  # the newest first; by league, player, status
MAO_GAMES: Load[int] = ReadModels.mao_games  # the newest first; by league, status
TOURNAMENTS: Load[int] = ReadModels.tournament_list  # the latest announced first; by league, status
DISPUTES: Load[tuple[float, UUID]] = ReadModels.disputes  # the longest waiting first; by referee


@dataclass(frozen=True)
class Listed(Generic[K]):
    items: list[Any]
    last: K | None  # the key the next page starts after; None: this one is the last
    position: int  # how far the read models were


def page(
    context: Context, load: Load[K], filters: tuple[Any, ...], start: K | None, limit: int, after: int | None
) -> Listed[K]:
    """``limit`` items under ``filters`` after the key ``start``."""
    caught_up(context.reader, after, context.app.recorder.max_notification_id)
    position = context.reader.position()
    items, last = load(context.reader, *filters, start, limit)
    return Listed(items=items, last=last, position=position)
