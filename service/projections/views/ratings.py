"""League ratings as a read model: each finished match folded into its players' ratings, once.

The rating update is ``domain.rating`` (pure); this module feeds it the matches in the
order they finished in the log and turns its answers into rows (``views_ratings``,
``views_rating_history``) written in the projection's batch, with its tracking
position, so a match is rated exactly once and a rebuild rates the same matches in
the same order.

A match is rated at its first finish (``Ledger.rated``), with its seats as that finish left
them (taken by the games' fold at the finishing event: ``fold.Finished``). A ruling that later
voids back into it and changes its result does not rate it again, in the same batch or a later
one: the ratings after it were already built on the first result (``docs/ratings.md``).

``views_ratings``: per league and player, the rating (``domain.rating``: mu, sigma) and the
matches rated; ``views_rating_history``: per player and rated match, the rating after it, keyed by
the player and the match's position in the log (a player has one row per position). The key follows
the log, so a batch's rows are appended to each player's; keyed by league, player and game before
(``rekey_history``), each row went to a random place, and late in a rebuild each batch's commit
rewrote most of the key (``bench/ratings.py``: a batch's write 3 times slower at the end than at
the start). On PostgreSQL their rows are written as one array per column in
one statement (``unnest``), not row by row: a rebuild writes a rating and a history row per player
and match, and psycopg's per-row work cost more than the ratings themselves (``bench/ratings.py``).
"""

from collections.abc import Iterable
from typing import Any, ClassVar
from uuid import UUID

from service.domain.rating import Rating, provisional, rate
from service.persistence.dialect import Dialect
from service.projections.fold import Finished
from service.projections.models import RatingRead
from service.projections.parts import RATINGS
from service.projections.views import base
from service.projections.views.games import GamesFold

HISTORY_KEY = "(player_id, position)"
_OLD_HISTORY_KEY = ["league_id", "player_id", "game_id"]


def create(d: Dialect) -> list[str]:
    t, uuid, real, integer = d.table, d.uuid, d.real, d.integer
    return [
        f"CREATE TABLE IF NOT EXISTS {t('ratings')} (league_id {uuid} NOT NULL, player_id {uuid} NOT NULL, "
        f"mu {real} NOT NULL, sigma {real} NOT NULL, matches {integer} NOT NULL, "
        "PRIMARY KEY (league_id, player_id))",
        _create_history(d),
    ]


def _create_history(d: Dialect) -> str:
    uuid, real, integer = d.uuid, d.real, d.integer
    return (
        f"CREATE TABLE IF NOT EXISTS {d.table('rating_history')} (league_id {uuid} NOT NULL, "
        f"player_id {uuid} NOT NULL, game_id {uuid} NOT NULL, position {integer} NOT NULL, "
        f"mu {real} NOT NULL, sigma {real} NOT NULL, place {integer} NOT NULL, "
        f"clock_played {integer} NOT NULL, PRIMARY KEY {HISTORY_KEY})"
    )


def statements(d: Dialect) -> dict[str, str]:
    t, ph = d.table, d.ph

    def values(*types: str) -> str:
        if not d.postgres:
            return f"VALUES ({d.marks(len(types))})"
        return "SELECT * FROM unnest(" + ", ".join(f"%b::{kind}[]" for kind in types) + ")"

    return {
        # league, player, mu, sigma, matches (ids as text, as ``RatingsFold`` keeps them)
        "rating": f"INSERT INTO {t('ratings')} {values('uuid', 'uuid', 'float8', 'float8', 'bigint')} "
        "ON CONFLICT (league_id, player_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
        "matches = excluded.matches",
        # league, player, game, position, mu, sigma, place, clock_played
        "rating_history": f"INSERT INTO {t('rating_history')} "
        f"{values('uuid', 'uuid', 'uuid', 'bigint', 'float8', 'float8', 'bigint', 'bigint')} "
        f"ON CONFLICT {HISTORY_KEY} DO NOTHING",
        "ratings_of": "SELECT r.player_id, p.name, r.mu, r.sigma, r.matches, "
        f"{base.tracked_position(d)} AS position "
        f"FROM {t('ratings')} r LEFT JOIN {t('players')} p ON p.player_id = r.player_id "
        f"WHERE r.league_id = {ph}",
        "rating_of": f"SELECT player_id, mu, sigma, matches FROM {t('ratings')} "
        f"WHERE league_id = {ph} AND player_id",
        "rating_history_of": f"SELECT league_id, game_id, position, mu, sigma, place, clock_played "
        f"FROM {t('rating_history')} WHERE player_id = {ph} ORDER BY position DESC",
    }


