"""Reading your own writes without ``?after=``: each actor's last write, remembered server-side.

A game's own reads (its table, a seat's view, its totals, its log, replay
and shuffles) read the event store, current the moment a write's commit
returns (``service.projections.current``). The other reads (standings,
histories, tournaments, a player's next table, ...) read the read models,
which apply the log a moment later. For those, every successful write
they show (not a move that ends no round: it changes only the game's own
reads) notes the log position it wrote under its actor (``Writes``: in the read
models' store, which every process of a deployment shares), and the
check run before every handler (``service.http.admit``) holds a read by the same actor (any of
their tokens) until the read models have applied that position, at most
``READ_WAIT_SECONDS``; a naive client that reads right after each write
sees it, and an anonymous read, or one of a route marked ``READS_STORE``,
waits for nothing. ``docs/consistency.md`` lists what each route gives.
"""

import logging
from typing import TYPE_CHECKING, Any

import anyio.to_thread
from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from service.domain.roles import Actor
from service.http.params import READ_WAIT_SECONDS
from service.projections.store import Views

if TYPE_CHECKING:
    from service.http.services import Services

log = logging.getLogger(__name__)

# a route's ``opt``: it reads the event store, never the read models (its answer is current already)
READS_STORE = {"reads": "store"}


class Writes:
    def __init__(self, views: Views) -> None:
        self.views = views

    def note(self, actor: Actor, position: int) -> None:
        """``actor`` wrote at log ``position`` (a later note of an earlier position changes nothing)."""
        self.views.last_writes.note(_key(actor), position)

    def last(self, actor: Actor) -> int:
        """The log position of ``actor``'s last write (0: none noted)."""
        return self.views.last_writes.of(_key(actor))


def _key(actor: Actor) -> str:
    return f"{actor.role}:{actor.id}"


async def reads_own_writes(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """Run by ``admit`` after ``authenticate``: a read of the read models waits for its actor's last
    write (bounded; the answer's ``position`` says how far they were)."""
    actor: Actor | None = connection.state.actor
    if actor is None or connection.method != "GET" or handler.opt.get("reads") == "store":
        return
    services: Services = connection.app.state.services
    await anyio.to_thread.run_sync(_wait_for_last_write, services, actor)


def _wait_for_last_write(services: "Services", actor: Actor) -> None:
    try:
        written = services.writes.last(actor)
    except Exception:
        # the read itself goes on: it answers what the read models have, or fails on its own
        log.warning("an actor's last write not read: the read does not wait for it", exc_info=True)
        return
    if written and services.reader.position() < written:
        services.reader.wait_for(written, timeout=READ_WAIT_SECONDS)
