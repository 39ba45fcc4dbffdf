"""The Credential aggregate: one bearer token, stored as the hash of its secret.

A token reads ``mm_<credential id, 32 hex digits>_<secret>``. The id names
the one aggregate to load; the secret is never stored, only its SHA-256, and
it is compared in constant time. A credential speaks for one subject in one
role:

- ``admin``: runs the club; the subject is the credential's own id;
- ``referee``: the subject is the referee's id (what ``League.referees`` holds);
- ``player``: the subject is the player's id (what a game's seat holds).

Revoking a credential is final; the subject may be given a new one.
"""

import hashlib
import hmac
import secrets
from typing import Literal
from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate

from service.domain.errors import RuleError
from service.domain.roles import Actor

CredentialRole = Literal["admin", "referee", "player"]
ROLES: tuple[CredentialRole, ...] = ("admin", "referee", "player")
PREFIX = "mm"
MAX_NAME = 80


def hash_secret(secret: str) -> str:
    """The SHA-256 of a secret (or of a whole token), in hex: what is stored and compared."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def format_token(credential_id: UUID, secret: str) -> str:
    return f"{PREFIX}_{credential_id.hex}_{secret}"


def parse_token(token: str) -> tuple[UUID, str] | None:
    """The credential id and the secret of a token; None when it is not shaped like one."""
    parts = token.split("_", 2)
    if len(parts) != 3 or parts[0] != PREFIX or len(parts[1]) != 32 or not parts[2]:
        return None
    try:
        return UUID(hex=parts[1]), parts[2]
    except ValueError:
        return None


class Credential(Aggregate):
    class Event(Aggregate.Event):
        pass

    class Issued(Aggregate.Created):
        role: str
        subject: str
        name: str
        secret_hash: str

    class Revoked(Event):
        def apply(self, credential: "Credential") -> None:
            credential.revoked = True

    def __init__(self, role: str, subject: str, name: str, secret_hash: str) -> None:
        self.role = role
        self.subject = subject
        self.name = name
        self.secret_hash = secret_hash
        self.revoked = False

    @classmethod
    def issue(
        cls,
        role: CredentialRole,
        subject: str | None,
        name: str,
        credential_id: UUID | None = None,
    ) -> tuple["Credential", str]:
        """A new credential and its token (the only time the token exists in full).

        ``subject`` None makes the credential its own subject (an admin, or a new referee).
        """
        if role not in ROLES:
            raise RuleError(
                "invalid_role", f"a credential is for an admin, a referee or a player, not {role!r}"
            )
        name = name.strip() if isinstance(name, str) else ""
        if not name or len(name) > MAX_NAME:
            raise RuleError("invalid_name", f"a credential needs a name of 1 to {MAX_NAME} characters")
        credential_id = credential_id or uuid4()
        secret = new_secret()
        credential = cls._create(
            cls.Issued,
            id=credential_id,
            role=role,
            subject=subject or str(credential_id),
            name=name,
            secret_hash=hash_secret(secret),
        )
        return credential, format_token(credential_id, secret)

    def revoke(self) -> None:
        if self.revoked:
            raise RuleError("already_revoked", "that token is revoked already")
        self.trigger_event(self.Revoked)

    def accepts(self, secret: str) -> bool:
        """The secret is this credential's and the credential is not revoked (constant time)."""
        return hmac.compare_digest(hash_secret(secret), self.secret_hash) and not self.revoked

    @property
    def actor(self) -> Actor:
        return Actor(self.role, self.subject)  # type: ignore[arg-type]
