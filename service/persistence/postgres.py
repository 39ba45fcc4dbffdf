"""eventsourcing's PostgreSQL infrastructure, with every wait for the database bounded.

Stock, a request while the database is down waited far longer than any client: each
recorder method is retried 10 times (``eventsourcing.utils.retry``), and each attempt waits
for a pooled connection up to the pool's timeout (``POSTGRES_CONNECT_TIMEOUT``, 30 s by
default), so one read could hang for minutes. Here (``MAUMAU_DATABASE_TIMEOUT``, passed as
``POSTGRES_CONNECT_TIMEOUT``):

- the pool's checkout waits that long at most, and so does libpq's connect (a host that
  drops packets instead of refusing them);
- a recorder method is tried again only while its failures are quick (a connection that
  broke while it sat in the pool, as after a database restart: the next one may be fine)
  and the first attempt began less than that long ago; once the pool itself waited in vain
  the database is away, and the caller hears so at once (``OperationalError``: the HTTP
  layer's 503 ``unavailable``, a task's retry).

So a call fails within about twice the timeout while the database is down, and recovers
as before once it is back.

The stock recorders create their tables (``CREATE_TABLE``) with no guard, and two processes
starting at once (a worker's two pool processes) race in PostgreSQL's catalogue: a
``CREATE TYPE`` or ``CREATE OR REPLACE FUNCTION`` fails with a unique violation or "tuple
concurrently updated". Here the creating is done under one advisory lock per schema.
"""

import contextlib
import hashlib
import math
import time
from collections.abc import Callable, Iterator
from types import MethodType
from typing import Any, TypeVar

import psycopg
from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    InterfaceError,
    OperationalError,
    ProcessRecorder,
)
from eventsourcing.postgres import PostgresFactory
from eventsourcing.utils import Environment, retry
from psycopg_pool import PoolTimeout

# eventsourcing's retry wraps each method in a closure of this one function: its code tells them apart
_RETRY_CODE = retry(Exception)(lambda: None).__code__
# libpq rounds a connect timeout below 2 s up to 2 s
_LEAST_CONNECT_TIMEOUT = 2
R = TypeVar("R")
_PAUSE = 0.05  # before trying again: a fresh connection is at hand, or the pool's workers are making one


class Factory(PostgresFactory):
    def __init__(self, env: Environment) -> None:
        super().__init__(env)
        pool = self.datastore.pool
        self.timeout = float(pool.timeout)  # POSTGRES_CONNECT_TIMEOUT: the checkout's bound
        # the pool opens its connections with these arguments, each time it connects
        assert isinstance(pool.kwargs, dict)
        pool.kwargs["connect_timeout"] = max(_LEAST_CONNECT_TIMEOUT, math.ceil(self.timeout))

    def env_create_table(self) -> bool:
        # the stock methods create unguarded where this is true: ``_created`` does it under the lock
        return False

    def aggregate_recorder(self, purpose: str = "events") -> AggregateRecorder:
        return bounded(self._created(super().aggregate_recorder(purpose)), self.timeout)

    def application_recorder(self) -> ApplicationRecorder:
        return bounded(self._created(super().application_recorder()), self.timeout)

    def tracking_recorder(self, tracking_recorder_class: Any = None) -> Any:
        return bounded(self._created(super().tracking_recorder(tracking_recorder_class)), self.timeout)

    def process_recorder(self) -> ProcessRecorder:
        return bounded(self._created(super().process_recorder()), self.timeout)

    def _created(self, recorder: R) -> R:
        if super().env_create_table():
            with self._tables_lock():
                recorder.create_table()  # type: ignore[attr-defined]
        return recorder

    @contextlib.contextmanager
    def _tables_lock(self) -> Iterator[None]:
        """Held by a connection of its own: the pool's may all be needed by the creating."""
        pool = self.datastore.pool
        # eventsourcing's datastore makes the pool with a dict of arguments and no conninfo ("")
        assert isinstance(pool.kwargs, dict) and isinstance(pool.conninfo, str)
        kwargs = {k: v for k, v in dict(pool.kwargs).items() if k != "row_factory"}
        if pool.get_password_func is not None:
            kwargs["password"] = pool.get_password_func()
        schema = self.datastore.schema or "public"
        digest = hashlib.blake2b(f"maumau tables {schema}".encode(), digest_size=8).digest()
        with psycopg.connect(pool.conninfo, autocommit=True, **kwargs) as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (int.from_bytes(digest, "big", signed=True),))
            yield  # the lock ends with the connection's session


def bounded(recorder: R, timeout: float) -> R:
    """The recorder, each of its retried methods retried only while that is quick (see above)."""
    kind = type(recorder)
    for name in dir(kind):
        method: Any = getattr(kind, name, None)
        if getattr(method, "__code__", None) is _RETRY_CODE and hasattr(method, "__wrapped__"):
            # on the instance: a subclass's override (the group commit's insert) stays as it is
            setattr(recorder, name, MethodType(_quick_retry(method.__wrapped__, timeout), recorder))
    return recorder


def _quick_retry(method: Callable[..., Any], timeout: float) -> Callable[..., Any]:
    def retried(self: Any, *args: Any, **kwargs: Any) -> Any:
        began = time.monotonic()
        while True:
            try:
                return method(self, *args, **kwargs)
            except (InterfaceError, OperationalError) as error:
                if isinstance(error.__cause__, PoolTimeout) or time.monotonic() - began >= timeout:
                    raise
            time.sleep(_PAUSE)

    return retried
