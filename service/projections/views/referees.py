"""The referees' names: ``views_referees``, per registered referee (the credential that registered
them: its id is the referee's) their name and its case-folded form, which the admin page's lists and
pickers search, as the players' (``players.folded``).

Written whatever part is stale, as the players' names: a referee registered before this view was
made is in it once the read models are rebuilt (``maumau projections rebuild``).
"""

from typing import Any, ClassVar
from uuid import UUID

from service.domain.credential import Credential
from service.persistence.dialect import Dialect
from service.projections.views import base
from service.projections.views.players import escaped, folded


def create(d: Dialect) -> list[str]:
    referees = d.table("referees")
    return [
        f"CREATE TABLE IF NOT EXISTS {referees} (referee_id {d.uuid} PRIMARY KEY, name text NOT NULL, "
        "folded text NOT NULL)",
        f"CREATE INDEX IF NOT EXISTS {d.prefix}_referees_name ON {referees} (name, referee_id)",
    ]


def statements(d: Dialect) -> dict[str, str]:
    referees, ph = d.table("referees"), d.ph
    return {
        "referee": f"INSERT INTO {referees} (referee_id, name, folded) VALUES ({ph}, {ph}, {ph}) "
        "ON CONFLICT (referee_id) DO UPDATE SET name = excluded.name, folded = excluded.folded",
        "referee_names": f"SELECT referee_id, name FROM {referees} WHERE referee_id",
    }


class RefereesFold(base.Fold):
    part = None  # written whatever is stale
    tables = ("referees",)
    writes = ("referee",)

    def issued(self, event: Any, position: int) -> None:
        # a referee's own registration: its subject is its id (a token minted later has another id)
        if event.role == "referee" and event.subject == str(event.originator_id):
            self.folds.changes.to("referee").append((event.originator_id, event.name, folded(event.name)))

    reads: ClassVar[base.Reads] = {Credential.Issued: issued}


class Queries(base.Store):
    def referee_page(self, search: str | None, after: tuple[str, UUID] | None, limit: int) -> list[base.Row]:
        """(referee_id, name) by name, then id; ``search``: a part of the name, in any case."""
        filters = []
        if search:
            filters.append((f"folded LIKE {self._ph} ESCAPE '!'", ["%" + escaped(folded(search)) + "%"]))
        return self.keyset_page("referee_id, name", "referees", ("name", "referee_id"), filters, after, limit)

    def referee_names(self, referee_ids: list[UUID]) -> dict[UUID, str]:
        if not referee_ids:
            return {}
        rows = self.query("referee_names", referee_ids, self._in(len(referee_ids)))
        return {base.as_uuid(referee_id): name for referee_id, name in rows}


VIEW = base.View(name="referees", create=create, statements=statements, fold=RefereesFold)
