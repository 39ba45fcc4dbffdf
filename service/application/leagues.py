"""Leagues: found one, admit and remove members, appoint and dismiss referees."""

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from service.application.players import Players
from service.domain.clock import FORFEIT_AFTER
from service.domain.league import League
from service.domain.time_zone import DEFAULT_TIME_ZONE


class Leagues(Players):
    def found_league(
        self,
        name: str,
        ruleset: str = "club",
        options: Mapping[str, Any] | None = None,
        *,
        turn_clock: int | None = None,
        forfeit_after: int | None = FORFEIT_AFTER,
        time_zone: str = DEFAULT_TIME_ZONE,
    ) -> UUID:
        """A league; ``turn_clock`` (seconds per turn, None: no clock) and ``forfeit_after`` (timeouts
        in a row, None or 0: never) go into each of its games (``service.domain.clock``);
        ``time_zone`` is where the club meets (an IANA name)."""
        league = League.found(name, ruleset, dict(options or {}), turn_clock, forfeit_after, time_zone)
        self.save(league)
        return league.id

    def get_league(self, league_id: UUID | str) -> League:
        return self._get(League, league_id, "league_not_found")

    def admit_member(self, league_id: UUID | str, player_id: UUID | str) -> None:
        player = self.get_player(player_id)
        player.check_not_erased()
        # a concurrent admission saves the league too: decided again, on the members as they are then
        self._update(
            lambda: self.get_league(league_id),
            lambda league: league.admit(player.id, player.name, self._names_of(league.members)),
        )

    def remove_member(self, league_id: UUID | str, player_id: UUID | str) -> None:
        """The player leaves the league's members; their games and standings stay."""
        self._update(
            lambda: self.get_league(league_id), lambda league: league.remove(self.get_player(player_id).id)
        )

    def appoint_referee(self, league_id: UUID | str, referee: str) -> None:
        self._update(lambda: self.get_league(league_id), lambda league: league.appoint_referee(referee))

    def dismiss_referee(self, league_id: UUID | str, referee: str) -> None:
        """The referee is taken off the league; their rulings stay."""
        self._update(lambda: self.get_league(league_id), lambda league: league.dismiss_referee(referee))
