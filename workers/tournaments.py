"""What the scheduler's tick reads: the tournaments it may have something to do in (running, or
announced with a start time: a finished or cancelled one is never looked at again, one announced
without a start time not until it has one), and the games
whose bots have been waiting to move for too long.

The tournaments read model answers it (``ReadModels.tournaments_to_conduct``: one small
query per tick), so a deployment runs the projections (``maumau projections run``,
or the HTTP process's own thread) beside its workers and beat. A tournament the
read models have not applied yet is looked at by the tick after they have; one
started by hand is queued at once (``service.application.followups``).

The games come from ``views_bot_turns``, which the projection keeps with each
game's row: a game whose bot is to move, and since when.

The webhook deliveries due come from ``views_deliveries`` (``Deliveries.due``), which the
projection fills and the deliveries' tasks keep.
"""

import time
from typing import Any, Protocol
from uuid import UUID


class _Services(Protocol):
    @property
    def read(self) -> Any: ...


def tournaments_to_conduct(services: _Services) -> list[UUID]:
    """The tournaments running or announced with a start time, from the read model."""
    return list(services.read.tournaments_to_conduct())


def due_deliveries(services: _Services, stalled_after: float, limit: int) -> list[UUID]:
    """Webhook deliveries due that no task was queued for, or whose task was due ``stalled_after``
    seconds ago and never ran: at most ``limit``, marked as queued."""
    now = time.time()
    return services.read.views.deliveries.due(now, now - stalled_after, limit)


def stalled_bot_turns(services: _Services, stalled_after: float, limit: int) -> list[UUID]:
    """Games a bot has been to move in, neither over nor paused, with no event for ``stalled_after``
    seconds, from the read model: at most ``limit``, the longest waiting first."""
    return list(services.read.stalled_bot_turns(time.time() - stalled_after, limit))
