"""The games: their documents, the players' histories, the standings, the lists and the bot turns.

Tables:

- ``views_games``: per game, the projection's own state of it (``fold.StoredGame``, so a restart
  does not fold the log again) and its documents (``render.GameDoc``);
- ``views_history``: per player and game, the player's line (``render.Played``);
- ``views_standings``: per league and member, the sums of ``standings.STATS`` (zeros from the
  admission on: ``leagues``), changed by adding the difference a match makes (a void subtracts it
  again; Mao matches add theirs: ``mao``);
- ``views_bot_turns``: per game a bot is to move in (neither over nor paused), when the game's last
  event was stored (Unix time), and per game whose person to move is under a turn clock, when that
  clock runs out: the tick's look for games whose bots or clocks were not told
  (``stalled_bot_turns``; a row is deleted when the game's turn passes to a person or it ends);
- ``views_game_list``: per game, its league, the log position of its creation (newest first: the
  order ``GET /games`` lists games in) and its status (``playing``, ``paused``, ``abandoned``,
  ``over``);
- ``views_disputes``: per game paused by a dispute, the dispute (the domain's ``Dispute``) and when
  it was raised (Unix time: the order ``GET /disputes`` lists them in, the longest waiting first);
  deleted when the dispute is ruled on.

The fold keeps games in memory between batches (a game moved fifty times in a batch is drawn and
written once); a game not in memory is read back from its row, every such game of a batch at once
when the first is missed. A game created for a tournament's table without a turn clock of its own takes the
tournament's. A game's list row and open dispute are written when its status or dispute changes,
not at every move; its bot-turn row, in the same transaction as its documents.
"""

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar
from uuid import UUID

import msgspec

from service.domain.game import Game
from service.persistence.dialect import Dialect
from service.projections.fold import Finished, Tracked, rated_seats
from service.projections.hooks import turn_of
from service.projections.parts import CORE, RATINGS
from service.projections.render import contribution, game_doc, played, turn_deadline
from service.projections.standings import STATS
from service.projections.views import base
from service.projections.views.changes import Changing, Follows
from service.projections.views.tournaments import TournamentsFold

# games kept in memory between batches (finished games are let go at once; any game is read
# back from its row when an event for it comes)
CACHED_GAMES = 5_000

_encode = msgspec.msgpack.Encoder().encode


def starts_change(event: Any, last: Any) -> bool:
    """Whether a game's event is the first of a change, ``last`` the game's event before it: a
    change's first event names its cause, the facts and chance that follow it name none; a seat
    forfeited names none either, and is a change of its own unless a timed-out turn led to it."""
    if isinstance(event, Game.SeatForfeited):
        return not isinstance(last, Game.TurnTimedOut)
    return getattr(event, "cause", None) is not None


def create(d: Dialect) -> list[str]:
    t, uuid, blob, integer = d.table, d.uuid, d.blob, d.integer
    stats = ", ".join(f"{name} {integer} NOT NULL DEFAULT 0" for name in STATS)
    return [
        f"CREATE TABLE IF NOT EXISTS {t('games')} "
        f"(game_id {uuid} PRIMARY KEY, state {blob} NOT NULL, doc {blob} NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {t('history')} (player_id {uuid} NOT NULL, game_id {uuid} NOT NULL, "
        f"created {integer} NOT NULL, doc {blob} NOT NULL, PRIMARY KEY (player_id, game_id))",
        f"CREATE TABLE IF NOT EXISTS {t('standings')} (league_id {uuid} NOT NULL, "
        f"player_id {uuid} NOT NULL, {stats}, PRIMARY KEY (league_id, player_id))",
        f"CREATE TABLE IF NOT EXISTS {t('bot_turns')} (game_id {uuid} PRIMARY KEY, since {d.real} NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {t('game_list')} (game_id {uuid} PRIMARY KEY, league_id {uuid}, "
        f"created {integer} NOT NULL, status text NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {t('disputes')} (game_id {uuid} PRIMARY KEY, league_id {uuid}, "
        f"number {integer} NOT NULL, raised {d.real} NOT NULL, doc {blob} NOT NULL)",
        # the orders the lists page through (the ``*_page`` queries), under their filters
        f"CREATE INDEX IF NOT EXISTS {d.prefix}_history_newest ON {t('history')} (player_id, created DESC)",
        f"CREATE INDEX IF NOT EXISTS {d.prefix}_game_list_newest ON {t('game_list')} (created DESC)",
        f"CREATE INDEX IF NOT EXISTS {d.prefix}_game_list_league ON {t('game_list')} "
        "(league_id, created DESC)",
        f"CREATE INDEX IF NOT EXISTS {d.prefix}_disputes_raised ON {t('disputes')} (raised, game_id)",
    ]


