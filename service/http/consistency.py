"""Reading your own writes without ``?after=``: each actor's last write, remembered server-side.

A game's own reads (its table, a seat's view, its totals, its log, replay
and shuffles) read the event store, current the moment a write's commit
returns (``service.projections.current``). The other reads (standings,
histories, tournaments, a player's next table, ...) read the read models,
which apply the log a moment later. For those, every successful write
they show (not a move that ends no round: it changes only the game's own
reads) notes the log position it wrote under its actor
(``service.usecases.consistency.Writes``), and the
check run before every handler (``service.http.admit``) holds a read by the same actor (any of
their tokens) until the read models have applied that position, at most
``READ_WAIT_SECONDS``; a naive client that reads right after each write
sees it, and an anonymous read, or one of a route marked ``READS_STORE``,
waits for nothing. ``docs/consistency.md`` lists what each route gives.
"""

from typing import Any, cast

import anyio.to_thread
from litestar import Request
from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from service.domain.roles import Actor
from service.usecases.services import Services

# a route's ``opt``: it reads the event store, never the read models (its answer is current already)
READS_STORE = {"reads": "store"}


async def reads_own_writes(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """Run by ``admit`` after ``authenticate``: a read of the read models waits for its actor's last
    write (bounded; the answer's ``position`` says how far they were)."""
    actor: Actor | None = connection.state.actor
    # a guard's connection is typed for websockets too; every route here is HTTP: a Request
    method = cast("Request[Any, Any, Any]", connection).method
    if actor is None or method != "GET" or handler.opt.get("reads") == "store":
        return
    services: Services = connection.app.state.services
    await anyio.to_thread.run_sync(services.read_after_own_writes, actor)
