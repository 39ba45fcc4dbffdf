"""The read models' position in this process, told by the runner instead of asked for.

On PostgreSQL the runner ``NOTIFY``s the position with each batch it writes,
in the batch's transaction (so the note arrives once the rows are
committed). ``PositionWatch`` is one thread per process that ``LISTEN``s and
keeps the last position told; a reader waiting for its own write wakes the
moment the runner has written it, and nobody asks the database again and
again (waiting by polling cost a query every few milliseconds per waiting
request, and woke up to the poll interval late).

The watch is only trusted while it listens: until it has connected, and
whenever its connection breaks, ``latest`` is None and callers ask the
database as before. It reads the position once just after each ``LISTEN``,
so nothing written in between is missed. Positions are taken as told, not
as a maximum: a rebuild starts the read models again from 0.
"""

import logging
import threading
from collections.abc import Callable

import psycopg
from psycopg.sql import SQL, Identifier

log = logging.getLogger(__name__)

# how long the thread waits for a note before it looks whether it is to stop, and after a broken
# connection before it connects again
_TICK = 1.0


def channel_for(schema: str) -> str:
    """The channel the runner notifies in: one per schema (one per deployment)."""
    return f"maumau_views_{schema}"[:63]  # PostgreSQL's identifier length


class PositionWatch:
    def __init__(self, url: str, channel: str, read_position: Callable[[], int]) -> None:
        self._url = url
        self._channel = channel
        self._read_position = read_position
        self._changed = threading.Condition()
        self._latest: int | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, name="maumau-position-watch", daemon=True)
        self._thread.start()

    @property
    def latest(self) -> int | None:
        """The position the read models last told (None while the watch is not listening)."""
        return self._latest

    def wait_for(self, position: int, timeout: float) -> int | None:
        """The position once it is ``position`` or more, or when ``timeout`` seconds passed; None
        when the watch is not listening (the caller then asks the database)."""
        with self._changed:
            self._changed.wait_for(
                lambda: self._latest is None or self._latest >= position or self._stop.is_set(),
                timeout,
            )
            return self._latest

    def close(self) -> None:
        self._stop.set()
        self._told(None)
        self._thread.join(timeout=2 * _TICK)

    def _told(self, position: int | None) -> None:
        with self._changed:
            self._latest = position
            self._changed.notify_all()

    def _listen(self) -> None:
        listen(
            self._url,
            self._channel,
            listening=lambda: self._told(self._read_position()),  # after LISTEN: a later write is a note
            told=lambda payload: self._told(int(payload)),
            lost=self._lost,
            stop=self._stop,
        )

    def _lost(self, error: Exception) -> None:
        if self._latest is not None:
            log.warning("the read models' position watch stopped listening: %s", type(error).__name__)
        self._told(None)


def listen(
    url: str,
    channel: str,
    *,
    listening: Callable[[], None],
    told: Callable[[str], None],
    lost: Callable[[Exception], None],
    stop: threading.Event,
) -> None:
    """``LISTEN`` on ``channel`` until ``stop`` is set, connecting again after a break.

    ``listening`` is called once each ``LISTEN`` holds (what was written before it is not
    told), ``told`` with each note's payload, ``lost`` when the connection broke.
    """
    while not stop.is_set():
        try:
            with psycopg.connect(url, autocommit=True, application_name="maumau:watch") as conn:
                conn.execute(SQL("LISTEN {}").format(Identifier(channel)))
                listening()
                while not stop.is_set():
                    for note in conn.notifies(timeout=_TICK):
                        told(note.payload)
        except Exception as error:  # the thread must go on: its callers fall back meanwhile
            lost(error)
            stop.wait(_TICK)
