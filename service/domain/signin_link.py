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

import hmac
import re
from datetime import datetime
from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate

from service.domain.credential import hash_secret, new_secret
from service.domain.errors import RuleError

PREFIX = "sil"
CODE_PATTERN = r"^sil_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$"


def format_code(link_id: UUID, secret: str) -> str:
    return f"{PREFIX}_{link_id.hex}_{secret}"


def parse_code(code: str) -> tuple[UUID, str]:
    """The link's id and the secret of a code (``signin_link_not_found``: not shaped like one)."""
    if not isinstance(code, str) or re.fullmatch(CODE_PATTERN, code) is None:
        raise RuleError("signin_link_not_found")
    _, hex_id, secret = code.split("_", 2)
    return UUID(hex=hex_id), secret


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
        link_id = uuid4()
        secret = new_secret()
        link = cls._create(
            cls.Made,
            id=link_id,
            player_id=player_id,
            made_by=made_by,
            expires_at=expires_at,
            code_hash=hash_secret(secret),
        )
        return link, format_code(link_id, secret)

    def check_usable(self, secret: str, now: datetime) -> None:
        if not hmac.compare_digest(hash_secret(secret), self.code_hash):
            raise RuleError("signin_link_not_found")
        if self.used:
            raise RuleError("signin_link_used")
        if now >= self.expires_at:
            raise RuleError("signin_link_expired")

    def use(self, secret: str, now: datetime) -> None:
        self.check_usable(secret, now)
        self.trigger_event(self.Used)
