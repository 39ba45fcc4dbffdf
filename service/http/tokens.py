"""Tokens: listed by subject, revoked one by one or all at once; revoking one revokes its heirs.

A token's holder (a player, a referee) lists and revokes their own tokens; an
admin anyone's. A listing never holds a secret, only what a holder needs to
tell their tokens apart (``docs/tokens.md``).
"""

from datetime import datetime
from typing import Annotated
from uuid import UUID

import msgspec
from litestar import Controller, delete

from service.application import credentials
from service.domain.credential import Credential
from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.http.auth import SIGNED_IN
from service.http.errors import problems
from service.http.params import PLAYER_ID, CredentialId
from service.http.security import BEARER
from service.http.services import ActorDep, ServicesDep
from service.usecases.services import Services

CREDENTIAL_ID = "0f6b1d2c-3a4e-4b5f-8c6d-7e8f9a0b1c2d"


class CredentialRead(msgspec.Struct, frozen=True, kw_only=True):
    """One token, without its secret."""

    credential_id: Annotated[UUID, msgspec.Meta(examples=[CREDENTIAL_ID])]
    role: Annotated[str, msgspec.Meta(examples=["player"])]
    subject: Annotated[str, msgspec.Meta(examples=[PLAYER_ID], description="the player's or referee's id")]
    name: Annotated[str, msgspec.Meta(examples=["Ada"], description="the name it was made for")]
    made_at: datetime
    minted_by: Annotated[
        UUID | None,
        msgspec.Meta(description="the token used to make this one (null: made by an admin's own token)"),
    ] = None
    last_used_at: Annotated[
        datetime | None,
        msgspec.Meta(description="when it was last used, to within an hour (null: never, as far as noted)"),
    ] = None
    revoked_at: datetime | None = None
    revoked_with: Annotated[
        UUID | None,
        msgspec.Meta(description="the token whose revocation took this one along (null: revoked itself)"),
    ] = None


class CredentialsRead(msgspec.Struct, frozen=True, kw_only=True):
    subject: str
    tokens: Annotated[list[CredentialRead], msgspec.Meta(description="oldest first, revoked ones too")]


class RevokedRead(msgspec.Struct, frozen=True, kw_only=True):
    revoked: Annotated[
        list[UUID], msgspec.Meta(description="every token revoked now: the ones asked for and their heirs")
    ]


def credential_read(credential: Credential, last_used: datetime | None) -> CredentialRead:
    return CredentialRead(
        credential_id=credential.id,
        role=credential.role,
        subject=credential.subject,
        name=credential.name,
        made_at=credential.created_on,
        minted_by=credential.minted_by,
        last_used_at=last_used,
        revoked_at=credential.revoked_on,
        revoked_with=credential.revoked_with,
    )


def check_holder_or_admin(actor: Actor, role: str, subject: str) -> None:
    """An admin, or the holder of ``subject``'s tokens in ``role``."""
    if actor.role != "admin" and not (actor.role == role and actor.id == subject):
        raise RuleError("forbidden", "only an admin or the holder may see or revoke these tokens")


def list_tokens(services: Services, subject: str) -> CredentialsRead:
    found = credentials.tokens_of(services.app, subject)
    used = services.reader.views.token_uses.last(c.id for c in found)
    return CredentialsRead(subject=subject, tokens=[credential_read(c, used.get(c.id)) for c in found])


def revoke_all(services: Services, subject: str) -> RevokedRead:
    revoked = credentials.revoke_all(services.app, subject)
    services.auth.forget(*revoked)
    return RevokedRead(revoked=revoked)


class TokenController(Controller):
    path = "/tokens"
    tags = ["tokens"]  # noqa: RUF012

    @delete(
        "/{credential_id:uuid}",
        operation_id="revokeToken",
        summary="Revoke a token and every token made with it (an admin, or its holder)",
        opt=SIGNED_IN,
        responses=problems(401, 403, 404, 409),
        security=BEARER,
        sync_to_thread=True,
    )
    def revoke(self, services: ServicesDep, actor: ActorDep, credential_id: CredentialId) -> None:
        credential = credentials.get(services.app, credential_id)
        check_holder_or_admin(actor, credential.role, credential.subject)
        services.auth.forget(*credentials.revoke(services.app, credential_id))
