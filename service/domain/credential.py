"""The Credential aggregate: one bearer token, stored as the hash of its secret.

A token reads ``mm_<credential id, 32 hex digits>_<secret>``. The id names
the one aggregate to load; the secret is never stored, only its SHA-256, and
it is compared in constant time. A credential speaks for one subject in one
role:

- ``admin``: runs the club; the subject is the credential's own id;
- ``referee``: the subject is the referee's id (what ``League.referees`` holds);
- ``player``: the subject is the player's id (what a game's seat holds).

Revoking a credential is final; the subject may be given a new one.

A token may mint another (``minted_by``, and ``Minted`` on the minter names the
heir), so revoking one revokes its heirs, transitively: a stolen token leaves
no working token behind. Each subject's tokens are listed in its ``Keyring``.
When a token was last used is no event (``service.http.auth``); ``docs/tokens.md``
tells the whole model.
"""

import hashlib
import hmac
import secrets
from datetime import datetime
from typing import Literal
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

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
        minted_by: UUID | None = None  # the token used to make this one; None: an admin's own, or older

    class Minted(Event):
        heir: UUID  # a token made with this one

        def apply(self, credential: "Credential") -> None:
            credential.heirs = (*credential.heirs, self.heir)

    class Revoked(Event):
        cause: UUID | None = None  # the token whose revocation took this one along; None: itself

        def apply(self, credential: "Credential") -> None:
            credential.revoked = True
            credential.revoked_on = self.timestamp
            credential.revoked_with = self.cause

    def __init__(
        self, role: str, subject: str, name: str, secret_hash: str, minted_by: UUID | None = None
    ) -> None:
        self.role = role
        self.subject = subject
        self.name = name
        self.secret_hash = secret_hash
        self.minted_by = minted_by
        self.heirs: tuple[UUID, ...] = ()
        self.revoked = False
        self.revoked_on: datetime | None = None
        self.revoked_with: UUID | None = None

    @classmethod
    def issue(
        cls,
        role: CredentialRole,
        subject: str | None,
        name: str,
        credential_id: UUID | None = None,
        minted_by: "Credential | None" = None,
    ) -> tuple["Credential", str]:
        """A new credential and its token (the only time the token exists in full).

        ``subject`` None makes the credential its own subject (an admin, or a new referee).
        ``minted_by``: the credential of the token that asks for this one; it records its heir
        (save both together), and refuses when it is revoked.
        """
        if role not in ROLES:
            raise RuleError("invalid_role", role=role)
        name = name.strip() if isinstance(name, str) else ""
        if not name or len(name) > MAX_NAME:
            raise RuleError("invalid_name", max_name=MAX_NAME)
        if minted_by is not None and minted_by.revoked:
            raise RuleError("unauthorized", why="token_not_valid")
        credential_id = credential_id or uuid4()
        secret = new_secret()
        credential = cls._create(
            cls.Issued,
            id=credential_id,
            role=role,
            subject=subject or str(credential_id),
            name=name,
            secret_hash=hash_secret(secret),
            minted_by=None if minted_by is None else minted_by.id,
        )
        if minted_by is not None:
            minted_by.trigger_event(cls.Minted, heir=credential_id)
        return credential, format_token(credential_id, secret)

    def revoke(self, cause: UUID | None = None) -> None:
        if self.revoked:
            raise RuleError("already_revoked", why="token_revoked_already")
        self.trigger_event(self.Revoked, cause=cause)

    def accepts(self, secret: str) -> bool:
        """The secret is this credential's and the credential is not revoked (constant time)."""
        return hmac.compare_digest(hash_secret(secret), self.secret_hash) and not self.revoked

    @property
    def actor(self) -> Actor:
        return Actor(self.role, self.subject)  # type: ignore[arg-type]


_KEYRINGS = uuid5(NAMESPACE_URL, "https://maumau.invalid/keyrings")


def keyring_id(subject: str) -> UUID:
    return uuid5(_KEYRINGS, subject)


class Keyring(Aggregate):
    """The ids of one subject's credentials, oldest first: what lists and revokes them all.

    Its id follows from the subject, so issuing a token loads or opens it without a lookup, and
    two tokens issued at once for one subject collide on its version (one is tried again).
    """

    class Event(Aggregate.Event):
        pass

    class Opened(Aggregate.Created):
        subject: str

    class Added(Event):
        credential_id: UUID

        def apply(self, keyring: "Keyring") -> None:
            keyring.credentials = (*keyring.credentials, self.credential_id)

    def __init__(self, subject: str) -> None:
        self.subject = subject
        self.credentials: tuple[UUID, ...] = ()

    @classmethod
    def open(cls, subject: str) -> "Keyring":
        return cls._create(cls.Opened, id=keyring_id(subject), subject=subject)

    def add(self, credential: Credential) -> None:
        if credential.subject != self.subject:
            raise ValueError(f"credential of {credential.subject!r} on the keyring of {self.subject!r}")
        self.trigger_event(self.Added, credential_id=credential.id)
