"""Games followed live by this process: a seat's view pushed the moment a command is stored.

The read models answer from what the runner last wrote, a moment after the
store. A player waiting for their turn wants their view at once, without
asking again and again (``GET /games/{id}/me/stream``). For each game a
stream of this process follows, ``LiveGames`` keeps the projection's own
fold of it (``fold.Tracked``: the game and its ledger, restored from the
runner's last image of it, then folded on from the event store), folds in
each command's events when it is told of them, renders the views as the
runner renders them (``render``) and hands each stream its own seat's view,
never another's. A seat's view is rendered only when a stream of this process
follows that seat (the API's workers each hold some of a game's streams).

Told how: every batch the store commits sends a note carrying the events in
it, or naming its aggregates when they do not fit (``persistence.group_commit``);
a thread per process ``LISTEN``s (``watch.listen``) and hands the notes to the
fold thread. It folds the events a note carries into the followed games they
continue, and reads from the store only what the notes did not carry (a game
named without its events, or whose events do not follow on from its fold).
Without notes (SQLite), or while the listener is down, the fold thread looks
at every followed game every ``POLL_SECONDS``, and this process's own saves
are told to it directly. (The notes are read in ``live_notes``; a stream's handles,
``Subscription`` and ``Waiter``, are ``subscriptions``.)

A stream gets the newest view: a reader slower than the game skips views,
never gets an old one after a newer. A reader of a game's events (the public
stream) only ``watch``es it: woken by the same notes, it reads them with
``events_after``, which reads once for all the game's readers asking from the
same event since their last wake (a hundred spectators of a final: one query
per move, not a hundred); a Mao match's streams share one read of the whole
match the same way (``shared``).
"""

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

import msgspec

from service.application import MauMau
from service.persistence.newest import NewEvents, Stored
from service.projections.current import restored
from service.projections.fold import Tracked
from service.projections.live_notes import ALL, follows_on, read_notes
from service.projections.models import LegalMove
from service.projections.reader import named, player_ids
from service.projections.render import hand, public_table
from service.projections.store import Views
from service.projections.subscriptions import BROKEN, Subscription, View, Waiter
from service.projections.watch import listen

log = logging.getLogger(__name__)

POLL_SECONDS = 0.25  # without notes: how often the followed games are looked at
NAMES_SECONDS = 5.0  # how long a followed game's player names are used before they are read again

_encode = msgspec.json.Encoder().encode

T = TypeVar("T")


class _Read:
    """One read of a game's events (from one event on, or its whole log), shared by the readers asking
    for it."""

    __slots__ = ("done", "failed", "noted", "value")

    def __init__(self, noted: int) -> None:
        self.noted = noted  # the notes that had named the game when it began: it holds their events
        self.done = threading.Event()
        self.value: Any = None
        self.failed = False


class _SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """A ``HandView`` with its table encoded already (the same for every seat)."""

    game_id: UUID
    seat: int
    cards: list[str]
    drawn: str | None
    legal: list[LegalMove]
    table: msgspec.Raw
    position: int


class _Followed:
    __slots__ = (
        "lock",
        "named_at",
        "names",
        "over",
        "position",
        "subscriptions",
        "table",
        "tracked",
        "views",
    )

    def __init__(self, tracked: Tracked) -> None:
        self.tracked = tracked
        self.lock = threading.Lock()  # one fold at a time
        self.subscriptions: list[Subscription] = []
        self.names: dict[UUID, str] = {}
        self.named_at = -NAMES_SECONDS
        self.table: msgspec.Raw | None = None  # the public table as last folded, encoded
        self.over = False
        # per seat, rendered only for the seats streamed in this process (each worker holds some)
        self.views: dict[int, View] = {}
        self.position = 0  # the log position of the last event folded in

    def view(self, game_id: UUID, seat: int) -> View:
        """``seat``'s view as last folded (under ``lock``)."""
        found = self.views.get(seat)
        if found is None:
            assert self.table is not None, "rendered after the first fold"
            seen = hand(self.tracked, seat)
            seat_view = _SeatView(
                game_id=game_id,
                seat=seat,
                cards=seen.cards,
                drawn=seen.drawn,
                legal=seen.legal,
                table=self.table,
                position=self.position,
            )
            found = self.views[seat] = View(self.tracked.game.version, _encode(seat_view), self.over)
        return found


