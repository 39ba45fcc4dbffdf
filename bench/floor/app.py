"""The service's app with one bench-only route beside its own: the least a durable move must do.

``POST /bench/floor`` takes the same path a move takes up to its command (``opt=SIGNED_IN``, so
``service.http.admit`` checks the token as for a move, the same dependencies, a JSON body decoded
into a Struct, a sync handler in the handler threads) and then does only one single-row INSERT, committed
through the event store's own connection pool, and answers a small JSON. ``bench/http.py`` starts
the server on this factory so the floor runs in the same processes, with the same worker count, as
the moves it is compared with. Never mounted by the production app: ``service.app`` does not
know this module.

The table (``bench/floor/table.py``) is made by the bench before the
server starts.
"""

import time
from typing import Annotated

import msgspec
from litestar import Litestar, post
from litestar.params import Body
from psycopg.sql import SQL, Identifier

from bench.floor.table import TABLE
from service.app import create_app as create_service_app
from service.http.auth import SIGNED_IN
from service.http.services import CallerDep
from service.persistence.log_lock import log_lock
from service.settings import Settings


class FloorCreate(msgspec.Struct, forbid_unknown_fields=True):
    kind: str
    version: int


class FloorRead(msgspec.Struct):
    floor_id: int
    version: int
    store_ms: float  # the transaction's wall time in the handler: the bench splits the floor's tail by it
    store_cpu_ms: float  # the handler thread's CPU time in it: the rest of its wall time was waiting


@post("/bench/floor", operation_id="benchWriteFloor", status_code=200, opt=SIGNED_IN, sync_to_thread=True)
def write_floor(caller: CallerDep, data: Annotated[FloorCreate, Body()]) -> FloorRead:
    return _insert(caller, data, ordered=False)


@post(
    "/bench/floor/ordered",
    operation_id="benchWriteOrderedFloor",
    status_code=200,
    opt=SIGNED_IN,
    sync_to_thread=True,
)
def write_ordered_floor(caller: CallerDep, data: Annotated[FloorCreate, Body()]) -> FloorRead:
    """The floor with the event log's order: the table locked as the event store locks its own for
    each commit (so that ids commit in the order they were issued), held through the commit. Not a
    target's floor: it shows what that order costs a write by itself."""
    return _insert(caller, data, ordered=True)


def _insert(caller: CallerDep, data: FloorCreate, *, ordered: bool) -> FloorRead:
    datastore = caller.services.app.recorder.datastore
    table = (Identifier(datastore.schema), Identifier(TABLE))
    insert = SQL("insert into {}.{} (actor, kind, version) values (%s, %s, %s) returning floor_id")
    began, began_cpu = time.perf_counter(), time.thread_time()
    with datastore.transaction(commit=True) as cursor:
        if ordered:
            # the lock the event log's writers take, on a key of the floor's own
            cursor.execute(log_lock(datastore.schema, TABLE))
        cursor.execute(insert.format(*table), (caller.actor.id, data.kind, data.version))
        row = cursor.fetchone()
    store_ms, store_cpu_ms = 1000 * (time.perf_counter() - began), 1000 * (time.thread_time() - began_cpu)
    return FloorRead(
        floor_id=row["floor_id"], version=data.version, store_ms=store_ms, store_cpu_ms=store_cpu_ms
    )


def create_app(settings: Settings | None = None) -> Litestar:
    app = create_service_app(settings)
    app.register(write_floor)
    app.register(write_ordered_floor)
    return app
