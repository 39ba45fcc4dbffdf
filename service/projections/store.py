"""Where the read models live: tables written with their tracking record in one transaction.

``PostgresViews`` is an eventsourcing ``PostgresTrackingRecorder`` and
``SQLiteViews`` an ``SQLiteTrackingRecorder`` (the embedded default, in its
own file beside the event store, so the projection never waits for the
application's writer). Both keep the same tables (``views_*``; on PostgreSQL
in ``MAUMAU_DATABASE_SCHEMA``) and answer the same queries; only placeholders
and id types differ. ``write`` stores a whole batch of changes and the last
position applied in one transaction: the single-row tracking record refuses
a position that is not past the stored one, so a batch is applied once or
not at all.

Tables:

- ``views_games``: per game, the projection's own state of it (``fold.StoredGame``,
  so a restart does not fold the log again) and its documents (``render.GameDoc``);
- ``views_history``: per player and game, the player's line (``render.Played``);
- ``views_standings``: per league and member, the sums of ``standings.STATS`` (zeros from
  the admission on), changed by adding the difference a match makes (a void subtracts it again);
- ``views_ratings``: per league and player, the rating (``domain.rating``: mu, sigma) and the
  matches rated; ``views_rating_history``: per league, player and rated match, the rating after it
  (its log position orders them);
- ``views_players``, ``views_leagues``: names (a player's also case-folded, ``folded``, which the
  search compares: the same folding on both stores, for every script), and each league's ruleset and
  order; a players' table made before the folded name had it is given it when the tables are made
  (``_fold_names``);
- ``views_tournaments``: per tournament, the projection's own state of it
  (``tournaments.StoredTournament``), its status and its bracket (a ``TournamentView``);
- ``views_seats``: per player, tournament and round, the player's table and seat, the
  table's game once made and whether its result is in (the next-game read);
- ``views_bot_turns``: per game a bot is to move in (neither over nor paused), when the game's
  last event was stored (Unix time), and per game whose person to move is under a turn clock,
  when that clock runs out: the tick's look for games whose bots or clocks were not told
  (``stalled_bot_turns``; a row is deleted when the game's turn passes to a person or it ends);
- ``views_webhooks``: per webhook, what the projection needs of it (``hooks.HookState``: its
  league, events, players, whether it is enabled) to know which events make deliveries;
- ``views_game_list``: per game, its league, the log position of its creation (newest first:
  the order ``GET /games`` lists games in) and its status (``playing``, ``paused``, ``over``);
- ``views_mao_list``: per Mao match, its league, the log position of its start (newest first:
  the order ``GET /mao-games`` lists them in), its status (``playing``, ``over``) and its list
  row (``mao.Listed``: rounds dealt, rounds won per seat, the winner);
- ``views_disputes``: per game paused by a dispute, the dispute (the domain's ``Dispute``) and
  when it was raised (Unix time: the order ``GET /disputes`` lists them in, the longest waiting
  first); deleted when the dispute is ruled on;
- ``views_league_people``: per league, its members and referees (``role``: ``member``, ``referee``),
  which ``GET /me`` and ``GET /disputes`` read;
- ``views_runner``: a row while the runner is failing (``RunnerFailure``: where, why, how
  often, since when), written by the runner outside the batch's transaction and deleted
  by its next good batch, so that any process's ``/ready`` learns of it.

And two tables that are no read models: ``views_token_use``, when each token was last
used (``service.http.auth`` writes it at most once an hour per token and process), and
``views_written``, the log position of each actor's last write (``service.http.consistency``:
a read of the read models by the same actor waits until they applied it; on PostgreSQL an
unlogged table, emptied by a crash, which only means the next reads wait for nothing).
They are kept here, outside the event log, so a use or a write costs no event, and a rebuild
of the read models keeps them (they cannot be rebuilt from the log). The webhook
deliveries and their attempts (``deliveries``) are kept by a rebuild likewise: written by
the projection once each, their sending is recorded nowhere else; a batch that folds a
player's erasure rewrites the deliveries' payloads naming them (``deliveries.erase_names``),
and on SQLite truncates the file's write-ahead log after it (``erasure.truncate_wal``).
So are the web pages' sessions (``views_sessions``: ``sessions``), which only the API writes.
"""

import contextlib
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import InfrastructureFactory, PersistenceError, Tracking, TrackingRecorder
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder
from eventsourcing.utils import Environment
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Composed, Identifier

from service.persistence import notes, runner_failures, sessions
from service.persistence.dialect import Dialect
from service.persistence.erasure import truncate_wal
from service.persistence.notes import LastWrites, TokenUses
from service.persistence.runner_failures import RunnerFailures
from service.projections import deliveries
from service.projections.standings import STATS
from service.projections.watch import channel_for
from service.settings import Settings

NAME = "views"  # the projection's name: its tables are views_*
APPLICATION = "maumau"  # the application whose log it follows (the tracking record's name)
SQLITE_FILE_NAME = "projections.sqlite3"
ASIDE_FILE_NAME = "projections.rebuild.sqlite3"  # what a rebuild fills before it takes the live file's place
TABLES = (
    "games",
    "history",
    "standings",
    "players",
    "leagues",
    "tournaments",
    "seats",
    "bot_turns",
    "webhooks",
    "runner",  # the runner's failure (``runner_failures``): of the store it was written to
    "game_list",
    "disputes",
    "league_people",
    "ratings",
    "rating_history",
    "mao_list",
    "stale",
)
SEAT_COLUMNS = "entrant, tournament_id, round_no, table_no, seat, game_id, finished"
# what the store keeps that is no read model (``service.persistence``): a rebuild keeps it
KEPT = (notes, sessions)


