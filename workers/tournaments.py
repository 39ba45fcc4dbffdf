"""Which tournaments are open (announced or running): the ones the scheduler's tick looks at.

The tournaments read model answers it (``ReadModels.open_tournaments``: one small
query per tick), so a deployment runs the projections (``maumau projections run``,
or the HTTP process's own thread) beside its workers and beat. A tournament the
read models have not applied yet is looked at by the tick after they have; one
started by hand is queued at once (``workers.app.enqueue_tournament``).
"""

from typing import Any, Protocol
from uuid import UUID


class _Services(Protocol):
    @property
    def read(self) -> Any: ...


def open_tournaments(services: _Services) -> list[UUID]:
    """The tournaments announced or running, from the read model."""
    return list(services.read.open_tournaments())
