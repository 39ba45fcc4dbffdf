"""The Mao matches. Tables:

- ``views_mao_list``: per match its league, the log position of its start (newest first: the order
  ``GET /mao-games`` lists them in), its status (``playing``, ``over``) and its list row
  (``mao.Listed``: rounds dealt, rounds won per seat, the winner). The end of a match adds to its
  players' standings (``games``' ``views_standings``).
- ``views_mao_bot_turns``: per match a bot (or a forfeited seat's stand-in) is to move in, when its
  last event was stored (Unix time): the tick's look for matches whose bots' step was lost
  (``stalled_mao_turns``, beside the card games' ``stalled_bot_turns``).

A match in play is kept in memory, folded event by event, until it ends; one not in memory is read
back from the event store at the event's version (``Folds.match_at``). The turns a change leaves a
person (``turns``, which the notices read) are judged over the change whole: a bot's turn is
saved as several decisions (its play, then each call it says), and a turn its play passes on and
its call takes away (the call ended the round) was never a person's; nor is one told again when
the stock is recycled in the middle of a penalty (``starts_change``).
"""

from typing import Any, ClassVar
from uuid import UUID

import msgspec

from service.domain.mao.aggregate import BOT_BY, SERVER_BY, MaoGame
from service.domain.mao.autoplay import bot_to_move, seat_to_move
from service.domain.mao.events import CallMade, Spoke, StockRecycled
from service.persistence.dialect import Dialect
from service.projections.mao import Listed, changes_list, match_rows
from service.projections.parts import MAO
from service.projections.views import base
from service.projections.views.changes import Changing, Follows
from service.projections.views.games import CACHED_GAMES

_encode = msgspec.msgpack.Encoder().encode


def create(d: Dialect) -> list[str]:
    listed = d.table("mao_list")
    return [
        f"CREATE TABLE IF NOT EXISTS {listed} (game_id {d.uuid} PRIMARY KEY, "
        f"league_id {d.uuid} NOT NULL, created {d.integer} NOT NULL, status text NOT NULL, "
        f"doc {d.blob} NOT NULL)",
        f"CREATE INDEX IF NOT EXISTS {d.prefix}_mao_list_league ON {listed} (league_id, created DESC)",
        f"CREATE TABLE IF NOT EXISTS {d.table('mao_bot_turns')} "
        f"(game_id {d.uuid} PRIMARY KEY, since {d.real} NOT NULL)",
    ]


def statements(d: Dialect) -> dict[str, str]:
    turns, ph = d.table("mao_bot_turns"), d.ph
    return {
        "mao_listed": f"INSERT INTO {d.table('mao_list')} VALUES ({d.marks(5)}) "
        "ON CONFLICT (game_id) DO UPDATE SET status = excluded.status, doc = excluded.doc",
        "mao_bot_turn": f"INSERT INTO {turns} VALUES ({ph}, {ph}) "
        "ON CONFLICT (game_id) DO UPDATE SET since = excluded.since",
        "no_mao_bot_turn": f"DELETE FROM {turns} WHERE game_id = {ph}",
        "stalled_mao_turns": f"SELECT game_id FROM {turns} WHERE since < {ph} ORDER BY since LIMIT {ph}",
    }


def starts_change(event: Any, last: Any) -> bool:
    """Whether a match's event begins a change. Two kinds of decision go on with the change before
    them, as they are saved with it: a bot's calls after its play (``autoplay.bot_turn``) and the
    server's recycle of the stock while cards are owed (``autoplay.settle_chance``). Any other act
    begins one; where nobody is on turn between two (a round's end, a deal) it makes no difference.
    (``last``, the match's event before it, tells nothing more here.)"""
    if not isinstance(event, MaoGame.Decided) or not event.facts:
        return True
    first = event.facts[0]
    if event.by == BOT_BY:
        return not isinstance(first, CallMade | Spoke)
    return not (event.by == SERVER_BY and isinstance(first, StockRecycled))


def _person(game: MaoGame, seat: int) -> bool:
    return not game.is_bot(seat)


class _Match:
    """A match in play as the fold keeps it: the match itself, and whether its bot-turn row is
    written (None: not known, after a read back)."""

    def __init__(self, game: MaoGame, bot_turn_row: bool | None) -> None:
        self.game = game
        self.bot_turn_row = bot_turn_row