class Changes(msgspec.Struct, kw_only=True):
    """One batch: every row to write, as parameter tuples in the tables' column order."""

    position: int = 0
    players: list[tuple[UUID, str]] = msgspec.field(default_factory=list)
    leagues: list[tuple[UUID, str, str, str]] = msgspec.field(default_factory=list)
    games: list[tuple[UUID, bytes, bytes]] = msgspec.field(default_factory=list)  # id, state, doc
    history: list[tuple[UUID, UUID, int, bytes]] = msgspec.field(default_factory=list)
    standings: list[tuple[Any, ...]] = msgspec.field(default_factory=list)  # league, player, STATS
    # id, league, created, status, state, doc
    tournaments: list[tuple[UUID, UUID, int, str, bytes, bytes]] = msgspec.field(default_factory=list)
    seats: list[tuple[Any, ...]] = msgspec.field(default_factory=list)  # as SEAT_COLUMNS
    bot_turns: list[tuple[UUID, float]] = msgspec.field(default_factory=list)  # id, since
    no_bot_turns: list[tuple[UUID]] = msgspec.field(default_factory=list)  # a person to move, or over, paused
    webhooks: list[tuple[UUID, UUID, bytes]] = msgspec.field(default_factory=list)  # id, league, state
    deliveries: list[tuple[Any, ...]] = msgspec.field(default_factory=list)  # as deliveries.DELIVERY_COLUMNS
    listed: list[tuple[UUID, UUID | None, int, str]] = msgspec.field(
        default_factory=list
    )  # id, league, created, status
    # id, league, the dispute's number, when it was raised, its document
    disputes: list[tuple[UUID, UUID | None, int, float, bytes]] = msgspec.field(default_factory=list)
    no_disputes: list[tuple[UUID]] = msgspec.field(default_factory=list)  # ruled on, or never raised
    league_people: list[tuple[UUID, str, str]] = msgspec.field(default_factory=list)  # league, person, role
    no_league_people: list[tuple[UUID, str, str]] = msgspec.field(default_factory=list)  # removed members
    # league, player, mu, sigma, matches (ids as text, as ``ratings.RatingsFold`` keeps them)
    ratings: list[tuple[str, str, float, float, int]] = msgspec.field(default_factory=list)
    # league, player, game, position, mu, sigma, place, clock_played
    rating_history: list[tuple[Any, ...]] = msgspec.field(default_factory=list)
    # Mao matches: id, league, created, status, doc (``mao.Listed``)
    mao_listed: list[tuple[UUID, UUID, int, str, bytes]] = msgspec.field(default_factory=list)
    # players erased: their names leave the stored deliveries after this batch's are in
    erased: list[UUID] = msgspec.field(default_factory=list)
    # views that could not fold an event of this batch: name, position, reason, since
    stale: list[tuple[str, int, str, float]] = msgspec.field(default_factory=list)

    def rows(self) -> list[tuple[str, list[Any]]]:
        """Each statement with its rows, in the order they are written."""
        return [
            ("player", [(player_id, name, folded(name)) for player_id, name in self.players]),
            ("league", self.leagues),
            ("game", self.games),
            ("history", self.history),
            ("standing", self.standings),
            ("tournament", self.tournaments),
            ("seat", self.seats),
            ("bot_turn", self.bot_turns),
            ("no_bot_turn", self.no_bot_turns),
            ("webhook", self.webhooks),
            ("delivery", self.deliveries),
            ("listed", self.listed),
            ("dispute", self.disputes),
            ("no_dispute", self.no_disputes),
            ("league_person", self.league_people),
            ("no_league_person", self.no_league_people),
            ("rating", self.ratings),
            ("rating_history", self.rating_history),
            ("mao_listed", self.mao_listed),
            ("stale", self.stale),
        ]


class StaleView(msgspec.Struct, frozen=True, kw_only=True):
    """A view that could not fold an event: from ``position`` on its rows are not kept up to date."""

    view: str
    position: int  # the event it could not fold
    reason: str  # names only types (the event's, the error's) and ids: /ready shows it
    since: float  # Unix time


class LeagueRow(msgspec.Struct, frozen=True):
    name: str
    ruleset: str
    order: str


