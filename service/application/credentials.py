"""Issuing, finding and revoking credentials, stored in the application's event store.

The first admin credential has a fixed id, so "is there an admin yet?" is one
load, and two processes starting at once cannot both create it. Every other
admin credential is made after it (``maumau admin token``), so the first one
existing is the same as any existing.

Every credential is added to its subject's ``Keyring`` in the transaction that
issues it, and a token that mints another records its heir in that same
transaction, so listing a subject's tokens and revoking a token's heirs never
miss one made a moment before (``docs/tokens.md``).
"""

from uuid import NAMESPACE_URL, UUID, uuid5

import msgspec
from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.utils import get_topic

from service.application import MauMau, project
from service.application.saving import Conflict, retried
from service.domain.credential import Credential, CredentialRole, Keyring, keyring_id
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
        raise RuleError("credential_not_found")
    return found


def keyring(app: MauMau, subject: str) -> Keyring | None:
    try:
        found = app.repository.get(keyring_id(subject), projector_func=project)
    except AggregateNotFoundError:
        return None
    return found if isinstance(found, Keyring) else None


def issue(
    app: MauMau,
    role: CredentialRole,
    subject: str | None,
    name: str,
    credential_id: UUID | None = None,
    *with_: Aggregate,
    minted_by: UUID | None = None,
) -> Issued:
    """A new credential, saved in one transaction with ``with_`` (the player it is for, say), its
    subject's keyring and, when a token asks for it (``minted_by``), that token's note of its heir."""

    def attempt() -> Issued:
        minter = None if minted_by is None else get(app, minted_by)
        credential, token = Credential.issue(
            role, subject, name, credential_id=credential_id, minted_by=minter
        )
        ring = keyring(app, credential.subject) or Keyring.open(credential.subject)
        ring.add(credential)
        app.save(*with_, *([minter] if minter else []), ring, credential)
        return Issued(
            credential_id=credential.id, role=credential.role, subject=credential.subject, token=token
        )

    if with_ or credential_id is not None:
        # a new subject (whose events the first attempt took), or a fixed id: a collision
        # (``Conflict``) means it exists already, which the caller decides
        return attempt()
    # a token minted, used or revoked meanwhile: decided again from what is stored
    return retried(attempt)


def _with_heirs(app: MauMau, roots: list[Credential]) -> list[Credential]:
    """The credentials not revoked among ``roots`` and every token minted from them, transitively."""
    found: dict[UUID, Credential] = {}
    todo = [root for root in roots if not root.revoked]
    while todo:
        credential = todo.pop()
        if credential.id in found or credential.revoked:
            continue
        found[credential.id] = credential
        todo.extend(c for c in (find(app, heir) for heir in credential.heirs) if c is not None)
    return list(found.values())


def _revoke_together(app: MauMau, roots: list[Credential]) -> list[UUID]:
    """Revoke ``roots`` and their heirs in one transaction; each heir names the root it went with."""
    revoked = []
    root_ids = {root.id for root in roots}
    for credential in _with_heirs(app, roots):
        cause = None if credential.id in root_ids else _root_of(credential, root_ids, app)
        credential.revoke(cause)
        revoked.append(credential)
    if revoked:
        app.save(*revoked)
    return [credential.id for credential in revoked]


def _root_of(credential: Credential, roots: set[UUID], app: MauMau) -> UUID | None:
    """The root whose revocation takes ``credential`` along: the first up its line of minters."""
    minter = credential.minted_by
    while minter is not None and minter not in roots:
        found = find(app, minter)
        minter = None if found is None else found.minted_by
    return minter


def revoke(app: MauMau, credential_id: UUID) -> list[UUID]:
    """Revoke a token and every token minted from it (transitively); the ids revoked, it first."""

    def attempt() -> list[UUID]:
        credential = get(app, credential_id)
        if credential.revoked:
            raise RuleError("already_revoked", why="token_revoked_already")
        return _revoke_together(app, [credential])

    return retried(attempt)


def revoke_all(app: MauMau, subject: str) -> list[UUID]:
    """Revoke every token of a subject not revoked yet, and their heirs; the ids revoked."""
    return retried(lambda: _revoke_together(app, tokens_of(app, subject)))


def tokens_of(app: MauMau, subject: str) -> list[Credential]:
    """A subject's credentials, oldest first, revoked ones too."""
    ring = keyring(app, subject)
    if ring is None:
        return []
    found = [c for c in (find(app, credential_id) for credential_id in ring.credentials) if c is not None]
    # a keyring lists in the order tokens were added, which for tokens added later (``fill_keyrings``)
    # is not the order they were made in
    return sorted(found, key=lambda credential: credential.created_on)


def fill_keyrings(app: MauMau, page: int = 500) -> int:
    """Add every credential made before keyrings existed to its subject's keyring; how many were
    added. It reads every issue of a credential in the log, so it is run once, by hand, after the
    upgrade (``maumau admin keyrings``); again, it adds nothing."""
    topic = get_topic(Credential.Issued)
    added = 0
    start = 1
    while found := app.recorder.select_notifications(start, page, topics=[topic]):
        for notification in found:
            credential_id = UUID(str(notification.originator_id))

            def attempt(credential_id: UUID = credential_id) -> int:
                credential = get(app, credential_id)
                ring = keyring(app, credential.subject) or Keyring.open(credential.subject)
                if credential.id in ring.credentials:
                    return 0
                ring.add(credential)
                app.save(ring)
                return 1

            added += retried(attempt)
        start = found[-1].id + 1
    return added


def referee(app: MauMau, referee_id: UUID) -> Credential:
    """The credential that registered a referee: its id is the referee's id."""
    found = find(app, referee_id)
    if found is None or found.role != "referee" or found.subject != str(referee_id):
        raise RuleError("referee_not_found")
    return found


def first_admin(app: MauMau, name: str = "first admin") -> Issued | None:
    """The first admin credential, made now; None when there is one already."""
    if find(app, FIRST_ADMIN) is not None:
        return None
    try:
        return issue(app, "admin", None, name, credential_id=FIRST_ADMIN)
    except Conflict:  # another process made it first
        return None


def admin(app: MauMau, name: str) -> Issued:
    """An admin credential: the first one if there is none yet, else another."""
    return first_admin(app, name) or issue(app, "admin", None, name)
