"""A game's own reads as the game is now: its table, a seat's view and its totals, read your own writes.

The read models answer from what the runner last wrote, a moment after the
store: right after ``201`` from ``POST /games`` the game could be missing
there, and right after a move a seat's view could be the one before it, so
a client that trusted it sent the old version and got ``409``.
``CurrentGames`` answers a game's own reads from the event store instead,
which holds every command the moment its commit returns, in every process
(``docs/consistency.md``).

Each read brings this process's fold of the game (``fold.Tracked``, kept for
the ``CACHED`` games read last) up to date with the events stored since
(``persistence.newest``: one query, none new most of the time), and renders
it as the runner renders its documents (``render``); a game not folded here
yet starts from the runner's last image of it, else from its first event.
The player names are the read models' (read at each read, as the reader
does); a player they do not know yet is read from the store, so a game's
seats are named the moment it is created.
"""

import threading
from collections import OrderedDict
from uuid import UUID

import msgspec

from service.application import MauMau
from service.persistence.newest import NewEvents, Stored
from service.projections.fold import Tracked
from service.projections.models import HandView, MatchTotals, PublicTable
from service.projections.reader import hand_view, match_totals, named, player_ids
from service.projections.render import GameDoc, game_doc
from service.projections.store import Views

CACHED = 1000  # games whose fold this process keeps between reads


def restored(app: MauMau, views: Views, game_id: UUID) -> Tracked:
    """The game as the runner last stored it, else folded from its first event (an unknown game:
    ``game_not_found``)."""
    for _, image in views.load_states([game_id]):
        return Tracked.restore(game_id, image)
    first, *rest = app.game_events(game_id)
    tracked = Tracked.created(first, 0)
    # the runner takes a table's turn clock from its tournament's plan when the game is created
    table = tracked.game.table
    if table is not None:
        tracked.ledger.turn_clock = app.get_tournament(table.tournament_id).plan.turn_clock
    for event in rest:
        tracked.apply(event)
    return tracked


class _Fold:
    __slots__ = ("doc", "lock", "position", "tracked")

    def __init__(self, tracked: Tracked, position: int) -> None:
        self.tracked = tracked
        self.position = position  # a log position the fold holds every event of the game up to
        self.doc: GameDoc | None = None  # rendered at ``position``; None: not yet
        self.lock = threading.Lock()  # one fold at a time


class CurrentGames:
    """Thread-safe: a lock per game, held while its fold is brought up to date."""

    def __init__(self, app: MauMau, views: Views, size: int = CACHED) -> None:
        self.app = app
        self.views = views
        self.size = size
        self.new_events = NewEvents(app)
        self._folds: OrderedDict[UUID, _Fold] = OrderedDict()
        self._lock = threading.Lock()

    def table(self, game_id: UUID) -> PublicTable:
        return self._now(game_id)[0].table

    def hand(self, game_id: UUID, seat: int) -> HandView:
        """``seat`` must be one of the game's (the caller checked it against the game's seats)."""
        return hand_view(game_id, *self._now(game_id), seat)

    def totals(self, game_id: UUID) -> MatchTotals:
        return match_totals(game_id, *self._now(game_id))

    def _now(self, game_id: UUID) -> tuple[GameDoc, int]:
        """The game's documents with every event stored before this call folded in, and their position."""
        fold = self._fold(game_id)
        with fold.lock:
            tracked = fold.tracked
            stored: Stored = self.new_events.after({game_id: tracked.game.version})[game_id]
            for event, position in stored:
                tracked.apply(event)
                fold.position = position
            if stored or fold.doc is None:
                fold.doc = game_doc(tracked, tracked.ledger.in_force())
            doc, position = fold.doc, fold.position
        table = named(doc.table, self._names(player_ids(doc.table)), position)
        return msgspec.structs.replace(doc, table=table), position

    def _names(self, ids: list[UUID]) -> dict[UUID, str]:
        """The read models' names; a player they do not know yet (created a moment ago) from the store."""
        names = self.views.names(ids)
        for player_id in ids:
            if player_id not in names:
                names[player_id] = self.app.get_player(player_id).name
        return names

    def _fold(self, game_id: UUID) -> _Fold:
        with self._lock:
            found = self._folds.get(game_id)
            if found is not None:
                self._folds.move_to_end(game_id)
                return found
        # read first: the fold below holds every event up to it (the log commits in position order)
        head = self.app.recorder.max_notification_id() or 0
        fold = _Fold(restored(self.app, self.views, game_id), head)
        with self._lock:
            fold = self._folds.setdefault(game_id, fold)
            self._folds.move_to_end(game_id)
            while len(self._folds) > self.size:
                self._folds.popitem(last=False)
        return fold