def rekey_history(c: Any, d: Dialect) -> None:
    """A history table made with the old key (league, player, game) keyed as ``create`` keys it now,
    its rows kept: in one transaction (``c``, a cursor of it), once."""
    table = d.table("rating_history")
    if d.postgres:
        c.execute(
            "SELECT c.conname AS name, array_agg(a.attname::text ORDER BY k.n) AS columns "
            "FROM pg_constraint c CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, n) "
            "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum "
            "WHERE c.conrelid = %s::regclass AND c.contype = 'p' GROUP BY c.conname",
            (table,),
        )
        found = c.fetchone()
        if found is not None and list(found["columns"]) == _OLD_HISTORY_KEY:
            name = '"' + found["name"].replace('"', '""') + '"'
            c.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}, ADD PRIMARY KEY {HISTORY_KEY}")
        return
    c.execute(f"PRAGMA table_info({table})")
    key = [row["name"] for row in sorted(c.fetchall(), key=lambda row: row["pk"]) if row["pk"]]
    if key != _OLD_HISTORY_KEY:
        return
    # SQLite changes no table's key: the rows are copied into the table made anew
    c.execute(f"ALTER TABLE {table} RENAME TO {table}_old_key")
    c.execute(_create_history(d))
    c.execute(f"INSERT INTO {table} SELECT * FROM {table}_old_key")
    c.execute(f"DROP TABLE {table}_old_key")


class RatingsFold:
    """The ratings of the players met so far, and the rows each rated match adds to a batch."""

    def __init__(self, views: "Queries") -> None:
        self.views = views
        # (league, player): rating, matches; ids as text (as the seats hold players'), which hash
        # and write faster than UUIDs: a rebuild rates every match of the log
        self.known: dict[tuple[str, str], tuple[Rating, int]] = {}

    def fold(self, finished: Iterable[Finished], changes: base.Changes) -> None:
        """Rate these matches (position of the finishing event, game, its seats as it finished), in
        that order, into ``changes``. A match voided back since is rated as it first finished."""
        matches: list[tuple[str, str, int, list[tuple[str, int, bool]]]] = []
        missing: dict[str, set[str]] = {}
        for position, tracked, seats in finished:
            game = tracked.game
            tracked.ledger.rated = True
            if len(seats) < 2:
                continue
            league = str(game.league_id)
            matches.append((league, str(game.id), position, seats))
            for player, _, _ in seats:
                if (league, player) not in self.known:
                    missing.setdefault(league, set()).add(player)
        # the batch's players not met yet, read back in one query per league
        for league, players in missing.items():
            self._load(league, [(league, player) for player in players])
        touched: dict[tuple[str, str], None] = {}
        for league, game_id, position, seats in matches:
            self.rate_match(league, game_id, position, seats, changes.to("rating_history"), touched)
        ratings = changes.to("rating")
        for key in touched:
            rating, rated = self.known[key]
            ratings.append((*key, rating.mu, rating.sigma, rated))

    def rate_match(
        self,
        league: str,
        game_id: str,
        position: int,
        seats: list[tuple[str, int, bool]],
        history: list[tuple[Any, ...]],
        touched: dict[tuple[str, str], None],
    ) -> None:
        known = self.known  # every player of the batch is in it (``fold`` read them back)
        keys = [(league, player) for player, _, _ in seats]
        before = [known[key] for key in keys]
        after = rate(
            [rating for rating, _ in before],
            [place for _, place, _ in seats],
            [clocked for _, _, clocked in seats],
        )
        for key, (_, matches), new, (player, place, clocked) in zip(keys, before, after, seats, strict=True):
            known[key] = (new, matches + 1)
            touched[key] = None
            history.append((league, player, game_id, position, new.mu, new.sigma, place, int(clocked)))

    def _load(self, league: str, keys: list[tuple[str, str]]) -> None:
        if not keys:
            return
        stored = self.views.ratings_of(UUID(league), [UUID(player) for _, player in keys])
        for key in keys:
            found = stored.get(UUID(key[1]))
            self.known[key] = (Rating(), 0) if found is None else (Rating(found[0], found[1]), found[2])


