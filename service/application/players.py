"""Players: register, rename, look up."""

from collections.abc import Sequence
from uuid import UUID

from eventsourcing.utils import get_topic

from service.application.core import Core
from service.domain.league import League, Player
from service.domain.names import checked_name, refuse_taken


class Players(Core):
    def register_player(self, name: str) -> UUID:
        player = Player.register(name)
        self.save(player)
        return player.id

    def get_player(self, player_id: UUID | str) -> Player:
        return self._get(Player, player_id, "player_not_found", "no such player")

    def rename_player(self, player_id: UUID | str, name: str) -> None:
        """A new name, which must differ from the names of the other members of each of the player's leagues.

        Not atomic with an admission to one of those leagues at the same moment: the two could still
        collide (they save different aggregates); both are rare, admin-driven commands.
        """
        player = self.get_player(player_id)
        name = checked_name(name, "player")
        for league in self._leagues_of(player.id):
            others = [other for other in league.members if other != player.id]
            refuse_taken(name, self._names_of(others), f"the league {league.name!r}")
        player.rename(name)
        self._save_or_stale(player)

    def _names_of(self, players: Sequence[UUID]) -> list[str]:
        return [self.get_player(player).name for player in players]

    def _leagues_of(self, player_id: UUID) -> list[League]:
        """The leagues a player is a member of, found from their admissions in the log (no index keeps
        them; a club's log holds few admissions)."""
        topic = get_topic(League.MemberAdmitted)
        found: list[UUID] = []
        start: int | None = None
        while True:
            page = self.recorder.select_notifications(start, 500, topics=[topic], inclusive_of_start=False)
            for notification in page:
                admitted = self.mapper.to_domain_event(notification)
                if admitted.player_id == player_id and admitted.originator_id not in found:
                    found.append(admitted.originator_id)
            if len(page) < 500:
                return [self._get(League, league, "league_not_found", "no such league") for league in found]
            start = page[-1].id
