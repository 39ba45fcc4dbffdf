"""Running the projection: follow the log, fold in batches, write each batch once.

The loop reads pages of events after the position applied in memory and
folds them; it writes (rows and tracking, one transaction) as soon as it has
caught up with the log, or after ``BATCH`` events while it is catching up (at the
end of the change reached there: ``Runner.catch_up``).
So under a steady stream each write carries what arrived during the last
one, and a rebuild writes every ``BATCH`` events. With
``MAUMAU_PROJECTION_BATCH_MS`` it pauses that long after each write that had
something to write, so each carries what arrived meanwhile too: a game's
document is written once for several of its moves. (A first event after a
quiet time is written at once either way.)

One runner per store at a time: ``RunnerLock`` is a PostgreSQL advisory lock
(on its own connection, released by the server if the process dies) or a
lock file beside the SQLite file. A second runner waits for it, so running
one in every HTTP process as well as ``maumau projections run`` is safe. The
tracking record is the last word anyway: a batch whose position is not past
the stored one is refused whole.

A failed batch (the database went away, an event that cannot be folded, ...)
is logged with the log position it failed at (and the event's type and
originator, when an event failed), counted (``maumau_projection_failures_total``)
and recorded in the read models' store (``Views.failed``: the ``views_runner``
row), where ``/ready`` of every process finds it. The runner forgets what it had
in memory and starts again from the stored position after a pause: nothing is
applied twice, nothing skipped. Its next good pass over the log deletes the row;
a runner starting deletes one an earlier runner left.
"""

import contextlib
import fcntl
import gc
import logging
import os
import threading
import time
from collections.abc import Callable, Collection, Iterator
from typing import Any

import msgspec
import psycopg

from service.observability import metrics
from service.persistence.runner_failures import RunnerFailure
from service.projections import aside
from service.projections.parts import PARTS, feeding, rebuilt_with
from service.projections.projection import FoldFailed, ViewsProjection
from service.projections.source import Source
from service.projections.store import NAME, SQLITE_FILE_NAME, Views, close_views, open_views
from service.projections.views.base import StaleView
from service.settings import Settings

log = logging.getLogger(__name__)

PAGE = 1000  # events read at a time
BATCH = 50_000  # most events folded before a write while catching up
RETRY_SECONDS = (0.5, 1, 2, 5, 10, 30)  # pauses after failures in a row
LOCK_CHECK_SECONDS = 1.0  # how often a running runner makes sure it still holds its lock


class RunnerBusy(Exception):
    """Another runner (or a rebuild) holds the projection."""


class RunnerLock:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._conn: psycopg.Connection[Any] | None = None
        self._fd: int | None = None
        self._key = f"maumau:{settings.database_schema or 'public'}:{NAME}"

    def acquire(self) -> bool:
        """Take the lock if it is free; whether this holder has it now."""
        if self._conn is not None or self._fd is not None:
            return True
        if self.settings.database_url is not None:
            conn = psycopg.connect(self.settings.database_url, autocommit=True, application_name=self._key)
            row = conn.execute("SELECT pg_try_advisory_lock(hashtext(%s))", (self._key,)).fetchone()
            if row is not None and row[0]:
                self._conn = conn
                return True
            conn.close()
            return False
        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        path = self.settings.data_dir / f"{SQLITE_FILE_NAME}.lock"
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def check(self) -> None:
        """Raise if the lock may have been lost (its PostgreSQL connection broke)."""
        if self._conn is not None:
            self._conn.execute("SELECT 1")

    def release(self) -> None:
        if self._conn is not None:
            # said, not left to the end of the session: a server notices a closed connection
            # a moment later, and the next holder would find the lock still taken
            with contextlib.suppress(psycopg.Error):
                self._conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (self._key,))
            self._conn.close()
            self._conn = None
        if self._fd is not None:
            os.close(self._fd)  # closing the file lets the flock go
            self._fd = None


class RebuildRefused(Exception):
    """A rebuild of some parts that would leave one of them fed by a stale part."""


class RebuildFailed(Exception):
    """A rebuild found a part of the read models it could not fold: the live ones were left as they were."""

    def __init__(self, stale: StaleView) -> None:
        self.stale = stale
        super().__init__(
            f"the rebuild stopped: {stale.view} could not be folded at position {stale.position}: "
            f"{stale.reason}; the read models were left as they were"
        )


