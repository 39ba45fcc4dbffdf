"""The aggregates the pages read (a league, a tournament), kept per process and checked against the
store with one query for events after the kept version, instead of loaded from all their events at
every page: a league of 500 members is 500 events, a tenth of a second per page (``bench/pages.py``).

A kept aggregate is never changed: when the store has newer events it is loaded again whole and
kept in place of the old one, so two requests may read one copy at once. Commands never see these
copies (they load their own, ``service.application``); aggregate ids are random UUIDs, so one
process's several applications (as in the tests) cannot mix theirs up.
"""

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar
from uuid import UUID

from eventsourcing.domain import Aggregate

from service.domain.league import League
from service.domain.tournament import Tournament
from service.usecases.context import Context

A = TypeVar("A", bound=Aggregate)
MOST = 256  # aggregates kept; the least recently read goes first
_kept: OrderedDict[UUID, Aggregate] = OrderedDict()
_keeping = threading.Lock()


def league(context: Context, league_id: UUID) -> League:
    return _fresh(context, league_id, context.app.get_league)


def tournament(context: Context, tournament_id: UUID) -> Tournament:
    return _fresh(context, tournament_id, context.app.get_tournament)


def _fresh(context: Context, aggregate_id: UUID, load: Callable[[UUID], A]) -> A:
    kept = _kept.get(aggregate_id)
    if kept is None or next(iter(context.app.events.get(aggregate_id, gt=kept.version, limit=1)), None):
        kept = load(aggregate_id)
    with _keeping:  # the pages' threads share the list: one changes it at a time
        _kept[aggregate_id] = kept
        _kept.move_to_end(aggregate_id)
        while len(_kept) > MOST:
            _kept.popitem(last=False)
    return kept  # type: ignore[return-value]  # kept under its own id: the same kind as loaded
