"""A live stream's handles: the newest seat view a stream is to send (``Subscription``), and the
wake of a reader of a game's events (``Waiter``). ``live.LiveGames`` makes them and offers or wakes
them from its fold thread; each is read on its stream's event loop.
"""

import asyncio
import contextlib
from collections.abc import Callable
from uuid import UUID

import msgspec


class View(msgspec.Struct, frozen=True):
    """One seat's view as a stream sends it: the game's version, the JSON of a ``HandView``."""

    version: int
    data: bytes  # empty: the stream ends without another view (its game could not be followed)
    over: bool


BROKEN = View(1 << 62, b"", True)


class Subscription:
    """One stream's seat and the newest view not yet sent to it."""

    __slots__ = ("_loop", "_newest", "_ready", "_sent", "game_id", "seat")

    def __init__(self, game_id: UUID, seat: int, loop: asyncio.AbstractEventLoop) -> None:
        self.game_id = game_id
        self.seat = seat
        self._loop = loop
        self._ready = asyncio.Event()
        self._newest: View | None = None
        self._sent = -1  # the version of the last view taken

    def offer(self, view: View) -> None:
        """From any thread."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: its streams are gone
            self._loop.call_soon_threadsafe(self._take, view)

    def _take(self, view: View) -> None:
        if view.version > self._sent and (self._newest is None or view.version >= self._newest.version):
            self._newest = view
            self._ready.set()

    async def next(self, timeout: float) -> View | None:
        """The newest view once there is one not sent yet; None after ``timeout`` seconds without."""
        try:
            await asyncio.wait_for(self._ready.wait(), timeout)
        except TimeoutError:
            return None
        self._ready.clear()
        view, self._newest = self._newest, None
        if view is not None:
            self._sent = view.version
        return view


class Waiter:
    """A reader of one game's events, woken when a note names the game (or names nothing)."""

    __slots__ = ("_changed", "_loop", "_noted", "game_id", "seen")

    def __init__(self, game_id: UUID, loop: asyncio.AbstractEventLoop, noted: Callable[[UUID], int]) -> None:
        self.game_id = game_id
        self._loop = loop
        self._noted = noted
        self._changed = asyncio.Event()
        self.seen = 0  # how many notes had named the game at the last ``clear``

    def wake(self) -> None:
        """From any thread."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: its streams are gone
            self._loop.call_soon_threadsafe(self._changed.set)

    def clear(self) -> None:
        """Before each read: a change from now on wakes the next ``changed``."""
        self._changed.clear()
        self.seen = self._noted(self.game_id)

    async def changed(self, timeout: float) -> bool:
        """Whether the game may have changed since ``clear``, within ``timeout`` seconds."""
        deadline = self._loop.time() + timeout
        # a wake sent before ``clear`` may run after it: its note was counted before, and a read
        # begun after ``clear`` holds what it told of
        while self._noted(self.game_id) <= self.seen:
            try:
                await asyncio.wait_for(self._changed.wait(), deadline - self._loop.time())
            except TimeoutError:
                return False
            self._changed.clear()
        return True