class Runner:
    """The projection, its store and the log it follows, for one process (``aside``: into the store
    a rebuild fills)."""

    def __init__(self, settings: Settings, aside: bool = False) -> None:
        self.settings = settings
        self.views = open_views(settings, connections=1, aside=aside)  # one writer
        self.source = Source(settings)
        self.projection = ViewsProjection(self.views, self.source.mao_match)
        self.lock = RunnerLock(settings)
        self.gather = settings.projection_batch_ms / 1000  # the pause after a write

    @property
    def position(self) -> int:
        return self.projection.position

    def catch_up(
        self,
        until: int | None = None,
        progress: Callable[[int], None] | None = None,
        stop: threading.Event | None = None,
        page_size: int = PAGE,
        batch: int = BATCH,
    ) -> bool:
        """Fold and write what the log holds (up to ``until``), reading ``page_size`` events at a
        time and writing after about every ``batch`` while catching up; whether anything was there.

        Before the log's end (or ``until``) a batch is written only where a change ends, the next
        event beginning another (``ViewsProjection.ends_changes``): so the last event read waits for
        the next, and a runner stopped after a write, or a rebuild of some parts up to the position
        written, never cuts a change in two. ``until`` is such a position, or the log's end when the
        rebuild began. A ``stop`` ends the catch-up at the next change's end.

        (Reading the next page in another thread while this one is folded measured slower:
        both threads want the GIL.)
        """
        projection, source = self.projection, self.source
        folded = 0
        found = False
        whole = True
        ahead: list[tuple[Any, int]] = []  # read, not folded yet: the event after those folded
        while until is None or projection.applied < until:
            stopping = stop is not None and stop.is_set()
            read = source.read(ahead[-1][1] if ahead else projection.applied, page_size)
            end = len(read) < page_size
            page = ahead + read
            if until is not None and page and page[-1][1] > until:
                beyond = next(i for i, entry in enumerate(page) if entry[1] > until)
                page, ahead, end = page[:beyond], page[beyond : beyond + 1], True
            elif end:
                ahead = []
            else:
                page, ahead = page[:-1], page[-1:]
            if page:
                found = True
                before = projection.applied
                projection.apply(page)
                folded += len(page)
                if progress is not None:
                    progress(projection.applied - before)
            whole = not ahead or projection.ends_changes(ahead[0][0])
            if end:
                break
            if whole and (stopping or folded >= batch):
                projection.flush()
                folded = 0
                if stopping:
                    break
        projection.flush(whole=whole)
        return found

    def run(self, stop: threading.Event) -> None:
        """Follow the log until ``stop`` is set (waiting first for any other runner to stop)."""
        failures = 0
        fresh = False  # whether memory agrees with the store (after a failure it may be ahead)
        checked = 0.0
        # a failure recorded and not cleared yet (an earlier runner may have left one)
        recorded = True
        try:
            while not stop.is_set():
                try:
                    if not self.lock.acquire():
                        stop.wait(1.0)
                        continue
                    if time.monotonic() - checked > LOCK_CHECK_SECONDS:
                        self.lock.check()
                        checked = time.monotonic()
                    if not fresh:
                        self.projection.reset()
                        fresh = True
                    found = self.catch_up(stop=stop)
                    if recorded:
                        self.views.runner_failures.recovered()
                        recorded = False
                    failures = 0
                    if not found:
                        self.source.wait(stop)
                    elif self.gather:
                        stop.wait(self.gather)
                except Exception as error:
                    pause = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                    self._failed(error, pause)
                    recorded = True
                    failures += 1
                    fresh = False
                    self.lock.release()  # its connection may be the one that failed: take it anew
                    stop.wait(pause)
        finally:
            self.lock.release()

    def _failed(self, error: Exception, pause: float) -> None:
        """Log the failure with where it happened, count it, and record it for ``/ready``."""
        if isinstance(error, FoldFailed):
            stage, position = "fold", error.position
            reason = (
                f"event {position} ({error.event_type} of {error.originator_id}) "
                f"could not be folded ({error.cause})"
            )
            where = {"event_type": error.event_type, "originator_id": str(error.originator_id)}
        else:
            stage, position = "store", self.projection.position
            reason = f"the store failed after position {position} ({type(error).__name__})"
            where = {}
        log.error(
            "projection %s failed: %s; starting again in %ss",
            NAME,
            reason,
            pause,
            exc_info=error,
            extra={"projection": NAME, "position": position, "stage": stage, **where},
        )
        metrics.projection_failed(stage)
        now = time.time()
        try:
            self.views.runner_failures.failed(
                RunnerFailure(position=position, reason=reason, since=now, latest=now)
            )
        except Exception as recording:
            # the store itself is away: /ready finds the database not answering instead
            log.warning("projection %s: failure not recorded (%s)", NAME, type(recording).__name__)

    def close(self) -> None:
        self.lock.release()
        self.source.close()
        close_views(self.views)