def statements(d: Dialect) -> dict[str, str]:
    t, ph = d.table, d.ph
    stats = ", ".join(STATS)
    added = ", ".join(f"{name} = {t('standings')}.{name} + excluded.{name}" for name in STATS)
    return {
        "game": f"INSERT INTO {t('games')} VALUES ({d.marks(3)}) "
        "ON CONFLICT (game_id) DO UPDATE SET state = excluded.state, doc = excluded.doc",
        "history": f"INSERT INTO {t('history')} VALUES ({d.marks(4)}) "
        "ON CONFLICT (player_id, game_id) DO UPDATE SET doc = excluded.doc",
        "standing": f"INSERT INTO {t('standings')} (league_id, player_id, {stats}) "
        f"VALUES ({d.marks(2 + len(STATS))}) ON CONFLICT (league_id, player_id) DO UPDATE SET {added}",
        "bot_turn": f"INSERT INTO {t('bot_turns')} VALUES ({ph}, {ph}) "
        "ON CONFLICT (game_id) DO UPDATE SET since = excluded.since",
        "no_bot_turn": f"DELETE FROM {t('bot_turns')} WHERE game_id = {ph}",
        "listed": f"INSERT INTO {t('game_list')} VALUES ({d.marks(4)}) "
        "ON CONFLICT (game_id) DO UPDATE SET status = excluded.status",
        # the same dispute seen again (a game read back after a restart) keeps its place in the list
        "dispute": f"INSERT INTO {t('disputes')} VALUES ({d.marks(5)}) "
        "ON CONFLICT (game_id) DO UPDATE SET number = excluded.number, raised = excluded.raised, "
        f"doc = excluded.doc WHERE {t('disputes')}.number <> excluded.number",
        "no_dispute": f"DELETE FROM {t('disputes')} WHERE game_id = {ph}",
        "states": f"SELECT game_id, state FROM {t('games')} WHERE game_id",
        "doc": f"SELECT doc, {base.tracked_position(d)} AS position FROM {t('games')} WHERE game_id = {ph}",
        "history_of": f"SELECT doc FROM {t('history')} WHERE player_id = {ph} ORDER BY created DESC",
        "standings_of": f"SELECT s.player_id, p.name, {', '.join('s.' + name for name in STATS)} "
        f"FROM {t('standings')} s LEFT JOIN {t('players')} p ON p.player_id = s.player_id "
        # a member with no finished match (none yet, or every one voided) is a row of zeros
        f"WHERE s.league_id = {ph}",
        "stalled_bot_turns": f"SELECT game_id FROM {t('bot_turns')} WHERE since < {ph} "
        f"ORDER BY since LIMIT {ph}",
    }


