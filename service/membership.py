"""Invitations, removing members and erasing players: use cases of the application.

Mixins of ``MauMau`` (``service.application``), which they use for loading and saving: they belong
beside its players' and leagues' use cases, in ``service/application/`` once that is a package.
"""

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar
from uuid import UUID

import msgspec
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import get_topic

from service.domain.credential import Credential, Keyring, keyring_id
from service.domain.errors import RuleError
from service.domain.invitation import Invitation, parse_code
from service.domain.league import Player, player_name
from service.persistence.erasure import scrub

T = TypeVar("T")
# a redemption or an erasure that met another write on one of its aggregates (the last use taken,
# a member admitted meanwhile) is decided again from what is stored, this many times at most
ATTEMPTS = 5


class Welcome(msgspec.Struct, frozen=True, kw_only=True):
    """What a redeemed invitation made: a player, a member of the league, and their first token."""

    player_id: UUID
    name: str
    league_id: UUID
    credential_id: UUID
    token: str  # shown once: only its hash is stored


def _now() -> datetime:
    return datetime.now(UTC)


def _retried(attempt: Callable[[], T]) -> T:
    for _ in range(ATTEMPTS - 1):
        try:
            return attempt()
        except IntegrityError:
            continue
    try:
        return attempt()
    except IntegrityError:
        raise RuleError("stale_version", "it was changed meanwhile: try again") from None


class Invitations:
    """Invitations to a league (``service.domain.invitation``)."""

    def make_invitation(
        self: Any, league_id: UUID | str, expires_at: datetime, uses: int, made_by: str
    ) -> tuple[Invitation, str]:
        """A new invitation to the league, and its code (shown this once)."""
        league = self.get_league(league_id)
        invitation, code = Invitation.make(league.id, expires_at, uses, made_by, _now())
        self.save(invitation)
        return invitation, code

    def get_invitation(self: Any, invitation_id: UUID | str) -> Invitation:
        return self._get(Invitation, invitation_id, "invitation_not_found", "no such invitation")

    def invitations_of(self: Any, league_id: UUID | str) -> list[Invitation]:
        """A league's invitations, oldest first, found from their making in the log (a club makes few)."""
        league = self.get_league(league_id)
        topic = get_topic(Invitation.Made)
        found: list[UUID] = []
        start: int | None = None
        while True:
            page = self.recorder.select_notifications(start, 500, topics=[topic], inclusive_of_start=False)
            for notification in page:
                made = self.mapper.to_domain_event(notification)
                if made.league_id == league.id:
                    found.append(made.originator_id)
            if len(page) < 500:
                return [self.get_invitation(invitation) for invitation in found]
            start = page[-1].id

    def revoke_invitation(self: Any, invitation_id: UUID | str, by: str) -> None:
        invitation = self.get_invitation(invitation_id)
        invitation.revoke(by)
        self._save_or_stale(invitation)  # a redemption meanwhile saves it too: one of them is stale

    def redeem_invitation(self: Any, code: str, name: str) -> Welcome:
        """A person joins with a code and a name of their choosing: a new player, admitted to the
        league, and their first token, all in one transaction with the invitation's ``Redeemed``.

        Everything is checked before anything is saved, so a refusal leaves no half-registered
        player. Two redemptions of the last use both record ``Redeemed`` at the same version of the
        invitation: the store keeps one, and the other, decided again, is refused as used up.
        """
        invitation_id, secret = parse_code(code)
        name = player_name(name)

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
            self.save(player, league, invitation, ring, credential)
            return Welcome(
                player_id=player.id,
                name=player.name,
                league_id=league.id,
                credential_id=credential.id,
                token=token,
            )

        return _retried(attempt)


class Members:
    """Leaving a league, and erasure on request (``docs/privacy.md``)."""

    def remove_member(self: Any, league_id: UUID | str, player_id: UUID | str) -> None:
        """The player leaves the league's members; their games and standings stay."""
        league = self.get_league(league_id)
        player = self.get_player(player_id)
        league.remove(player.id)
        self._save_or_stale(league)

    def erase_player(self: Any, player_id: UUID | str) -> list[UUID]:
        """Erase a player on request; the ids of the tokens it revoked.

        In one transaction: the player's ``Erased``, their removal from every league they are a
        member of and the revocation of every token of theirs. Then the name is scrubbed from the
        events of the player and of their tokens, in place. Erasing again records nothing more and
        scrubs again (so an erasure cut short between the two is completed by asking again).
        """

        def attempt() -> list[UUID]:
            player = self.get_player(player_id)
            player.erase()
            leagues = [league for league in self._leagues_of(player.id) if player.id in league.members]
            for league in leagues:
                league.remove(player.id)
            tokens = self._tokens_of(str(player.id))
            revoked = [credential for credential in tokens if not credential.revoked]
            for credential in revoked:
                credential.revoke()
            self.save(player, *leagues, *revoked)
            return [credential.id for credential in revoked]

        revoked = _retried(attempt)
        player = self.get_player(player_id)
        tokens = [credential.id for credential in self._tokens_of(str(player.id))]
        scrub(self.recorder, self._snapshot_recorder(), self.mapper, [player.id, *tokens])
        return revoked

    def _tokens_of(self: Any, subject: str) -> list[Credential]:
        try:
            ring = self._get(Keyring, keyring_id(subject), "credential_not_found", "no such keyring")
        except RuleError:
            return []
        return [self._get(Credential, c, "credential_not_found", "no such token") for c in ring.credentials]

    def _snapshot_recorder(self: Any) -> Any:
        return None if self.snapshots is None else self.snapshots.recorder