class Running:
    """A runner in a background thread of this process."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self._stop = threading.Event()
        self._thread = threading.Thread(target=runner.run, args=(self._stop,), name=f"projection-{NAME}")
        self._thread.daemon = True
        self._thread.start()

    @property
    def position(self) -> int:
        """The last position written."""
        return self.runner.position

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        self.runner.close()


def start_projections(settings: Settings) -> Running:
    """Keep the read models up to date in a background thread of this process."""
    return Running(Runner(settings))


def run_projections(settings: Settings, stop: threading.Event | None = None) -> None:
    """Keep the read models up to date until ``stop`` is set (for ``maumau projections run``)."""
    runner = Runner(settings)
    try:
        runner.run(stop or threading.Event())
    finally:
        runner.close()


def rebuild(
    settings: Settings, progress: Callable[[int], None] | None = None, parts: Collection[str] = ()
) -> int:
    """Fold the log into read models made anew, and put them in place of the live ones; the position
    reached.

    The fold goes into a store aside (``aside``); only when every part of it folded every event
    does one transaction swap it in, so readers see the old read models until then and a rebuild
    that fails changes nothing: it raises ``RebuildFailed`` naming the event, or what the store
    raised. Refused with ``RunnerBusy`` while a runner holds the projection: stop it first. The
    tables are made even where ``MAUMAU_CREATE_TABLES=no`` leaves table-making to ``maumau db init``.

    ``parts``: rebuild only these parts and those fed by them (``parts.rebuilt_with``), the repair of
    a stale part: the log is folded up to the live store's position (held still by the lock), only
    their tables are swapped and only their stale marks cleared; the other tables are not touched.
    Refused with ``RebuildRefused`` when one of them is fed by a part that is stale and not rebuilt
    (it would be fed nothing from there on).
    """
    settings = msgspec.structs.replace(settings, create_tables=True)
    lock = RunnerLock(settings)
    if not lock.acquire():
        raise RunnerBusy(f"a projection runner is running the {NAME!r} projection: stop it first")
    try:
        live = open_views(settings, connections=1)  # the live tables, for a store never made
        try:
            until, rebuilt = _scope(live, parts)
        finally:
            close_views(live)
        # the parts whose rows land in the swapped tables (all, for a whole rebuild): each must fold
        # every event soundly
        needed = {*rebuilt, *aside.writers(aside.tables_of(rebuilt))} if rebuilt else set(PARTS)
        aside.prepare(settings)
        try:
            runner = Runner(settings, aside=True)
            try:
                with _fewer_collections():
                    runner.catch_up(runner.source.last() if until is None else until, progress)
                stale = [found for name, found in runner.projection.stale.items() if name in needed]
                if stale:
                    raise RebuildFailed(min(stale, key=lambda found: found.position))
                position = runner.position
            finally:
                runner.close()
            aside.swap(settings, rebuilt)
            return position
        except BaseException:
            aside.discard(settings)
            raise
    finally:
        lock.release()


def _scope(live: Views, parts: Collection[str]) -> tuple[int | None, tuple[str, ...]]:
    """How far a rebuild of ``parts`` folds (None: the whole log) and the parts it replaces (none:
    all); refused when a part it replaces is fed by a stale part it does not."""
    if not parts:
        return None, ()
    rebuilt = rebuilt_with(parts)
    stale = {found.view for found in live.stale_views()}
    for part in rebuilt:
        for feeder in feeding(part):
            if feeder in stale and feeder not in rebuilt:
                raise RebuildRefused(
                    f"{part} is fed by {feeder}, which is stale: rebuild {feeder} with it "
                    f"(--part {feeder}), or the whole read models"
                )
    return live.position(), rebuilt


@contextlib.contextmanager
def _fewer_collections() -> Iterator[None]:
    """Run the cyclic garbage collector less often, for a while.

    A rebuild makes millions of objects, many of which live on (the games in memory, the
    batch); by default the collector runs every 700 allocations and scans the survivors
    again and again (a rebuild measured 17% faster with these thresholds).
    """
    before = gc.get_threshold()
    gc.set_threshold(100_000, 50, 100)
    try:
        yield
    finally:
        gc.set_threshold(*before)
