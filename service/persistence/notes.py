"""Two notes kept beside the read models, in their store, that are no read model.

``views_token_use``: when each token was last used (``service.http.auth`` notes it at most once an
hour per token and process). ``views_written``: the log position of each actor's last write
(``docs/consistency.md``: a read of the read models by the same actor waits until they applied it;
on PostgreSQL an unlogged table, emptied by a crash, which only means the next reads wait for
nothing). They are kept outside the event log, so a use or a write costs no event, and a rebuild of
the read models keeps them (they cannot be rebuilt from the log).
"""

from collections.abc import Iterable
from datetime import UTC, datetime
from uuid import UUID

from service.persistence.dialect import Dialect, Statements

TOKEN_USE = "token_use"
WRITTEN = "written"


def create(d: Dialect) -> list[str]:
    return [
        f"CREATE TABLE IF NOT EXISTS {d.table(TOKEN_USE)} (credential_id {d.uuid} PRIMARY KEY, "
        f"used {d.integer} NOT NULL)",
        # unlogged: a write's note costs no WAL flush on the write's path
        f"CREATE {d.unlogged}TABLE IF NOT EXISTS {d.table(WRITTEN)} (actor text PRIMARY KEY, "
        f"position {d.integer} NOT NULL)",
    ]


def statements(d: Dialect) -> dict[str, str]:
    uses, written, ph = d.table(TOKEN_USE), d.table(WRITTEN), d.ph
    return {
        "note_use": f"INSERT INTO {uses} VALUES ({ph}, {ph}) ON CONFLICT (credential_id) "
        f"DO UPDATE SET used = excluded.used WHERE {uses}.used < excluded.used",
        "uses": f"SELECT credential_id, used FROM {uses} WHERE credential_id",
        "wrote": f"INSERT INTO {written} VALUES ({ph}, {ph}) ON CONFLICT (actor) "
        f"DO UPDATE SET position = excluded.position WHERE {written}.position < excluded.position",
        "written": f"SELECT position FROM {written} WHERE actor = {ph}",
    }


class TokenUses:
    def __init__(self, store: Statements) -> None:
        self.store = store

    def note(self, credential_id: UUID, at: datetime) -> None:
        """The token was used ``at`` (an earlier time than the one noted changes nothing)."""
        self.store.execute("note_use", (credential_id, int(at.timestamp() * 1000)))

    def last(self, credential_ids: Iterable[UUID]) -> dict[UUID, datetime]:
        """When each of these tokens was last used (one never used is left out)."""
        ids = list(set(credential_ids))
        if not ids:
            return {}
        rows = self.store.query("uses", ids, self.store._in(len(ids)))
        return {
            found if isinstance(found, UUID) else UUID(found): datetime.fromtimestamp(used / 1000, UTC)
            for found, used in rows
        }


class LastWrites:
    def __init__(self, store: Statements) -> None:
        self.store = store

    def note(self, actor: str, position: int) -> None:
        """``actor`` wrote at log ``position`` (an earlier position than the one noted changes nothing)."""
        self.store.execute("wrote", (actor, position))

    def of(self, actor: str) -> int:
        """The log position of ``actor``'s last write noted (0: none)."""
        rows = self.store.query("written", (actor,))
        return int(rows[0][0]) if rows else 0
