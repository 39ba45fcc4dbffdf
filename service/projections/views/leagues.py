"""The leagues: ``views_leagues``, each league's name, ruleset and standings order, and
``views_league_people``, its members and referees (``role``: ``member``, ``referee``), which
``GET /me`` and ``GET /disputes`` read.

A member's admission also writes their standings row of zeros (``games``' ``views_standings``), so
the standings list every member; a removed member's standings stay. A dismissed referee's row goes:
the open disputes they see and their leagues in ``GET /me`` are those they referee now.
"""

from typing import Any, ClassVar
from uuid import UUID

import msgspec

from service.domain.league import League
from service.domain.mao.league import MAO as MAO_RULES
from service.domain.ruleset_options import ruleset
from service.persistence.dialect import Dialect
from service.projections.parts import CORE
from service.projections.standings import STATS, order_of
from service.projections.views import base

_NO_MATCH = (0,) * len(STATS)


class LeagueRow(msgspec.Struct, frozen=True):
    name: str
    ruleset: str
    order: str


def create(d: Dialect) -> list[str]:
    leagues, people = d.table("leagues"), d.table("league_people")
    return [
        f"CREATE TABLE IF NOT EXISTS {leagues} (league_id {d.uuid} PRIMARY KEY, name text NOT NULL, "
        "ruleset text NOT NULL, standings_order text NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {people} (league_id {d.uuid} NOT NULL, "
        "person text NOT NULL, role text NOT NULL, PRIMARY KEY (league_id, role, person))",
        f"CREATE INDEX IF NOT EXISTS {d.prefix}_league_people_person ON {people} (person, role)",
    ]


def statements(d: Dialect) -> dict[str, str]:
    leagues, people, ph = d.table("leagues"), d.table("league_people"), d.ph
    return {
        "league": f"INSERT INTO {leagues} VALUES ({d.marks(4)}) "
        "ON CONFLICT (league_id) DO UPDATE SET name = excluded.name, ruleset = excluded.ruleset, "
        "standings_order = excluded.standings_order",
        "league_of": f"SELECT name, ruleset, standings_order, {base.tracked_position(d)} AS position "
        f"FROM {leagues} WHERE league_id = {ph}",
        "league_person": f"INSERT INTO {people} VALUES ({d.marks(3)}) "
        "ON CONFLICT (league_id, role, person) DO NOTHING",
        "no_league_person": f"DELETE FROM {people} WHERE league_id = {ph} AND person = {ph} AND role = {ph}",
    }


class LeaguesFold(base.Fold):
    part = CORE
    tables = ("leagues", "league_people")
    writes = ("league", "league_person", "no_league_person")

    def founded(self, event: Any, position: int) -> None:
        # a Mao league ranks by matches won, as the others do first; it scores no points
        mao = event.ruleset_name == MAO_RULES
        order = "highest_points" if mao else order_of(ruleset(event.ruleset_name, **event.options))
        self.folds.changes.to("league").append((event.originator_id, event.name, event.ruleset_name, order))

    def people(self, event: Any, position: int) -> None:
        """A league's member admitted (their standings row of zeros) or removed (their standings
        stay), or a referee appointed or dismissed. A person in and out again in one batch is in at
        most one of the two lists, since the inserts are written before the deletes."""
        changes = self.folds.changes
        league = event.originator_id
        if isinstance(event, League.MemberAdmitted):
            changes.to("standing").append((league, event.player_id, *_NO_MATCH))
        if isinstance(event, League.RefereeAppointed | League.RefereeDismissed):
            person = (league, event.referee, "referee")
        else:
            person = (league, str(event.player_id), "member")
        admitted, removed = changes.to("league_person"), changes.to("no_league_person")
        if isinstance(event, League.MemberAdmitted | League.RefereeAppointed):
            removed[:] = [row for row in removed if row != person]
            admitted.append(person)
        else:
            admitted[:] = [row for row in admitted if row != person]
            removed.append(person)

    reads: ClassVar[base.Reads] = {
        League.Founded: founded,
        League.MemberAdmitted: people,
        League.MemberRemoved: people,
        League.RefereeAppointed: people,
        League.RefereeDismissed: people,
    }


class Queries(base.Store):
    def league(self, league_id: UUID) -> tuple[LeagueRow, int] | None:
        rows = self.query("league_of", (base.APPLICATION, league_id))
        return (LeagueRow(*rows[0][:3]), rows[0][3] or 0) if rows else None

    def league_page(self, after: tuple[str, UUID] | None, limit: int) -> list[base.Row]:
        """(league_id, name, ruleset) by name, then id."""
        return self.keyset_page(
            "league_id, name, ruleset", "leagues", ("name", "league_id"), [], after, limit
        )

    def leagues_of(self, person: str, role: str) -> list[tuple[UUID, str]]:
        """The leagues (id, name) a player is a member of (``role`` member) or a referee referees."""
        t, ph = self._table, self._ph
        rows = self.select(
            f"SELECT p.league_id, l.name FROM {t('league_people')} p JOIN {t('leagues')} l "
            f"ON l.league_id = p.league_id WHERE p.person = {ph} AND p.role = {ph} "
            "ORDER BY l.name, p.league_id",
            [person, role],
        )
        return [(base.as_uuid(league_id), name) for league_id, name in rows]

    def people_of(self, league_id: UUID, role: str) -> list[str]:
        """A league's members (``role`` member) or referees, by id."""
        people, ph = self._table("league_people"), self._ph
        rows = self.select(
            f"SELECT person FROM {people} WHERE league_id = {ph} AND role = {ph}", [league_id, role]
        )
        return [person for (person,) in rows]


VIEW = base.View(name="leagues", create=create, statements=statements, fold=LeaguesFold)
