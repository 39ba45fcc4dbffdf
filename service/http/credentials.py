"""Issuing, finding and revoking credentials, stored in the application's event store.

The first admin credential has a fixed id, so "is there an admin yet?" is one
load, and two processes starting at once cannot both create it. Every other
admin credential is made after it (``maumau admin token``), so the first one
existing is the same as any existing.
"""

from uuid import NAMESPACE_URL, UUID, uuid5

import msgspec
from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from service.application import MauMau, project
from service.domain.credential import Credential, CredentialRole
from service.domain.errors import RuleError

FIRST_ADMIN = uuid5(NAMESPACE_URL, "https://maumau.invalid/credentials/first-admin")


class Issued(msgspec.Struct, frozen=True, kw_only=True):
    credential_id: UUID
    role: str
    subject: str
    token: str  # shown once: only its hash is stored


def find(app: MauMau, credential_id: UUID) -> Credential | None:
    try:
        found = app.repository.get(credential_id, projector_func=project)
    except AggregateNotFoundError:
        return None
    return found if isinstance(found, Credential) else None


def get(app: MauMau, credential_id: UUID) -> Credential:
    found = find(app, credential_id)
    if found is None:
        raise RuleError("credential_not_found", "no such token")
    return found


def issue(
    app: MauMau,
    role: CredentialRole,
    subject: str | None,
    name: str,
    credential_id: UUID | None = None,
    *with_: Aggregate,
) -> Issued:
    """A new credential, saved in one transaction with ``with_`` (the player it is for, say)."""
    credential, token = Credential.issue(role, subject, name, credential_id=credential_id)
    app.save(*with_, credential)
    return Issued(credential_id=credential.id, role=credential.role, subject=credential.subject, token=token)


def revoke(app: MauMau, credential_id: UUID) -> None:
    credential = get(app, credential_id)
    credential.revoke()
    try:
        app.save(credential)
    except IntegrityError:
        raise RuleError("already_revoked", "that token was revoked meanwhile") from None


def referee(app: MauMau, referee_id: UUID) -> Credential:
    """The credential that registered a referee: its id is the referee's id."""
    found = find(app, referee_id)
    if found is None or found.role != "referee" or found.subject != str(referee_id):
        raise RuleError("referee_not_found", "no such referee")
    return found


def first_admin(app: MauMau, name: str = "first admin") -> Issued | None:
    """The first admin credential, made now; None when there is one already."""
    if find(app, FIRST_ADMIN) is not None:
        return None
    try:
        return issue(app, "admin", None, name, credential_id=FIRST_ADMIN)
    except IntegrityError:  # another process made it first
        return None


def admin(app: MauMau, name: str) -> Issued:
    """An admin credential: the first one if there is none yet, else another."""
    return first_admin(app, name) or issue(app, "admin", None, name)
