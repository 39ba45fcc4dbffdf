"""The Invitation aggregate: a code an admin hands out, with which people join a league by themselves.

Commands and the events they record:

    Invitation.make(league_id, expires_at, uses, made_by, now)  -> Made   (and the code, once)
    invitation.redeem(secret, player_id, now)                   -> Redeemed
    invitation.revoke(by)                                       -> Revoked

A code reads ``inv_<invitation id, 32 hex digits>_<secret>``, like a token: the
id names the one aggregate to load, the secret is never stored (only its
SHA-256, compared in constant time). Redeeming registers a player, admits
them to the league and issues their token in one transaction with
``Redeemed`` (the application does that): two people redeeming the last use
at once both record ``Redeemed`` at the same version, and the store keeps one.

Refusals: invalid_uses, invalid_expiry, invitation_not_found (no such id, or a
wrong secret: the two are not told apart), invitation_revoked,
invitation_expired, invitation_used_up, already_revoked.
"""

from datetime import datetime, timedelta
from uuid import UUID

from eventsourcing.domain import Aggregate

from service.domain import handed_codes
from service.domain.errors import RuleError
from service.domain.handed_codes import code_pattern, matches, new_code

PREFIX = "inv"
MAX_USES = 1000
LONGEST = timedelta(days=366)  # an invitation for more than a season is a standing door, not an invitation
# the shape a redeemed code is checked against before any load
CODE_PATTERN = code_pattern(PREFIX)


def parse_code(code: str) -> tuple[UUID, str]:
    """The invitation's id and the secret of a code (``invitation_not_found``: not shaped like one)."""
    return handed_codes.parse_code(PREFIX, code, "invitation_not_found")


class Invitation(Aggregate):
    class Event(Aggregate.Event):
        pass

    class Made(Aggregate.Created):
        league_id: UUID
        expires_at: datetime
        uses: int
        made_by: str  # the admin's id (their credential's), or "" for the settings' admin token
        code_hash: str

    class Redeemed(Event):
        player_id: UUID  # the player it registered: their name is theirs, not the invitation's

        def apply(self, invitation: "Invitation") -> None:
            invitation.redeemed_by = (*invitation.redeemed_by, self.player_id)

    class Revoked(Event):
        by: str

        def apply(self, invitation: "Invitation") -> None:
            invitation.revoked = True

    def __init__(
        self, league_id: UUID, expires_at: datetime, uses: int, made_by: str, code_hash: str
    ) -> None:
        self.league_id = league_id
        self.expires_at = expires_at
        self.uses = uses
        self.made_by = made_by
        self.code_hash = code_hash
        self.redeemed_by: tuple[UUID, ...] = ()
        self.revoked = False

    @classmethod
    def make(
        cls, league_id: UUID, expires_at: datetime, uses: int, made_by: str, now: datetime
    ) -> tuple["Invitation", str]:
        """A new invitation and its code (the only time the code exists in full)."""
        if type(uses) is not int or not 1 <= uses <= MAX_USES:
            raise RuleError("invalid_uses", max_uses=MAX_USES)
        if expires_at.tzinfo is None:
            raise RuleError("invalid_expiry", why="time_zone")
        if not now < expires_at <= now + LONGEST:
            raise RuleError("invalid_expiry", why="window", days=LONGEST.days)
        invitation_id, code, code_hash = new_code(PREFIX)
        made = {"league_id": league_id, "expires_at": expires_at, "uses": uses, "made_by": made_by}
        return cls._create(cls.Made, id=invitation_id, code_hash=code_hash, **made), code

    @property
    def uses_left(self) -> int:
        return self.uses - len(self.redeemed_by)

    def check_redeemable(self, secret: str, now: datetime) -> None:
        """The secret is this invitation's, and it may be redeemed now (the checks of ``redeem``)."""
        if not matches(secret, self.code_hash):
            raise RuleError("invitation_not_found")
        if self.revoked:
            raise RuleError("invitation_revoked")
        if now >= self.expires_at:
            raise RuleError("invitation_expired")
        if self.uses_left <= 0:
            raise RuleError("invitation_used_up")

    def redeem(self, secret: str, player_id: UUID, now: datetime) -> None:
        self.check_redeemable(secret, now)
        self.trigger_event(self.Redeemed, player_id=player_id)

    def revoke(self, by: str) -> None:
        if self.revoked:
            raise RuleError("already_revoked", why="invitation_revoked_already")
        self.trigger_event(self.Revoked, by=by)