def _statements(table: Any, tracking: Any, ph: str, holds: str) -> dict[str, str]:
    """The queries, with ``table(name)`` giving a table's qualified name, ``ph`` the placeholder and
    ``holds`` the store's test that a payload holds a placeholder's bytes."""
    stats = ", ".join(STATS)
    added = ", ".join(f"{name} = {table('standings')}.{name} + excluded.{name}" for name in STATS)
    marks = ", ".join([ph] * (2 + len(STATS)))
    position = f"(SELECT notification_id FROM {tracking} WHERE application_name = {ph})"
    return {
        "player": f"INSERT INTO {table('players')} (player_id, name, folded) VALUES ({ph}, {ph}, {ph}) "
        "ON CONFLICT (player_id) DO UPDATE SET name = excluded.name, folded = excluded.folded",
        "league": f"INSERT INTO {table('leagues')} VALUES ({ph}, {ph}, {ph}, {ph}) "
        "ON CONFLICT (league_id) DO UPDATE SET name = excluded.name, ruleset = excluded.ruleset, "
        "standings_order = excluded.standings_order",
        "game": f"INSERT INTO {table('games')} VALUES ({ph}, {ph}, {ph}) "
        "ON CONFLICT (game_id) DO UPDATE SET state = excluded.state, doc = excluded.doc",
        "history": f"INSERT INTO {table('history')} VALUES ({ph}, {ph}, {ph}, {ph}) "
        "ON CONFLICT (player_id, game_id) DO UPDATE SET doc = excluded.doc",
        "standing": f"INSERT INTO {table('standings')} (league_id, player_id, {stats}) VALUES ({marks}) "
        f"ON CONFLICT (league_id, player_id) DO UPDATE SET {added}",
        "states": f"SELECT game_id, state FROM {table('games')} WHERE game_id",
        "doc": f"SELECT doc, {position} AS position FROM {table('games')} WHERE game_id = {ph}",
        "position": f"SELECT {position} AS position",
        "history_of": f"SELECT doc FROM {table('history')} WHERE player_id = {ph} ORDER BY created DESC",
        "league_of": f"SELECT name, ruleset, standings_order, {position} AS position "
        f"FROM {table('leagues')} WHERE league_id = {ph}",
        "standings_of": f"SELECT s.player_id, p.name, {', '.join('s.' + name for name in STATS)} "
        f"FROM {table('standings')} s LEFT JOIN {table('players')} p ON p.player_id = s.player_id "
        # a member with no finished match (none yet, or every one voided) is a row of zeros
        f"WHERE s.league_id = {ph}",
        "names": f"SELECT player_id, name FROM {table('players')} WHERE player_id",
        "tournament": f"INSERT INTO {table('tournaments')} VALUES ({ph}, {ph}, {ph}, {ph}, {ph}, {ph}) "
        "ON CONFLICT (tournament_id) DO UPDATE SET status = excluded.status, state = excluded.state, "
        "doc = excluded.doc",
        "seat": f"INSERT INTO {table('seats')} ({SEAT_COLUMNS}) VALUES ({', '.join([ph] * 7)}) "
        "ON CONFLICT (entrant, tournament_id, round_no) DO UPDATE SET table_no = excluded.table_no, "
        "seat = excluded.seat, game_id = excluded.game_id, finished = excluded.finished",
        "bot_turn": f"INSERT INTO {table('bot_turns')} VALUES ({ph}, {ph}) "
        "ON CONFLICT (game_id) DO UPDATE SET since = excluded.since",
        "no_bot_turn": f"DELETE FROM {table('bot_turns')} WHERE game_id = {ph}",
        "stalled_bot_turns": f"SELECT game_id FROM {table('bot_turns')} WHERE since < {ph} "
        f"ORDER BY since LIMIT {ph}",
        "tournament_state": f"SELECT state FROM {table('tournaments')} WHERE tournament_id = {ph}",
        "tournament_doc": f"SELECT doc, {position} AS position FROM {table('tournaments')} "
        f"WHERE tournament_id = {ph}",
        "open_tournaments": f"SELECT tournament_id FROM {table('tournaments')} "
        "WHERE status IN ('announced', 'running') ORDER BY created",
        "league_tournaments": f"SELECT doc FROM {table('tournaments')} WHERE league_id = {ph} "
        "ORDER BY created",
        "seats_of": f"SELECT tournament_id, round_no, table_no, seat, game_id FROM {table('seats')} "
        f"WHERE entrant = {ph} AND finished = 0",
        # the first failure of a view is the one kept: the view is stale from there on
        "stale": f"INSERT INTO {table('stale')} VALUES ({ph}, {ph}, {ph}, {ph}) "
        "ON CONFLICT (view) DO NOTHING",
        "stale_views": f"SELECT view, position, reason, since FROM {table('stale')} ORDER BY position, view",
        "tournaments_of": f"SELECT DISTINCT tournament_id FROM {table('seats')} WHERE entrant = {ph}",
        "listed": f"INSERT INTO {table('game_list')} VALUES ({ph}, {ph}, {ph}, {ph}) "
        "ON CONFLICT (game_id) DO UPDATE SET status = excluded.status",
        "mao_listed": f"INSERT INTO {table('mao_list')} VALUES ({ph}, {ph}, {ph}, {ph}, {ph}) "
        "ON CONFLICT (game_id) DO UPDATE SET status = excluded.status, doc = excluded.doc",
        # the same dispute seen again (a game read back after a restart) keeps its place in the list
        "dispute": f"INSERT INTO {table('disputes')} VALUES ({ph}, {ph}, {ph}, {ph}, {ph}) "
        "ON CONFLICT (game_id) DO UPDATE SET number = excluded.number, raised = excluded.raised, "
        f"doc = excluded.doc WHERE {table('disputes')}.number <> excluded.number",
        "no_dispute": f"DELETE FROM {table('disputes')} WHERE game_id = {ph}",
        "league_person": f"INSERT INTO {table('league_people')} VALUES ({ph}, {ph}, {ph}) "
        "ON CONFLICT (league_id, role, person) DO NOTHING",
        "no_league_person": f"DELETE FROM {table('league_people')} "
        f"WHERE league_id = {ph} AND person = {ph} AND role = {ph}",
        "webhook": f"INSERT INTO {table('webhooks')} VALUES ({ph}, {ph}, {ph}) "
        "ON CONFLICT (hook_id) DO UPDATE SET state = excluded.state",
        "webhook_states": f"SELECT state FROM {table('webhooks')}",
        **deliveries.statements(table, ph, holds),
        "rating": f"INSERT INTO {table('ratings')} VALUES ({ph}, {ph}, {ph}, {ph}, {ph}) "
        "ON CONFLICT (league_id, player_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
        "matches = excluded.matches",
        "rating_history": f"INSERT INTO {table('rating_history')} VALUES ({', '.join([ph] * 8)}) "
        "ON CONFLICT (league_id, player_id, game_id) DO NOTHING",
        "ratings_of": f"SELECT r.player_id, p.name, r.mu, r.sigma, r.matches, {position} AS position "
        f"FROM {table('ratings')} r LEFT JOIN {table('players')} p ON p.player_id = r.player_id "
        f"WHERE r.league_id = {ph}",
        "rating_of": f"SELECT player_id, mu, sigma, matches FROM {table('ratings')} "
        f"WHERE league_id = {ph} AND player_id",
        "rating_history_of": f"SELECT league_id, game_id, position, mu, sigma, place, clock_played "
        f"FROM {table('rating_history')} WHERE player_id = {ph} ORDER BY position DESC",
    }


