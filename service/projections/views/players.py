"""The players' names: ``views_players``, per player their name and its case-folded form
(``folded``, which the search compares: the same folding on both stores, for every script).

A players' table made before the folded name had it is given it when the tables are made
(``fold_names``). A name and an erasure are written whatever part is stale: an erasure is never
held up. Names are never copied into other rows: a read looks them up here when it answers.
"""

import unicodedata
from collections.abc import Iterable
from typing import Any, ClassVar
from uuid import UUID

from service.domain.league import ERASED_NAME, Player
from service.persistence.dialect import Dialect
from service.projections.views import base


def named_tables(d: Dialect, table: str, key: str) -> list[str]:
    """A table of names by id and their folded forms (the players', the referees'), and its index."""
    named = d.table(table)
    return [
        f"CREATE TABLE IF NOT EXISTS {named} ({key} {d.uuid} PRIMARY KEY, name text NOT NULL, "
        "folded text NOT NULL)",
        f"CREATE INDEX IF NOT EXISTS {d.prefix}_{table}_name ON {named} (name, {key})",
    ]


def named_statements(d: Dialect, table: str, key: str, write: str, read: str) -> dict[str, str]:
    """Its statements: ``write`` a name (id, name, folded), ``read`` the names of some ids."""
    named, ph = d.table(table), d.ph
    return {
        write: f"INSERT INTO {named} ({key}, name, folded) VALUES ({ph}, {ph}, {ph}) "
        f"ON CONFLICT ({key}) DO UPDATE SET name = excluded.name, folded = excluded.folded",
        read: f"SELECT {key}, name FROM {named} WHERE {key}",
    }


def create(d: Dialect) -> list[str]:
    return named_tables(d, "players", "player_id")


def statements(d: Dialect) -> dict[str, str]:
    return named_statements(d, "players", "player_id", "player", "names")


class PlayersFold(base.Fold):
    part = None  # written whatever is stale
    tables = ("players",)
    writes = ("player",)

    def named(self, event: Any, position: int) -> None:
        erased = isinstance(event, Player.Erased)
        name = ERASED_NAME if erased else event.name
        self.folds.changes.to("player").append((event.originator_id, name, folded(name)))
        if erased:
            self.folds.changes.erased.append(event.originator_id)

    reads: ClassVar[base.Reads] = {Player.Registered: named, Player.Renamed: named, Player.Erased: named}


class Queries(base.Store):
    def names(self, player_ids: Iterable[UUID]) -> dict[UUID, str]:
        return names_of(self, "names", player_ids)

    def player_page(self, search: str | None, after: tuple[str, UUID] | None, limit: int) -> list[base.Row]:
        """(player_id, name) by name, then id; ``search``: a part of the name, in any case."""
        return named_page(self, "players", "player_id", search, after, limit)


def names_of(store: base.Store, read: str, ids: Iterable[UUID]) -> dict[UUID, str]:
    """The names (of a ``named_tables`` table) of ``ids``, by the statement ``read``."""
    wanted = list(set(ids))
    if not wanted:
        return {}
    rows = store.query(read, wanted, store._in(len(wanted)))
    return {base.as_uuid(found): name for found, name in rows}


def named_page(
    store: base.Store, table: str, key: str, search: str | None, after: tuple[str, UUID] | None, limit: int
) -> list[base.Row]:
    """(id, name) of a ``named_tables`` table by name, then id; ``search``: a part of the name, in
    any case."""
    filters = []
    if search:
        filters.append((f"folded LIKE {store._ph} ESCAPE '!'", ["%" + escaped(folded(search)) + "%"]))
    return store.keyset_page(f"{key}, name", table, ("name", key), filters, after, limit)


def folded(text: str) -> str:
    """``text`` as the player search compares it: Unicode's case folding (``str.casefold``: "Юрій" and
    "ЮРІЙ" alike, "Straße" as "strasse"), of its composed form, so a search typed decomposed finds too."""
    return unicodedata.normalize("NFC", text).casefold()


def fold_names(curs: Any, players: str, ph: str) -> None:
    """Fill the folded names of a players' table made before them, in the transaction that adds their
    column (so no process reads it half filled)."""
    curs.execute(f"SELECT player_id, name FROM {players}")
    rows = [(folded(row["name"]), row["player_id"]) for row in curs.fetchall()]
    curs.executemany(f"UPDATE {players} SET folded = {ph} WHERE player_id = {ph}", rows)


def escaped(text: str) -> str:
    """``text`` matched literally by LIKE (with ``ESCAPE '!'``)."""
    return text.replace("!", "!!").replace("%", "!%").replace("_", "!_")


VIEW = base.View(name="players", create=create, statements=statements, fold=PlayersFold)