class GamesFold(Follows, base.Fold):
    part = CORE
    tables = ("games", "history", "standings", "bot_turns", "game_list", "disputes")
    writes = ("game", "history", "standing", "bot_turn", "no_bot_turn", "listed", "dispute", "no_dispute")

    def __init__(self, folds: base.Folds) -> None:
        super().__init__(folds)
        self.games: dict[int, Tracked] = {}  # by the game id's int: hashing a UUID object costs a call
        self.dirty: dict[int, Tracked] = {}
        # league games not rated yet that first finished in this batch, in the order they did (rated
        # so): their seats taken at the finish, so a ruling later in the same batch changes nothing of
        # what is rated, and the ratings are the same whatever the batches (live, a rebuild)
        self.finished: dict[int, Finished] = {}
        # the game the last game event was folded into (the webhooks' and the notices' folds read it)
        self.folded: Tracked | None = None
        self._batch: Sequence[tuple[Any, int]] = ()
        self._read_back = False
        self._tournaments = folds.of(TournamentsFold)
        # the changes not known to be whole yet (``changes``): a person's turn when one is
        self._changing: Changing[Tracked] = Changing(starts_change, turn_of, self._tournaments.person_plays)

    def begin(self, batch: Sequence[tuple[Any, int]]) -> None:
        self._batch = batch
        self._read_back = False  # whether the batch's games not in memory were read back

    def _restore(self) -> None:
        """Read back from their rows every game of the batch not in memory, in one query (a game of
        the batch not found stays unknown: its events cannot be folded)."""
        self._read_back = True
        games = self.games
        missing: dict[int, UUID] = {}
        created: set[int] = set()
        for event, _ in self._batch:
            if isinstance(event, Game.Event):
                key = event.originator_id.int
                if isinstance(event, Game.Created):
                    created.add(key)
                elif key not in games and key not in created:
                    missing[key] = event.originator_id
        if missing:
            for game_id, state in self.folds.store.load_states(missing.values()):
                games[game_id.int] = Tracked.restore(game_id, state)

    def created(self, event: Any, position: int) -> None:
        key = event.originator_id.int
        tracked = self.games[key] = Tracked.created(event, position)
        self._changing.created(key, tracked, event, position)
        table = tracked.game.table
        if table is not None and tracked.game.turn_clock is None:
            table_of = self._tournaments.tournament(table.tournament_id)
            tracked.ledger.turn_clock = None if table_of is None else table_of.tournament.plan.turn_clock
        self.dirty[key] = tracked

    def game_event(self, event: Any, position: int) -> None:
        key = event.originator_id.int
        tracked = self.games.get(key)
        if tracked is None:
            tracked = self._missed(key, position)
        game = tracked.game
        # (no need to forget it when the fold fails: the webhooks and notices go stale with this part)
        self.folded = tracked
        self._changing.fold(key, tracked, event, position)
        tracked.apply(event)
        self.dirty[key] = tracked
        if (
            tracked.results_changed
            and game.over
            and game.league_id is not None
            and not tracked.ledger.rated
            and key not in self.finished
            and RATINGS not in self.folds.stale
        ):
            self.finished[key] = (position, tracked, rated_seats(tracked))

    def _missed(self, key: int, position: int) -> Tracked:
        """A game not in memory: read back (with the batch's others), else unknown."""
        if not self._read_back:
            try:
                self._restore()
            except base.STORE_ERRORS:
                raise
            except Exception as error:
                raise base.ReadBackFailed(f"the games of the batch from position {position} on") from error
            tracked = self.games.get(key)
            if tracked is not None:
                return tracked
        raise base.ProjectionError(f"event {position} is for a game the read models do not know")

    reads: ClassVar[base.Reads] = {Game.Created: created, Game.Event: game_event, object: Follows.passing}

    def spoil(self, event: Any) -> None:
        # what is in memory of the event's game is half folded: never written
        self.dirty.pop(event.originator_id.int, None)
        self.games.pop(event.originator_id.int, None)
        self._changing.forget(event.originator_id.int)

    def flush(self, changes: base.Changes) -> None:
        self._changing.flush(changes.whole)
        deltas: dict[tuple[UUID, UUID], list[int]] = {}
        history, games, bot_turns = changes.to("history"), changes.to("game"), changes.to("bot_turn")
        for tracked in self.dirty.values():
            game = tracked.game
            facts = tracked.ledger.in_force()
            if tracked.results_changed:
                history += [
                    (player_id, game.id, tracked.ledger.created, _encode(line))
                    for player_id, line in played(tracked, facts)
                ]
                _count(tracked, contribution(tracked, facts), deltas)
                tracked.results_changed = False
            games.append((game.id, tracked.image(), _encode(game_doc(tracked, facts))))
            due = None
            if not game.over and not game.paused and game.abandoned is None:
                if game.bot_for(game.seat_to_move) is not None:
                    due = game.modified_on
                else:
                    due = turn_deadline(tracked, game.seat_to_move)
            if due is not None:
                bot_turns.append((game.id, due.timestamp()))
                tracked.bot_turn_row = True
            elif tracked.bot_turn_row is not False:
                changes.to("no_bot_turn").append((game.id,))
                tracked.bot_turn_row = False
            _list(tracked, changes)
        changes.to("standing").extend((league, player, *stats) for (league, player), stats in deltas.items())

    def written(self) -> None:
        self._changing.written()
        games = self.games
        for tracked in self.dirty.values():
            if tracked.game.over or tracked.game.abandoned is not None:
                games.pop(tracked.game.id.int, None)
        while len(games) > CACHED_GAMES:
            del games[next(iter(games))]
        self.dirty = {}
        self.finished = {}