def _kept_statements(d: Dialect) -> dict[str, str]:
    return {name: sql for module in (*KEPT, runner_failures) for name, sql in module.statements(d).items()}


def _kept_tables(d: Dialect) -> list[str]:
    return [sql for module in (*KEPT, runner_failures) for sql in module.create(d)]


def _tables(table: Any, uuid: str, blob: str, integer: str, real: str) -> list[str]:
    stats = ", ".join(f"{name} {integer} NOT NULL DEFAULT 0" for name in STATS)
    return [
        f"CREATE TABLE IF NOT EXISTS {table('games')} "
        f"(game_id {uuid} PRIMARY KEY, state {blob} NOT NULL, doc {blob} NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {table('history')} (player_id {uuid} NOT NULL, game_id {uuid} NOT NULL, "
        f"created {integer} NOT NULL, doc {blob} NOT NULL, PRIMARY KEY (player_id, game_id))",
        f"CREATE TABLE IF NOT EXISTS {table('standings')} (league_id {uuid} NOT NULL, "
        f"player_id {uuid} NOT NULL, {stats}, PRIMARY KEY (league_id, player_id))",
        f"CREATE TABLE IF NOT EXISTS {table('players')} (player_id {uuid} PRIMARY KEY, name text NOT NULL, "
        "folded text NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {table('leagues')} (league_id {uuid} PRIMARY KEY, name text NOT NULL, "
        "ruleset text NOT NULL, standings_order text NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {table('tournaments')} (tournament_id {uuid} PRIMARY KEY, "
        f"league_id {uuid} NOT NULL, created {integer} NOT NULL, status text NOT NULL, "
        f"state {blob} NOT NULL, doc {blob} NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {table('seats')} (entrant text NOT NULL, tournament_id {uuid} NOT NULL, "
        f"round_no {integer} NOT NULL, table_no {integer} NOT NULL, seat {integer} NOT NULL, "
        f"game_id {uuid}, finished {integer} NOT NULL, PRIMARY KEY (entrant, tournament_id, round_no))",
        f"CREATE TABLE IF NOT EXISTS {table('bot_turns')} (game_id {uuid} PRIMARY KEY, "
        f"since {real} NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {table('stale')} (view text PRIMARY KEY, position {integer} NOT NULL, "
        f"reason text NOT NULL, since {real} NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {table('game_list')} (game_id {uuid} PRIMARY KEY, league_id {uuid}, "
        f"created {integer} NOT NULL, status text NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {table('mao_list')} (game_id {uuid} PRIMARY KEY, "
        f"league_id {uuid} NOT NULL, created {integer} NOT NULL, status text NOT NULL, doc {blob} NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {table('disputes')} (game_id {uuid} PRIMARY KEY, league_id {uuid}, "
        f"number {integer} NOT NULL, raised {real} NOT NULL, doc {blob} NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {table('league_people')} (league_id {uuid} NOT NULL, "
        "person text NOT NULL, role text NOT NULL, PRIMARY KEY (league_id, role, person))",
        f"CREATE TABLE IF NOT EXISTS {table('webhooks')} (hook_id {uuid} PRIMARY KEY, "
        f"league_id {uuid} NOT NULL, state {blob} NOT NULL)",
        *deliveries.tables(table, uuid, blob, integer, real),
        f"CREATE TABLE IF NOT EXISTS {table('ratings')} (league_id {uuid} NOT NULL, "
        f"player_id {uuid} NOT NULL, "
        f"mu {real} NOT NULL, sigma {real} NOT NULL, matches {integer} NOT NULL, "
        "PRIMARY KEY (league_id, player_id))",
        f"CREATE TABLE IF NOT EXISTS {table('rating_history')} (league_id {uuid} NOT NULL, "
        f"player_id {uuid} NOT NULL, game_id {uuid} NOT NULL, position {integer} NOT NULL, "
        f"mu {real} NOT NULL, sigma {real} NOT NULL, place {integer} NOT NULL, "
        f"clock_played {integer} NOT NULL, PRIMARY KEY (league_id, player_id, game_id))",
    ]


def _indexes(table: Any) -> list[str]:
    """The indexes the lists page through (the ``*_page`` queries): each list's order, under its filters."""
    return [
        f"CREATE INDEX IF NOT EXISTS {NAME}_history_newest ON {table('history')} (player_id, created DESC)",
        f"CREATE INDEX IF NOT EXISTS {NAME}_game_list_newest ON {table('game_list')} (created DESC)",
        f"CREATE INDEX IF NOT EXISTS {NAME}_game_list_league ON {table('game_list')} "
        "(league_id, created DESC)",
        f"CREATE INDEX IF NOT EXISTS {NAME}_mao_list_league ON {table('mao_list')} (league_id, created DESC)",
        f"CREATE INDEX IF NOT EXISTS {NAME}_disputes_raised ON {table('disputes')} (raised, game_id)",
        f"CREATE INDEX IF NOT EXISTS {NAME}_league_people_person ON {table('league_people')} (person, role)",
        f"CREATE INDEX IF NOT EXISTS {NAME}_players_name ON {table('players')} (name, player_id)",
        f"CREATE INDEX IF NOT EXISTS {NAME}_tournaments_newest ON {table('tournaments')} (created DESC)",
    ]


