"""The events stored after a version, for many games at once, each with its log position.

What the live folds (``service.projections.live``: the view streams and the
game's own reads) bring a game up to date with. The event store is current
the moment a command's commit returns, in every process, so a fold brought
up to date by it shows every write answered before the read began.

On PostgreSQL one statement reads all the games asked for, with each
event's own notification id. On SQLite a read per game, its last event's
position taken as the log's (a little later, never earlier).
"""

from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier

from service.application import MauMau

Stored = list[tuple[Any, int]]  # a game's events with their log positions, in order


class NewEvents:
    def __init__(self, app: MauMau) -> None:
        self.app = app
        self._select = _select_after(app) if app.settings.uses_postgres else None

    def after(self, versions: dict[UUID, int]) -> dict[UUID, Stored]:
        """Each game's events after its version (none for a game without any)."""
        found: dict[UUID, Stored] = {game_id: [] for game_id in versions}
        if self._select is None:
            for game_id, version in versions.items():
                events = self.app.game_events(game_id, after=version)
                if events:
                    position = self.app.recorder.max_notification_id() or 0
                    found[game_id] = [(event, position) for event in events]
            return found
        datastore = self.app.recorder.datastore  # type: ignore[attr-defined]
        with datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as cursor:
            rows = cursor.execute(self._select, (list(versions), list(versions.values()))).fetchall()
        decode = self.app.mapper.to_domain_event
        for originator_id, version, topic, state, position in rows:
            stored = StoredEvent(
                originator_id=originator_id, originator_version=version, topic=topic, state=state
            )
            found[originator_id].append((decode(stored), position))
        return found


def _select_after(app: MauMau) -> str:
    """The statement that reads the events of many games, each after its own version."""
    recorder: Any = app.recorder
    table = SQL("{}.{}").format(Identifier(recorder.datastore.schema), Identifier(recorder.events_table_name))
    return (
        SQL(
            "SELECT e.originator_id, e.originator_version, e.topic, e.state, e.notification_id "
            "FROM unnest(%s::uuid[], %s::bigint[]) AS f(id, version) "
            "JOIN {table} e ON e.originator_id = f.id AND e.originator_version > f.version "
            "ORDER BY e.originator_id, e.originator_version"
        )
        .format(table=table)
        .as_string(None)
    )
