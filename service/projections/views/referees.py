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
from service.projections.views import base, players
from service.projections.views.players import folded


def create(d: Dialect) -> list[str]:
    return players.named_tables(d, "referees", "referee_id")


def statements(d: Dialect) -> dict[str, str]:
    return players.named_statements(d, "referees", "referee_id", "referee", "referee_names")


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
        return players.named_page(self, "referees", "referee_id", search, after, limit)

    def referee_names(self, referee_ids: list[UUID]) -> dict[UUID, str]:
        return players.names_of(self, "referee_names", referee_ids)


VIEW = base.View(name="referees", create=create, statements=statements, fold=RefereesFold)