class Views(TrackingRecorder):
    """The queries both stores answer (``PostgresViews`` and ``SQLiteViews`` run them)."""

    statements: dict[str, str]
    _table: Callable[[str], str]  # a table's qualified name
    _ph: str  # the placeholder

    def select(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """Run a query made here (the lists' queries depend on which filters are given)."""
        raise NotImplementedError

    def write(self, changes: Changes, tracking: Tracking) -> None:
        raise NotImplementedError

    def load_states(self, game_ids: Iterable[UUID]) -> list[tuple[UUID, bytes]]:
        raise NotImplementedError

    def query(self, name: str, params: Sequence[Any], suffix: str = "") -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def execute(self, name: str, params: Sequence[Any]) -> None:
        """Run one writing statement in a transaction of its own."""
        raise NotImplementedError

    def execute_all(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Run writing statements in one transaction."""
        raise NotImplementedError

    def change(self, name: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """Run one writing statement with a RETURNING clause in a transaction of its own: its rows."""
        raise NotImplementedError

    def drop(self) -> None:
        """Drop every table of the read models, the tracking record's too."""
        raise NotImplementedError

    def _in(self, count: int) -> str:
        raise NotImplementedError

    def position(self) -> int:
        return self.query("position", (APPLICATION,))[0][0] or 0

    @property
    def token_uses(self) -> TokenUses:
        return TokenUses(self)

    @property
    def last_writes(self) -> LastWrites:
        return LastWrites(self)

    @property
    def runner_failures(self) -> RunnerFailures:
        return RunnerFailures(self, NAME)

    def game_doc(self, game_id: UUID) -> tuple[bytes, int] | None:
        rows = self.query("doc", (APPLICATION, game_id))
        return (bytes(rows[0][0]), rows[0][1] or 0) if rows else None

    def history_docs(self, player_id: UUID) -> list[bytes]:
        return [bytes(row[0]) for row in self.query("history_of", (player_id,))]

    def league(self, league_id: UUID) -> tuple[LeagueRow, int] | None:
        rows = self.query("league_of", (APPLICATION, league_id))
        return (LeagueRow(*rows[0][:3]), rows[0][3] or 0) if rows else None

    def standing_rows(self, league_id: UUID) -> list[tuple[Any, ...]]:
        return self.query("standings_of", (league_id,))

    def tournament_state(self, tournament_id: UUID) -> bytes | None:
        rows = self.query("tournament_state", (tournament_id,))
        return bytes(rows[0][0]) if rows else None

    def tournament_doc(self, tournament_id: UUID) -> tuple[bytes, int] | None:
        rows = self.query("tournament_doc", (APPLICATION, tournament_id))
        return (bytes(rows[0][0]), rows[0][1] or 0) if rows else None

    def open_tournaments(self) -> list[UUID]:
        return [_as_uuid(row[0]) for row in self.query("open_tournaments", ())]

    def stalled_bot_turns(self, older_than: float, limit: int) -> list[UUID]:
        """Games a bot is to move in whose last event was stored before ``older_than`` (Unix time),
        the longest waiting first."""
        return [_as_uuid(row[0]) for row in self.query("stalled_bot_turns", (older_than, limit))]

    def league_tournament_docs(self, league_id: UUID) -> list[bytes]:
        return [bytes(row[0]) for row in self.query("league_tournaments", (league_id,))]

    def seats_of(self, entrant: str) -> list[tuple[UUID, int, int, int, UUID | None]]:
        return [
            (_as_uuid(tournament), round_no, table, seat, None if game is None else _as_uuid(game))
            for tournament, round_no, table, seat, game in self.query("seats_of", (entrant,))
        ]

    def stale_views(self) -> list[StaleView]:
        """The views that stopped at an event they could not fold (none while all are sound)."""
        return [
            StaleView(view=view, position=position, reason=reason, since=since)
            for view, position, reason, since in self.query("stale_views", ())
        ]

    def tournaments_of(self, entrant: str) -> list[UUID]:
        """The tournaments in which the entrant has had a table."""
        return [_as_uuid(row[0]) for row in self.query("tournaments_of", (entrant,))]

    # The lists: each page in a stable order, ``after`` the sort key of the last row of the page
    # before (keyset paging: a page costs the same however deep it is); ``limit`` rows at most.

    def player_page(
        self, search: str | None, after: tuple[str, UUID] | None, limit: int
    ) -> list[tuple[Any, ...]]:
        """(player_id, name) by name, then id; ``search``: a part of the name, in any case."""
        t, ph = self._table, self._ph
        where: list[str] = []
        params: list[Any] = []
        if search:
            where.append(f"folded LIKE {ph} ESCAPE '!'")
            params.append("%" + _escaped(folded(search)) + "%")
        if after is not None:
            where.append(f"(name, player_id) > ({ph}, {ph})")
            params += after
        sql = f"SELECT player_id, name FROM {t('players')}{_where(where)} ORDER BY name, player_id LIMIT {ph}"
        return self.select(sql, [*params, limit])

    def league_page(self, after: tuple[str, UUID] | None, limit: int) -> list[tuple[Any, ...]]:
        """(league_id, name, ruleset) by name, then id."""
        t, ph = self._table, self._ph
        where = [f"(name, league_id) > ({ph}, {ph})"] if after is not None else []
        sql = (
            f"SELECT league_id, name, ruleset FROM {t('leagues')}{_where(where)} "
            f"ORDER BY name, league_id LIMIT {ph}"
        )
        return self.select(sql, [*(after or ()), limit])

    def game_page(
        self,
        league_id: UUID | None,
        player_id: UUID | None,
        status: str | None,
        after: int | None,
        limit: int,
    ) -> list[tuple[Any, ...]]:
        """(game_id, created, status, doc), newest first (by the position of their creation)."""
        t, ph = self._table, self._ph
        joins, where = "", []
        params: list[Any] = []
        if player_id is not None:
            # every player seated has a history row from the game's creation on
            joins = f" JOIN {t('history')} h ON h.game_id = g.game_id AND h.player_id = {ph}"
            params.append(player_id)
        for column, value in (("league_id", league_id), ("status", status)):
            if value is not None:
                where.append(f"g.{column} = {ph}")
                params.append(value)
        if after is not None:
            where.append(f"g.created < {ph}")
            params.append(after)
        sql = (
            f"SELECT g.game_id, g.created, g.status, d.doc FROM {t('game_list')} g "
            f"JOIN {t('games')} d ON d.game_id = g.game_id{joins}{_where(where)} "
            f"ORDER BY g.created DESC LIMIT {ph}"
        )
        return self.select(sql, [*params, limit])

    def mao_page(
        self, league_id: UUID | None, status: str | None, after: int | None, limit: int
    ) -> list[tuple[Any, ...]]:
        """(created, doc) of Mao matches, newest first (by the position of their start)."""
        t, ph = self._table, self._ph
        where, params = [], []
        for column, value in (("league_id", league_id), ("status", status), ("created", after)):
            if value is not None:
                where.append(f"{column} {'<' if column == 'created' else '='} {ph}")
                params.append(value)
        sql = f"SELECT created, doc FROM {t('mao_list')}{_where(where)} ORDER BY created DESC LIMIT {ph}"
        return self.select(sql, [*params, limit])

    def tournament_page(
        self, league_id: UUID | None, status: str | None, after: int | None, limit: int
    ) -> list[tuple[Any, ...]]:
        """(tournament_id, created, doc), the latest announced first."""
        t, ph = self._table, self._ph
        where: list[str] = []
        params: list[Any] = []
        for column, value in (("league_id", league_id), ("status", status), ("created", after)):
            if value is not None:
                where.append(f"{column} {'<' if column == 'created' else '='} {ph}")
                params.append(value)
        sql = (
            f"SELECT tournament_id, created, doc FROM {t('tournaments')}{_where(where)} "
            f"ORDER BY created DESC LIMIT {ph}"
        )
        return self.select(sql, [*params, limit])

    def dispute_page(
        self, referee: str | None, after: tuple[float, UUID] | None, limit: int
    ) -> list[tuple[Any, ...]]:
        """(game_id, raised, league_id, doc) of open disputes, the longest waiting first; ``referee``:
        only those of friendly games and of the leagues that referee referees (None: all)."""
        t, ph = self._table, self._ph
        where: list[str] = []
        params: list[Any] = []
        if referee is not None:
            where.append(
                f"(league_id IS NULL OR league_id IN (SELECT league_id FROM {t('league_people')} "
                f"WHERE person = {ph} AND role = 'referee'))"
            )
            params.append(referee)
        if after is not None:
            where.append(f"(raised, game_id) > ({ph}, {ph})")
            params += after
        sql = (
            f"SELECT game_id, raised, league_id, doc FROM {t('disputes')}{_where(where)} "
            f"ORDER BY raised, game_id LIMIT {ph}"
        )
        return self.select(sql, [*params, limit])

    def leagues_of(self, person: str, role: str) -> list[tuple[UUID, str]]:
        """The leagues (id, name) a player is a member of (``role`` member) or a referee referees."""
        t, ph = self._table, self._ph
        rows = self.select(
            f"SELECT p.league_id, l.name FROM {t('league_people')} p JOIN {t('leagues')} l "
            f"ON l.league_id = p.league_id WHERE p.person = {ph} AND p.role = {ph} "
            "ORDER BY l.name, p.league_id",
            [person, role],
        )
        return [(_as_uuid(league_id), name) for league_id, name in rows]

    def webhook_states(self) -> list[bytes]:
        return [bytes(row[0]) for row in self.query("webhook_states", ())]

    @property
    def deliveries(self) -> deliveries.Deliveries:
        return deliveries.Deliveries(self)

    def ratings_of(self, league_id: UUID, player_ids: Iterable[UUID]) -> dict[UUID, tuple[float, float, int]]:
        """The stored rating (mu, sigma, matches rated) of those of these players rated in the league."""
        ids = list(set(player_ids))
        if not ids:
            return {}
        rows = self.query("rating_of", [league_id, *ids], self._in(len(ids)))
        return {_as_uuid(player): (mu, sigma, matches) for player, mu, sigma, matches in rows}

    def league_ratings(self, league_id: UUID) -> tuple[list[tuple[Any, ...]], int]:
        """Each rated player of the league (id, name, mu, sigma, matches) and the position read."""
        rows = self.query("ratings_of", (APPLICATION, league_id))
        position = rows[0][5] or 0 if rows else self.position()
        return [(_as_uuid(row[0]), *row[1:5]) for row in rows], position

    def rating_history(self, player_id: UUID) -> list[tuple[Any, ...]]:
        """The player's rated matches, newest first: league, game, position, mu, sigma, place, clocked."""
        return [
            (_as_uuid(league), _as_uuid(game), *rest)
            for league, game, *rest in self.query("rating_history_of", (player_id,))
        ]

    def names(self, player_ids: Iterable[UUID]) -> dict[UUID, str]:
        ids = list(set(player_ids))
        if not ids:
            return {}
        rows = self.query("names", ids, self._in(len(ids)))
        return {_as_uuid(player_id): name for player_id, name in rows}


def folded(text: str) -> str:
    """``text`` as the player search compares it: Unicode's case folding (``str.casefold``: "Юрій" and
    "ЮРІЙ" alike, "Straße" as "strasse"), of its composed form, so a search typed decomposed finds too."""
    return unicodedata.normalize("NFC", text).casefold()


def _fold_names(curs: Any, players: str, ph: str) -> None:
    """Fill the folded names of a players' table made before them, in the transaction that adds their
    column (so no process reads it half filled)."""
    curs.execute(f"SELECT player_id, name FROM {players}")
    rows = [(folded(row["name"]), row["player_id"]) for row in curs.fetchall()]
    curs.executemany(f"UPDATE {players} SET folded = {ph} WHERE player_id = {ph}", rows)


def _as_uuid(value: Any) -> UUID:
    return value if isinstance(value, UUID) else UUID(value)


def _where(conditions: list[str]) -> str:
    return " WHERE " + " AND ".join(conditions) if conditions else ""


def _escaped(text: str) -> str:
    """``text`` matched literally by LIKE (with ``ESCAPE '!'``)."""
    return text.replace("!", "!!").replace("%", "!%").replace("_", "!_")


def _columnar(table: Any) -> dict[str, str]:
    """PostgreSQL: the statements whose rows are written as one array per column in one statement
    (``unnest``), not row by row: a rebuild writes a rating and a history row per player and match,
    and psycopg's per-row work cost more than the ratings themselves (``bench/ratings.py``)."""

    def unnest(*types: str) -> str:
        return "SELECT * FROM unnest(" + ", ".join(f"%b::{kind}[]" for kind in types) + ")"

    return {
        "rating": f"INSERT INTO {table('ratings')} {unnest('uuid', 'uuid', 'float8', 'float8', 'bigint')} "
        "ON CONFLICT (league_id, player_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
        "matches = excluded.matches",
        "rating_history": f"INSERT INTO {table('rating_history')} "
        f"{unnest('uuid', 'uuid', 'uuid', 'bigint', 'float8', 'float8', 'bigint', 'bigint')} "
        "ON CONFLICT (league_id, player_id, game_id) DO NOTHING",
    }


class PostgresViews(PostgresTrackingRecorder, Views):
    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        schema = Identifier(datastore.schema)

        def table(name: str) -> str:
            return SQL("{}.{}").format(schema, Identifier(f"{NAME}_{name}")).as_string()

        self._table = table
        self._ph = "%s"
        tracking = SQL("{}.{}").format(schema, Identifier(self.tracking_table_name)).as_string()
        holds = "position(%s IN payload) > 0"
        dialect = Dialect(
            table=table,
            ph="%s",
            uuid="uuid",
            blob="bytea",
            integer="bigint",
            real="double precision",
            unlogged="UNLOGGED ",
            holds=holds,
            tracking=tracking,
            postgres=True,
            prefix=NAME,
        )
        self.statements = _statements(table, tracking, "%s", holds) | _kept_statements(dialect)
        self.columnar = _columnar(table)
        for statement in [
            *_tables(table, "uuid", "bytea", "bigint", "double precision"),
            *_kept_tables(dialect),
        ]:
            self.sql_create_statements.append(Composed([SQL(statement)]))
        for statement in _indexes(table):
            self.sql_create_statements.append(Composed([SQL(statement)]))

    def create_table(self) -> None:
        super().create_table()
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                "SELECT 1 FROM information_schema.columns WHERE table_schema = %s AND table_name = %s "
                "AND column_name = 'folded'",
                (self.datastore.schema or "public", f"{NAME}_players"),
            )
            if curs.fetchone() is None:
                players = self._table("players")
                curs.execute(
                    f"ALTER TABLE {players} ADD COLUMN IF NOT EXISTS folded text NOT NULL DEFAULT ''"
                )
                _fold_names(curs, players, "%s")

    @property
    def channel(self) -> str:
        """Where each batch's position is told (``service.projections.watch``)."""
        return channel_for(self.datastore.schema)

    def write(self, changes: Changes, tracking: Tracking) -> None:
        s = self.statements
        with self.datastore.transaction(commit=True) as curs:
            for key, rows in changes.rows():
                if rows and key in self.columnar:
                    curs.execute(self.columnar[key], [list(column) for column in zip(*rows, strict=True)])
                elif rows:
                    curs.executemany(s[key], rows)
            deliveries.erase_names(curs, s, changes.erased)
            self._insert_tracking(curs, tracking)
            # delivered at commit: a listener told this position finds the rows written
            curs.execute("SELECT pg_notify(%s, %s)", (self.channel, str(tracking.notification_id)))

    def load_states(self, game_ids: Iterable[UUID]) -> list[tuple[UUID, bytes]]:
        ids = list(game_ids)
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self.statements["states"] + " = ANY(%s)", (ids,), prepare=True)
            return [(row["game_id"], bytes(row["state"])) for row in curs.fetchall()]

    def query(self, name: str, params: Sequence[Any], suffix: str = "") -> list[tuple[Any, ...]]:
        # tuples as the rows come: the datastore's default rows are dicts, made per row and unpacked again
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            curs.execute(self.statements[name] + suffix, params, prepare=not suffix)
            return curs.fetchall()

    def select(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            curs.execute(sql, params)
            return curs.fetchall()

    def execute(self, name: str, params: Sequence[Any]) -> None:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(self.statements[name], params)

    def execute_all(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> None:
        with self.datastore.transaction(commit=True) as curs:
            for name, params in steps:
                curs.execute(self.statements[name], params)

    def change(self, name: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(self.statements[name], params)
            return [tuple(row.values()) for row in curs.fetchall()]

    def _in(self, count: int) -> str:
        return " IN (" + ", ".join(["%s"] * count) + ")"

    def drop(self) -> None:
        tables = [self._table(name) for name in TABLES]
        tracking = SQL("{}.{}").format(
            Identifier(self.datastore.schema), Identifier(self.tracking_table_name)
        )
        with self.datastore.transaction(commit=True) as curs:
            for table in tables:
                curs.execute(f"DROP TABLE IF EXISTS {table}")
            curs.execute(SQL("DROP TABLE IF EXISTS {}").format(tracking))


class SQLiteViews(SQLiteTrackingRecorder, Views):
    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)

        def table(name: str) -> str:
            return f"{NAME}_{name}"

        self._table = table
        self._ph = "?"
        holds = "instr(payload, ?) > 0"
        dialect = Dialect(
            table=table,
            ph="?",
            uuid="text",
            blob="blob",
            integer="integer",
            real="real",
            unlogged="",
            holds=holds,
            tracking="tracking",
            postgres=False,
            prefix=NAME,
        )
        self.statements = _statements(table, "tracking", "?", holds) | _kept_statements(dialect)
        self.create_table_statements += [
            *_tables(table, "text", "blob", "integer", "real"),
            *_kept_tables(dialect),
            *_indexes(table),
        ]

    def create_table(self) -> None:
        super().create_table()
        players = self._table("players")
        with self.datastore.transaction(commit=True) as c:
            c.execute(f"PRAGMA table_info({players})")
            if "folded" not in {row["name"] for row in c.fetchall()}:
                c.execute(f"ALTER TABLE {players} ADD COLUMN folded text NOT NULL DEFAULT ''")
                _fold_names(c, players, "?")

    def write(self, changes: Changes, tracking: Tracking) -> None:
        s = self.statements
        with self.datastore.transaction(commit=True) as c:
            if changes.erased:
                # the erased names' old rows and payloads are zeroed where they lay, not left as free space
                c.execute("PRAGMA secure_delete = ON")
            for key, rows in changes.rows():
                if rows:
                    c.executemany(s[key], [_texts(row) for row in rows])
            deliveries.erase_names(c, s, changes.erased)
            self._insert_tracking(c, tracking)
        if changes.erased:
            # the write-ahead log still holds the pages as they were, the names in them
            truncate_wal(self.datastore)

    def load_states(self, game_ids: Iterable[UUID]) -> list[tuple[UUID, bytes]]:
        ids = [str(game_id) for game_id in game_ids]
        found: list[tuple[UUID, bytes]] = []
        # SQLite allows a limited number of parameters per statement
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = self.query("states", chunk, self._in(len(chunk)))
            found += [(UUID(game_id), bytes(state)) for game_id, state in rows]
        return found

    def query(self, name: str, params: Sequence[Any], suffix: str = "") -> list[tuple[Any, ...]]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(self.statements[name] + suffix, _texts(params))
            return [tuple(row) for row in c.fetchall()]

    def select(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(sql, _texts(params))
            return [tuple(row) for row in c.fetchall()]

    def execute(self, name: str, params: Sequence[Any]) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(self.statements[name], _texts(params))

    def execute_all(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> None:
        with self.datastore.transaction(commit=True) as c:
            for name, params in steps:
                c.execute(self.statements[name], _texts(params))

    def change(self, name: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self.datastore.transaction(commit=True) as c:
            c.execute(self.statements[name], _texts(params))
            return [tuple(row) for row in c.fetchall()]

    def _in(self, count: int) -> str:
        return " IN (" + ", ".join(["?"] * count) + ")"

    def drop(self) -> None:
        with self.datastore.transaction(commit=True) as c:
            for name in TABLES:
                c.execute(f"DROP TABLE IF EXISTS {NAME}_{name}")
            c.execute("DROP TABLE IF EXISTS tracking")


def _texts(row: Sequence[Any]) -> tuple[Any, ...]:
    """SQLite keeps ids as text."""
    return tuple(str(value) if isinstance(value, UUID) else value for value in row)


def views_env(settings: Settings, aside: bool = False) -> dict[str, str]:
    """The eventsourcing settings of the read models' store; ``aside``: of the store a rebuild fills
    before it takes the place of the live one (``service.projections.aside``)."""
    env = settings.persistence_env()
    env.pop("APPLICATION_RECORDER_TOPIC", None)
    if not settings.uses_postgres:
        env["SQLITE_DBNAME"] = str(settings.data_dir / (ASIDE_FILE_NAME if aside else SQLITE_FILE_NAME))
    elif aside:
        env["POSTGRES_SCHEMA"] = aside_schema(settings)
    return env


def aside_schema(settings: Settings) -> str:
    return f"{settings.database_schema or 'public'}_rebuild"[:63]  # PostgreSQL's identifier length


def open_views(settings: Settings, connections: int | None = None, aside: bool = False) -> Views:
    """The read models' store for these settings, its tables created when missing.

    ``connections``: the PostgreSQL connections kept open (default ``settings.pool_size``);
    ``aside``: the store a rebuild fills (its schema is made first on PostgreSQL).
    """
    env = views_env(settings, aside)
    if connections is not None and settings.uses_postgres:
        env["POSTGRES_POOL_SIZE"] = str(connections)
    kind: type[Views] = PostgresViews if settings.uses_postgres else SQLiteViews
    factory: InfrastructureFactory[Views] = InfrastructureFactory.construct(env=Environment(NAME, env))
    for attempt in (1, 2):
        try:
            return factory.tracking_recorder(kind)
        except PersistenceError:
            # another process created the tables at the same moment: the second look finds them
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def close_views(views: Views) -> None:
    with contextlib.suppress(Exception):
        views.datastore.close()  # type: ignore[attr-defined]
