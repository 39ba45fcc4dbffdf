"""Players: register, rename, look up, erase on request (``docs/privacy.md``)."""

from collections.abc import Callable, Sequence
from uuid import UUID

from eventsourcing.utils import get_topic

from service.application.core import Core, G
from service.application.saving import retried
from service.domain.credential import Credential, Keyring, keyring_id
from service.domain.errors import RuleError
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.league import League, Player
from service.domain.mao.aggregate import MaoGame
from service.domain.names import checked_name, refuse_taken
from service.domain.password import password_id
from service.domain.roles import SYSTEM
from service.domain.seats import Seat
from service.domain.tournament import Tournament
from service.persistence.erasure import scrub


class Players(Core):
    def register_player(self, name: str) -> UUID:
        player = Player.register(name)
        self.save(player)
        return player.id

    def get_player(self, player_id: UUID | str) -> Player:
        return self._get(Player, player_id, "player_not_found")

    def rename_player(self, player_id: UUID | str, name: str) -> None:
        """A new name, which must differ from the names of the other members of each of the player's leagues.

        Not atomic with an admission to one of those leagues at the same moment: the two could still
        collide (they save different aggregates); both are rare, admin-driven commands.
        """

        def rename(player: Player) -> None:
            checked = checked_name(name, "player")
            for league in self._leagues_of(player.id):
                if player.id not in league.members:
                    continue  # a league they left: its members' names are no longer theirs to differ from
                others = [other for other in league.members if other != player.id]
                refuse_taken(checked, self._names_of(others), f"the league {league.name!r}")
            player.rename(checked)

        self._update(lambda: self.get_player(player_id), rename)

    def erase_player(self, player_id: UUID | str) -> list[UUID]:
        """Erase a player on request; the ids of the tokens it revoked.

        In one transaction: the player's ``Erased``, their removal from every league they are a
        member of and the revocation of every token of theirs. Then the name is scrubbed from the
        events of the player and of their tokens, in place; they leave each tournament of theirs
        (``withdraw_from_tournaments``), and their seat forfeits each game and Mao match of theirs
        still in play (``forfeit_seats_of``), so none waits for them for ever. Erasing again
        records nothing more and scrubs again (so an erasure cut short between the steps is
        completed by asking again).
        """

        def attempt() -> tuple[Player, list[UUID]]:
            player = self.get_player(player_id)
            player.erase()
            leagues = [league for league in self._leagues_of(player.id) if player.id in league.members]
            for league in leagues:
                league.remove(player.id)
            revoked = [credential for credential in self._tokens_of(str(player.id)) if not credential.revoked]
            for credential in revoked:
                credential.revoke()
            self.save(player, *leagues, *revoked)
            return player, [credential.id for credential in revoked]

        player, revoked = retried(attempt)
        tokens = [credential.id for credential in self._tokens_of(str(player.id))]
        snapshots = None if self.snapshots is None else self.snapshots.recorder
        scrub(self.recorder, snapshots, self.mapper, [player.id, password_id(player.id), *tokens])
        # before the forfeits: a table's result they bring must not pair them in a next round
        self.withdraw_from_tournaments(player.id)
        self.forfeit_seats_of(player.id)
        return revoked

    def withdraw_from_tournaments(self, player_id: UUID) -> list[UUID]:
        """The erased player leaves each tournament they entered that has not started, and is dropped
        from the later rounds of each running one (``Tournament.withdraw_erased``): the tournaments
        it changed."""
        entrant = str(player_id)
        changed = []
        for tournament_id in self._originators_of(get_topic(Tournament.Joined), "entrant", entrant):

            def withdraw(tournament_id: UUID = tournament_id) -> bool:
                tournament = self._get(Tournament, tournament_id, "tournament_not_found", why="withdrawn")
                tournament.withdraw_erased(entrant)
                if not tournament.pending_events:
                    return False
                self.save(tournament)
                return True

            if retried(withdraw):
                changed.append(tournament_id)
        return changed

    def forfeit_seats_of(self, player_id: UUID) -> list[UUID]:
        """The player's seat forfeits every game and Mao match of theirs still in play
        (``Game.forfeit_seat``, ``MaoGame.forfeit_seat``, through the one act path): the games it
        forfeited now. A game over, abandoned or forfeited already is passed over."""

        def forfeit_mao(match: MaoGame, cause: Cause) -> None:
            seat = match.seat_of(str(player_id))
            assert seat is not None  # found among the match's seats
            match.forfeit_seat(seat)  # the workers move the stand-in, once it is on turn

        def forfeit(game: Game, cause: Cause) -> None:
            seat = game.seat_of(str(player_id))
            assert seat is not None  # found among the game's seats
            game.forfeit_seat(seat, cause)

        forfeited = [
            match_id
            for match_id in self._mao_games_of(player_id)
            if self._forfeits(MaoGame, match_id, forfeit_mao)
        ]
        return forfeited + [
            game_id for game_id in self._games_of(player_id) if self._forfeits(Game, game_id, forfeit)
        ]

    def _forfeits(self, kind: type[G], game_id: UUID, forfeit: Callable[[G, Cause], None]) -> bool:
        """Whether the seat forfeited now (not when the game is over, abandoned or forfeited already)."""
        try:
            self._act(kind, game_id, Cause(SYSTEM, "ForfeitSeat"), None, forfeit)
        except RuleError as error:
            if error.code not in ("game_over", "game_abandoned", "seat_forfeited"):
                raise
            return False
        return True

    def _originators_of(self, topic: str, field: str, value: object) -> list[UUID]:
        """The aggregates with an event of ``topic`` whose ``field`` is or holds ``value``, found in the
        log (no index of the store keeps them; erasure and a league's invitations are looked up rarely)."""
        found: list[UUID] = []
        start: int | None = None
        while True:
            page = self.recorder.select_notifications(start, 500, topics=[topic], inclusive_of_start=False)
            for notification in page:
                event = self.mapper.to_domain_event(notification)
                held = getattr(event, field)
                if (held == value or (isinstance(held, tuple) and value in held)) and (
                    event.originator_id not in found
                ):
                    found.append(event.originator_id)
            if len(page) < 500:
                return found
            start = page[-1].id

    def _games_of(self, player_id: UUID) -> list[UUID]:
        return self._originators_of(get_topic(Game.Created), "seats", Seat("player", str(player_id)))

    def _mao_games_of(self, player_id: UUID) -> list[UUID]:
        return self._originators_of(get_topic(MaoGame.Started), "seats", str(player_id))

    def _tokens_of(self, subject: str) -> list[Credential]:
        try:
            ring = self._get(Keyring, keyring_id(subject), "credential_not_found", why="keyring")
        except RuleError:
            return []
        return [self._get(Credential, c, "credential_not_found") for c in ring.credentials]

    def _names_of(self, players: Sequence[UUID]) -> list[str]:
        return [self.get_player(player).name for player in players]

    def _leagues_of(self, player_id: UUID) -> list[League]:
        """The leagues a player is a member of, found from their admissions (a club's log holds few)."""
        found = self._originators_of(get_topic(League.MemberAdmitted), "player_id", player_id)
        return [self._get(League, league, "league_not_found") for league in found]