class MaoFold(Follows, base.Fold):
    part = MAO
    tables = ("mao_list", "mao_bot_turns")
    writes = ("mao_listed", "mao_bot_turn", "no_mao_bot_turn")

    def __init__(self, folds: base.Folds) -> None:
        super().__init__(folds)
        self.matches: dict[UUID, _Match] = {}  # in play, by id
        self.dirty: dict[UUID, _Match] = {}  # changed in this batch
        # the match the last event was folded into (None: that event was not folded)
        self.folded: MaoGame | None = None
        # the changes not known to be whole yet (``changes``): a person's turn when one is
        self._changing: Changing[_Match] = Changing(starts_change, seat_to_move, _person)

    def started(self, event: Any, position: int) -> None:
        match = self.matches[event.originator_id] = _Match(event.mutate(None), False)
        self.folded = match.game
        self._changing.created(event.originator_id, match, event, position)
        self._listed(match, position)

    def decided(self, event: Any, position: int) -> None:
        """Any decision may put a bot on turn or take it off; one that dealt or ended a round
        changes the list row, and the end of the match adds to the standings."""
        match = self._folded(event, position)
        if match is None or not changes_list(event):
            return
        listed = Listed.of(match.game)
        rows = match_rows(listed.seats, event, listed.round_no)
        self.folds.changes.to("standing").extend((listed.league_id, player, *stats) for player, stats in rows)
        self._listed(match, position)

    def forfeited(self, event: Any, position: int) -> None:
        self._folded(event, position)

    reads: ClassVar[base.Reads] = {
        MaoGame.Started: started,
        MaoGame.Decided: decided,
        MaoGame.SeatForfeited: forfeited,
        object: Follows.passing,
    }

    def _folded(self, event: Any, position: int) -> "_Match | None":
        match_id = event.originator_id
        self.folded = None
        match = self.matches.get(match_id)
        if match is None and self.folds.match_at is not None:
            # read back as it was before the event, so the turn before it is known too
            read_back = self.folds.match_at(match_id, event.originator_version - 1)
            match = self.matches[match_id] = _Match(read_back, None)
        if match is not None:
            self._changing.fold(match_id, match, event, position)
            match.game = event.mutate(match.game)
        elif changes_list(event):
            raise base.ProjectionError(f"event {position} is for a Mao match the read models do not know")
        else:
            return None  # no store to read it back from (nor a row of the list to change)
        self.folded = match.game
        self.dirty[match_id] = match
        return match

    def _listed(self, match: _Match, position: int) -> None:
        listed = Listed.of(match.game)
        self.folds.changes.to("mao_listed").append(
            (listed.game_id, listed.league_id, position, listed.status, _encode(listed))
        )

    def flush(self, changes: base.Changes) -> None:
        self._changing.flush(changes.whole)
        for match in self.dirty.values():
            game = match.game
            if bot_to_move(game) is not None:
                changes.to("mao_bot_turn").append((game.id, game.modified_on.timestamp()))
                match.bot_turn_row = True
            elif match.bot_turn_row is not False:
                changes.to("no_mao_bot_turn").append((game.id,))
                match.bot_turn_row = False

    def spoil(self, event: Any) -> None:
        self.matches.pop(event.originator_id, None)
        self.dirty.pop(event.originator_id, None)
        self._changing.forget(event.originator_id)

    def written(self) -> None:
        self._changing.written()
        for match_id, match in self.dirty.items():
            if match.game.over:
                self.matches.pop(match_id, None)
        while len(self.matches) > CACHED_GAMES:  # a match let go is read back when it next changes
            del self.matches[next(iter(self.matches))]
        self.dirty = {}


class Queries(base.Store):
    def mao_page(
        self, league_id: UUID | None, status: str | None, after: int | None, limit: int
    ) -> list[base.Row]:
        """(created, doc) of Mao matches, newest first (by the position of their start)."""
        return self.newest_page("created, doc", "mao_list", league_id, status, after, limit)

    def stalled_mao_turns(self, older_than: float, limit: int) -> list[UUID]:
        """Matches a bot is to move in whose last event was stored before ``older_than`` (Unix
        time), the longest waiting first."""
        return [base.as_uuid(row[0]) for row in self.query("stalled_mao_turns", (older_than, limit))]


VIEW = base.View(name="mao", create=create, statements=statements, fold=MaoFold)