def _list(tracked: Tracked, changes: base.Changes) -> None:
    """The game's list row and open dispute, when its status or dispute changed."""
    game = tracked.game
    # a dispute may be raised about a finished game too: it is paused until the ruling
    status = (
        "paused"
        if game.paused
        else "abandoned"
        if game.abandoned is not None
        else "over"
        if game.over
        else "playing"
    )
    dispute = game.dispute
    listed = (status, 0 if dispute is None else dispute.number)
    if tracked.listed == listed:
        return
    changes.to("listed").append((game.id, game.league_id, tracked.ledger.created, status))
    if dispute is not None:
        # nothing but a ruling happens to a paused game: its last event is the dispute's
        raised = game.modified_on.timestamp()
        changes.to("dispute").append((game.id, game.league_id, dispute.number, raised, _encode(dispute)))
    elif tracked.listed is None or tracked.listed[1]:
        changes.to("no_dispute").append((game.id,))
    tracked.listed = listed


def _count(
    tracked: Tracked, after: list[tuple[Any, ...]] | None, deltas: dict[tuple[UUID, UUID], list[int]]
) -> None:
    """Put the difference the game's contribution makes to its league's standings into ``deltas``."""
    before = tracked.ledger.counted
    if before == after:
        return
    league = tracked.game.league_id
    assert league is not None
    for rows, sign in ((before or [], -1), (after or [], 1)):
        for player, *stats in rows:
            sums = deltas.setdefault((league, UUID(player)), [0] * len(STATS))
            for index, value in enumerate(stats):
                sums[index] += sign * value
    tracked.ledger.counted = after


class Queries(base.Store):
    def game_doc(self, game_id: UUID) -> tuple[bytes, int] | None:
        rows = self.query("doc", (base.APPLICATION, game_id))
        return (bytes(rows[0][0]), rows[0][1] or 0) if rows else None

    def history_docs(self, player_id: UUID) -> list[bytes]:
        return [bytes(row[0]) for row in self.query("history_of", (player_id,))]

    def standing_rows(self, league_id: UUID) -> list[base.Row]:
        return self.query("standings_of", (league_id,))

    def stalled_bot_turns(self, older_than: float, limit: int) -> list[UUID]:
        """Games a bot is to move in whose last event was stored before ``older_than`` (Unix time),
        the longest waiting first."""
        return [base.as_uuid(row[0]) for row in self.query("stalled_bot_turns", (older_than, limit))]

    def load_states(self, game_ids: Iterable[UUID]) -> list[tuple[UUID, bytes]]:
        """The stored state of those of these games the store holds (``fold.StoredGame``)."""
        raise NotImplementedError

    def game_page(
        self,
        league_id: UUID | None,
        player_id: UUID | None,
        status: str | None,
        after: int | None,
        limit: int,
    ) -> list[base.Row]:
        """(game_id, created, status, doc), newest first (by the position of their creation)."""
        t, ph = self._table, self._ph
        joins, conditions = "", []
        params: list[Any] = []
        if player_id is not None:
            # every player seated has a history row from the game's creation on
            joins = f" JOIN {t('history')} h ON h.game_id = g.game_id AND h.player_id = {ph}"
            params.append(player_id)
        for column, value in (("league_id", league_id), ("status", status)):
            if value is not None:
                conditions.append(f"g.{column} = {ph}")
                params.append(value)
        if after is not None:
            conditions.append(f"g.created < {ph}")
            params.append(after)
        sql = (
            f"SELECT g.game_id, g.created, g.status, d.doc FROM {t('game_list')} g "
            f"JOIN {t('games')} d ON d.game_id = g.game_id{joins}{base.where(conditions)} "
            f"ORDER BY g.created DESC LIMIT {ph}"
        )
        return self.select(sql, [*params, limit])

    def dispute_page(
        self, referee: str | None, after: tuple[float, UUID] | None, limit: int
    ) -> list[base.Row]:
        """(game_id, raised, league_id, doc) of open disputes, the longest waiting first; ``referee``:
        only those of friendly games and of the leagues that referee referees (None: all)."""
        filters = []
        if referee is not None:
            refereed = (
                f"(league_id IS NULL OR league_id IN (SELECT league_id FROM {self._table('league_people')} "
                f"WHERE person = {self._ph} AND role = 'referee'))"
            )
            filters.append((refereed, [referee]))
        return self.keyset_page(
            "game_id, raised, league_id, doc", "disputes", ("raised", "game_id"), filters, after, limit
        )


VIEW = base.View(name="games", create=create, statements=statements, fold=GamesFold)
