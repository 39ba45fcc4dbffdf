"""Leagues: found one, admit members, appoint referees."""

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from service.application.players import Players
from service.domain.league import League


class Leagues(Players):
    def found_league(
        self, name: str, ruleset: str = "club", options: Mapping[str, Any] | None = None
    ) -> UUID:
        league = League.found(name, ruleset, dict(options or {}))
        self.save(league)
        return league.id

    def get_league(self, league_id: UUID | str) -> League:
        return self._get(League, league_id, "league_not_found", "no such league")

    def admit_member(self, league_id: UUID | str, player_id: UUID | str) -> None:
        player = self.get_player(player_id)
        league = self.get_league(league_id)
        league.admit(player.id, player.name, self._names_of(league.members))
        self._save_or_stale(league)  # a concurrent admission saves the league too: one of them is stale

    def appoint_referee(self, league_id: UUID | str, referee: str) -> None:
        league = self.get_league(league_id)
        league.appoint_referee(referee)
        self._save_or_stale(league)
