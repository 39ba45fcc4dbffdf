"""The SignInLink aggregate: a one-time link that signs a player in on another device.

Commands and the events they record:

    SignInLink.make(player_id, made_by, expires_at, now)  -> Made   (and the code, once)
    link.use(secret, now)                                 -> Used

An organiser makes one for a member who lost their access, or a signed-in player for their own
other device. A code reads ``sil_<link id, 32 hex digits>_<secret>``, like an invitation's: the id
names the aggregate to load, only the secret's SHA-256 is stored, compared in constant time. It
signs in once (``Used``; two uses at once collide on the version and the store keeps one) and
not after ``expires_at``.

Refusals: signin_link_not_found (no such id, or a wrong secret: not told apart), signin_link_used,
signin_link_expired.
"""

from datetime import datetime
from uuid import UUID

from eventsourcing.domain import Aggregate

from service.domain import handed_codes
from service.domain.errors import RuleError
from service.domain.handed_codes import matches, new_code

PREFIX = "sil"


def parse_code(code: str) -> tuple[UUID, str]:
    """The link's id and the secret of a code (``signin_link_not_found``: not shaped like one)."""
    return handed_codes.parse_code(PREFIX, code, "signin_link_not_found")


class SignInLink(Aggregate):
    class Event(Aggregate.Event):
        pass

    class Made(Aggregate.Created):
        player_id: UUID
        made_by: str  # the role and id of whoever made it ("admin:<id>", "player:<id>", ...)
        expires_at: datetime
        code_hash: str

    class Used(Event):
        def apply(self, link: "SignInLink") -> None:
            link.used = True

    def __init__(self, player_id: UUID, made_by: str, expires_at: datetime, code_hash: str) -> None:
        self.player_id = player_id
        self.made_by = made_by
        self.expires_at = expires_at
        self.code_hash = code_hash
        self.used = False

    @classmethod
    def make(cls, player_id: UUID, made_by: str, expires_at: datetime) -> tuple["SignInLink", str]:
        """A new link and its code (the only time the code exists in full)."""
        link_id, code, code_hash = new_code(PREFIX)
        made = {"player_id": player_id, "made_by": made_by, "expires_at": expires_at}
        return cls._create(cls.Made, id=link_id, code_hash=code_hash, **made), code

    def check_usable(self, secret: str, now: datetime) -> None:
        if not matches(secret, self.code_hash):
            raise RuleError("signin_link_not_found")
        if self.used:
            raise RuleError("signin_link_used")
        if now >= self.expires_at:
            raise RuleError("signin_link_expired")

    def use(self, secret: str, now: datetime) -> None:
        self.check_usable(secret, now)
        self.trigger_event(self.Used)
