"""Invitations: make one for a league, list, revoke, and redeem one for a new member and their token."""

from datetime import UTC, datetime
from uuid import UUID

import msgspec
from eventsourcing.utils import get_topic

from service.application.leagues import Leagues
from service.application.saving import retried
from service.domain.credential import Credential, Keyring
from service.domain.invitation import Invitation, parse_code
from service.domain.league import Player, player_name
from service.domain.password import Password, checked_password


class Welcome(msgspec.Struct, frozen=True, kw_only=True):
    """What a redeemed invitation made: a player, a member of the league, and their first token."""

    player_id: UUID
    name: str
    league_id: UUID
    credential_id: UUID
    token: str  # shown once: only its hash is stored


def _now() -> datetime:
    return datetime.now(UTC)


class Invitations(Leagues):
    def make_invitation(
        self, league_id: UUID | str, expires_at: datetime, uses: int, made_by: str
    ) -> tuple[Invitation, str]:
        """A new invitation to the league, and its code (shown this once)."""
        league = self.get_league(league_id)
        invitation, code = Invitation.make(league.id, expires_at, uses, made_by, _now())
        self.save(invitation)
        return invitation, code

    def get_invitation(self, invitation_id: UUID | str) -> Invitation:
        return self._get(Invitation, invitation_id, "invitation_not_found")

    def invitations_of(self, league_id: UUID | str) -> list[Invitation]:
        """A league's invitations, oldest first, found from their making in the log (a club makes few)."""
        league = self.get_league(league_id)
        found = self._originators_of(get_topic(Invitation.Made), "league_id", league.id)
        return [self.get_invitation(invitation) for invitation in found]

    def revoke_invitation(self, invitation_id: UUID | str, by: str) -> None:
        # a redemption meanwhile saves it too: decided again, on the invitation as it is then
        self._update(lambda: self.get_invitation(invitation_id), lambda invitation: invitation.revoke(by))

    def redeem_invitation(self, code: str, name: str, password: str | None = None) -> Welcome:
        """A person joins with a code and a name of their choosing: a new player, admitted to the
        league, and their first token (and the password they chose, if any: ``Password``), all in
        one transaction with the invitation's ``Redeemed``.

        Everything is checked before anything is saved, so a refusal leaves no half-registered
        player. Two redemptions of the last use both record ``Redeemed`` at the same version of the
        invitation: the store keeps one, and the other, decided again, is refused as used up.
        """
        invitation_id, secret = parse_code(code)
        name = player_name(name)
        if password is not None:
            checked_password(password)  # refused before the invitation is even loaded

        def attempt() -> Welcome:
            invitation = self.get_invitation(invitation_id)
            invitation.check_redeemable(secret, _now())
            league = self.get_league(invitation.league_id)
            player = Player.register(name)
            league.admit(player.id, player.name, self._names_of(league.members))
            invitation.redeem(secret, player.id, _now())
            credential, token = Credential.issue("player", str(player.id), player.name)
            ring = Keyring.open(credential.subject)
            ring.add(credential)
            chosen = [] if password is None else [Password.choose(player.id, password)]
            self.save(player, league, invitation, ring, credential, *chosen)
            return Welcome(
                player_id=player.id,
                name=player.name,
                league_id=league.id,
                credential_id=credential.id,
                token=token,
            )

        return retried(attempt)