class RatingsView(base.Fold):
    """Rates the league games the games' fold saw finish in the batch, at ``flush`` (before the games'
    rows are drawn, so each rated game's row says it is rated)."""

    part = RATINGS
    tables = ("ratings", "rating_history")
    writes = ("rating", "rating_history")
    columnar = frozenset({"rating", "rating_history"})
    reads: ClassVar[base.Reads] = {}

    def __init__(self, folds: base.Folds) -> None:
        super().__init__(folds)
        self.ratings = RatingsFold(folds.store)

    def flush(self, changes: base.Changes) -> None:
        # the games' fold comes after this one (whose rows must be drawn first): looked up here
        finished = self.folds.of(GamesFold).finished
        if RATINGS in self.folds.stale or not finished:
            return
        rows = changes.to("rating")
        history = changes.to("rating_history")
        ratings, rated = len(rows), len(history)
        try:
            self.ratings.fold(finished.values(), changes)
        except base.STORE_ERRORS:
            raise
        except Exception as error:
            del rows[ratings:], history[rated:]
            first = min(position for position, _, _ in finished.values())
            reason = (
                f"the games finished from position {first} on could not be rated ({type(error).__name__})"
            )
            self.folds.stale_from(RATINGS, first, reason, error)


class Queries(base.Store):
    def ratings_of(self, league_id: UUID, player_ids: Iterable[UUID]) -> dict[UUID, tuple[float, float, int]]:
        """The stored rating (mu, sigma, matches rated) of those of these players rated in the league."""
        ids = list(set(player_ids))
        if not ids:
            return {}
        rows = self.query("rating_of", [league_id, *ids], self._in(len(ids)))
        return {base.as_uuid(player): (mu, sigma, matches) for player, mu, sigma, matches in rows}

    def league_ratings(self, league_id: UUID) -> tuple[list[base.Row], int]:
        """Each rated player of the league (id, name, mu, sigma, matches) and the position read."""
        rows = self.query("ratings_of", (base.APPLICATION, league_id))
        position = rows[0][5] or 0 if rows else self.position()
        return [(base.as_uuid(row[0]), *row[1:5]) for row in rows], position

    def rating_history(self, player_id: UUID) -> list[base.Row]:
        """The player's rated matches, newest first: league, game, position, mu, sigma, place, clocked."""
        return [
            (base.as_uuid(league), base.as_uuid(game), *rest)
            for league, game, *rest in self.query("rating_history_of", (player_id,))
        ]


def ranked(found: list[base.Row]) -> list[RatingRead]:
    """The league's rated players (``Queries.league_ratings``), the highest rating first, ranked
    (players on the same rating share a rank)."""
    ordered = sorted(
        (
            (Rating(mu, sigma), player_id, name or str(player_id), matches)
            for player_id, name, mu, sigma, matches in found
        ),
        key=lambda row: (-row[0].ordinal, row[2], str(row[1])),
    )
    rows: list[RatingRead] = []
    for index, (rating, player_id, name, matches) in enumerate(ordered):
        shared = rows and rows[-1].rating == rating.ordinal
        rows.append(
            RatingRead(
                rank=rows[-1].rank if shared else index + 1,
                player_id=player_id,
                name=name,
                rating=rating.ordinal,
                mu=rating.mu,
                sigma=rating.sigma,
                matches=matches,
                provisional=provisional(matches),
            )
        )
    return rows


VIEW = base.View(name="ratings", create=create, statements=statements, fold=RatingsView)
