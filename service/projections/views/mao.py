"""The Mao matches: ``views_mao_list``, per match its league, the log position of its start (newest
first: the order ``GET /mao-games`` lists them in), its status (``playing``, ``over``) and its list
row (``mao.Listed``: rounds dealt, rounds won per seat, the winner). The end of a match adds to its
players' standings (``games``' ``views_standings``).

A match is kept in memory until it ends; one not in memory is read back from the event store at
the event's version (``Folds.match_at``).
"""

from typing import Any, ClassVar
from uuid import UUID

import msgspec

from service.domain.mao.aggregate import MaoGame
from service.persistence.dialect import Dialect
from service.projections.mao import Listed, changes_list, decided, match_rows, started
from service.projections.parts import MAO
from service.projections.views import base
from service.projections.views.games import CACHED_GAMES

_encode = msgspec.msgpack.Encoder().encode


def create(d: Dialect) -> list[str]:
    listed = d.table("mao_list")
    return [
        f"CREATE TABLE IF NOT EXISTS {listed} (game_id {d.uuid} PRIMARY KEY, "
        f"league_id {d.uuid} NOT NULL, created {d.integer} NOT NULL, status text NOT NULL, "
        f"doc {d.blob} NOT NULL)",
        f"CREATE INDEX IF NOT EXISTS {d.prefix}_mao_list_league ON {listed} (league_id, created DESC)",
    ]


def statements(d: Dialect) -> dict[str, str]:
    return {
        "mao_listed": f"INSERT INTO {d.table('mao_list')} VALUES ({d.marks(5)}) "
        "ON CONFLICT (game_id) DO UPDATE SET status = excluded.status, doc = excluded.doc",
    }


class MaoFold(base.Fold):
    part = MAO
    tables = ("mao_list",)
    writes = ("mao_listed",)

    def __init__(self, folds: base.Folds) -> None:
        super().__init__(folds)
        self.matches: dict[UUID, Listed] = {}  # in play, by id

    def started(self, event: Any, position: int) -> None:
        listed = self.matches[event.originator_id] = started(event)
        self._listed(listed, event, position)

    def decided(self, event: Any, position: int) -> None:
        """A decision that dealt or ended a round: its list row; the end of the match adds to the
        standings."""
        if not changes_list(event):
            return
        match_id = event.originator_id
        listed = self.matches.get(match_id)
        if listed is not None:
            decided(listed, event)
        elif self.folds.match_at is not None:
            listed = self.matches[match_id] = Listed.of(
                self.folds.match_at(match_id, event.originator_version)
            )
        else:
            raise base.ProjectionError(f"event {position} is for a Mao match the read models do not know")
        rows = match_rows(listed.seats, event, listed.round_no)
        self.folds.changes.to("standing").extend((listed.league_id, player, *stats) for player, stats in rows)
        self._listed(listed, event, position)

    reads: ClassVar[base.Reads] = {MaoGame.Started: started, MaoGame.Decided: decided}

    def _listed(self, listed: Listed, event: Any, position: int) -> None:
        if listed.status == "over":
            del self.matches[event.originator_id]
        while len(self.matches) > CACHED_GAMES:  # a match let go is read back when it next changes
            del self.matches[next(iter(self.matches))]
        row = (event.originator_id, listed.league_id, position, listed.status, _encode(listed))
        self.folds.changes.to("mao_listed").append(row)


class Queries(base.Store):
    def mao_page(
        self, league_id: UUID | None, status: str | None, after: int | None, limit: int
    ) -> list[base.Row]:
        """(created, doc) of Mao matches, newest first (by the position of their start)."""
        return self.newest_page("created, doc", "mao_list", league_id, status, after, limit)


VIEW = base.View(name="mao", create=create, statements=statements, fold=MaoFold)