class LiveGames:
    def __init__(self, app: MauMau, views: Views, url: str | None, poll: float = POLL_SECONDS) -> None:
        """``url``: the PostgreSQL database to listen to (None: SQLite, no notes)."""
        self.app = app
        self.views = views
        self.poll = poll
        self._followed: dict[UUID, _Followed] = {}
        self._waiters: dict[UUID, set[Waiter]] = {}
        # the games followed or watched, by their ids as a note writes them: a note is matched by a
        # lookup per name, not by writing out every followed game's id for every note
        self._keys: dict[str, UUID] = {}
        self._noted: dict[UUID, int] = {}  # per watched game: the notes that named it
        self._reads: dict[UUID, dict[int, _Read]] = {}  # per watched game, by their key (``shared``)
        self._lock = threading.Lock()
        self.new_events = NewEvents(app)
        self._notes: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._listening = False
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._fold_told, name="maumau-live", daemon=True)]
        if url is not None:
            # eventsourcing types the recorder as the base class; with a URL it is PostgreSQL's, which has it
            channel = app.recorder.channel_name  # type: ignore[attr-defined]
            self._threads.append(
                threading.Thread(
                    target=self._listen, args=(url, channel), name="maumau-live-listen", daemon=True
                )
            )
        else:
            app.on_saved.append(self.told)  # a game of any kind
        for thread in self._threads:
            thread.start()

    def follow(self, game_id: UUID, seat: int, loop: asyncio.AbstractEventLoop) -> Subscription:
        """A new stream of ``seat``'s view; the view now is its first (blocking: call it in a thread)."""
        subscription = Subscription(game_id, seat, loop)
        while True:
            with self._lock:
                followed = self._followed.get(game_id)
            if followed is None:
                loaded = _Followed(restored(self.app, self.views, game_id))
                with self._lock:
                    followed = self._followed.setdefault(game_id, loaded)
                    self._keys[str(game_id)] = game_id
            with followed.lock:
                with self._lock:
                    if self._followed.get(game_id) is not followed:
                        continue  # its last stream let it go meanwhile: follow it afresh
                    followed.subscriptions.append(subscription)
                try:
                    changed = self._fold_in(game_id, followed)
                except BaseException:
                    self.leave(subscription)
                    raise
                # what this fold brought in is new to the other streams too: the note that told of
                # it finds nothing left to fold
                for each in list(followed.subscriptions) if changed else [subscription]:
                    each.offer(followed.view(game_id, each.seat))
                return subscription

    def leave(self, subscription: Subscription) -> None:
        game_id = subscription.game_id
        with self._lock:
            followed = self._followed.get(game_id)
            # a stream ended by a failed fold may leave after a new stream followed the game afresh:
            # the new fold is not its own
            if followed is not None and subscription in followed.subscriptions:
                followed.subscriptions.remove(subscription)
                if followed.subscriptions:
                    return
                del self._followed[game_id]
            self._forget(game_id)

    def watch(self, game_id: UUID, loop: asyncio.AbstractEventLoop) -> "Waiter":
        """Woken whenever the game may have changed (for a reader of its events, not of views)."""
        waiter = Waiter(game_id, loop, self._noted_of)
        with self._lock:
            self._waiters.setdefault(game_id, set()).add(waiter)
            self._keys[str(game_id)] = game_id
        return waiter

    def unwatch(self, waiter: "Waiter") -> None:
        with self._lock:
            waiters = self._waiters.get(waiter.game_id, set())
            waiters.discard(waiter)
            if not waiters:
                self._waiters.pop(waiter.game_id, None)
                self._noted.pop(waiter.game_id, None)
                self._reads.pop(waiter.game_id, None)
                self._forget(waiter.game_id)

    def _forget(self, game_id: UUID) -> None:
        """(Under ``_lock``.) Its key, once the game is neither followed nor watched."""
        if game_id not in self._followed and game_id not in self._waiters:
            self._keys.pop(str(game_id), None)

    def events_after(self, waiter: "Waiter", after: int, limit: int) -> list[Any]:
        """The card game's stored events after number ``after`` (at most ``limit``), as
        ``MauMau.game_events`` reads them (blocking: call it in a thread), shared (``shared``) by the
        game's readers asking from the same event."""
        return self.shared(waiter, after, lambda: self.app.game_events(waiter.game_id, after, limit))

    def shared(self, waiter: "Waiter", key: int, read: Callable[[], T]) -> T:
        """What ``read`` answers of the waiter's game (blocking: call it in a thread). A read that began
        after the waiter's last ``clear`` holds every event stored before it, so the game's other
        readers asking with the same ``key`` (the card game's: the event they read after; a Mao
        match's: always 0, its whole log) share it rather than read again."""
        game_id = waiter.game_id
        with self._lock:
            reads = self._reads.setdefault(game_id, {})
            found = reads.get(key)
            leading = found is None or found.noted < waiter.seen
            if leading:
                found = _Read(self._noted.get(game_id, 0))
                # a read with another key, or begun before a later note, serves no one new
                reads.clear()
                reads[key] = found
        assert found is not None
        if not leading:
            found.done.wait()
            if not found.failed:
                answer: T = found.value
                return answer
            return read()  # the shared read failed: try alone
        try:
            value = found.value = read()
        except BaseException:
            found.failed = True
            raise
        finally:
            found.done.set()
        return value

    def _noted_of(self, game_id: UUID) -> int:
        return self._noted.get(game_id, 0)

    def told(self, note: Any) -> None:
        """The aggregates a note names (their ids, space-separated; ``ALL``: unknown) were stored."""
        self._notes.put(str(note))

    def close(self) -> None:
        self._stop.set()
        self._notes.put(ALL)
        for thread in self._threads:
            thread.join(timeout=2)

    # ------------------------------------------------------------------

    def _fold_in(
        self, game_id: UUID, followed: _Followed, stored: list[tuple[Any, int]] | None = None
    ) -> bool:
        """Fold the events stored since (read now unless given) and render the views; whether anything
        was new."""
        tracked = followed.tracked
        if stored is None or not follows_on(stored, tracked.game.version):
            # not given, or carried by notes that do not continue the fold (a note was missed): read
            # from the store
            stored = self.new_events.after({game_id: tracked.game.version})[game_id]
        # a stream that opened meanwhile may have folded some of them
        stored = [
            (event, position) for event, position in stored if event.originator_version > tracked.game.version
        ]
        if not stored and followed.table is not None:
            return False
        for event, position in stored:
            tracked.apply(event)
            followed.position = position
        facts = tracked.ledger.in_force()
        table = public_table(tracked, facts)
        now = time.monotonic()
        if now - followed.named_at > NAMES_SECONDS:
            followed.names = self.views.names(player_ids(table))
            followed.named_at = now
        table = named(table, followed.names, followed.position)
        followed.table = msgspec.Raw(_encode(table))  # encoded once for every seat's view
        followed.over = table.over or table.abandoned is not None  # either way nothing more comes
        followed.views = {}
        return True

    def _fold_told(self) -> None:
        while not self._stop.is_set():
            try:
                notes = [self._notes.get(timeout=None if self._listening else self.poll)]
            except queue.Empty:
                notes = [ALL]
            while not self._notes.empty():  # what came meanwhile is looked at once
                notes.append(self._notes.get())
            carried, named = read_notes(notes)
            with self._lock:
                if ALL in named:
                    games = list(self._keys.values())
                else:
                    games = [self._keys[name] for name in named if name in self._keys]
                    games += [
                        game_id
                        for game_id in carried
                        if game_id in self._followed or game_id in self._waiters
                    ]
                games = list(dict.fromkeys(games))
                followed = {game_id: f for game_id in games if (f := self._followed.get(game_id)) is not None}
                waiting: list[Waiter] = []
                for game_id in games:
                    waiters = self._waiters.get(game_id)
                    if waiters:
                        # counted before the wake: a read begun from now on holds what this note told of
                        self._noted[game_id] = self._noted.get(game_id, 0) + 1
                        waiting.extend(waiters)
            for waiter in waiting:
                waiter.wake()
            if not followed:
                continue
            # a game some note named without its events is read; the others fold what the notes carried
            stored: dict[UUID, Stored] = {}
            unread = {
                game_id: f.tracked.game.version
                for game_id, f in followed.items()
                if ALL in named or game_id not in carried or str(game_id) in named
            }
            try:
                if unread:
                    stored = self.new_events.after(unread)
                decode = self.app.mapper.to_domain_event
                for game_id in followed.keys() - unread.keys():
                    stored[game_id] = [(decode(event), position) for event, position in carried[game_id]]
            except Exception:
                log.exception("the followed games could not be read: all are read again in a moment")
                self._stop.wait(self.poll)
                self._notes.put(ALL)
                continue
            for game_id, each in followed.items():
                try:
                    with each.lock:
                        if not self._fold_in(game_id, each, stored[game_id]):
                            continue
                        offers = [(sub, each.view(game_id, sub.seat)) for sub in each.subscriptions]
                except Exception:
                    log.exception("a followed game could not be brought up to date: its streams end")
                    with self._lock:
                        self._followed.pop(game_id, None)
                        self._forget(game_id)
                    for subscription in list(each.subscriptions):
                        subscription.offer(BROKEN)
                    continue
                for subscription, view in offers:
                    subscription.offer(view)

    def _listen(self, url: str, channel: str) -> None:
        def listening() -> None:
            self._listening = True
            self._notes.put(ALL)  # what was stored before the LISTEN held

        def lost(error: Exception) -> None:
            if self._listening:
                log.warning("live games stopped listening for notes: %s", type(error).__name__)
            self._listening = False
            self._notes.put(ALL)  # wakes the fold thread into polling

        listen(url, channel, listening=listening, told=self.told, lost=lost, stop=self._stop)
