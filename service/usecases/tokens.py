"""Tokens: listed by subject, issued, revoked one by one or all at once; revoking one revokes its heirs.

A token's holder (a player, a referee) lists, gets and revokes their own tokens; an admin anyone's.
A listing never holds a secret, only what a holder needs to tell their tokens apart
(``docs/tokens.md``).
"""

from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

import msgspec

from service.application import credentials
from service.domain.credential import Credential
from service.domain.roles import Actor
from service.domain.struct_from import struct_from
from service.usecases import policy
from service.usecases.context import Context, write
from service.usecases.fields import PLAYER_ID

CREDENTIAL_ID = "0f6b1d2c-3a4e-4b5f-8c6d-7e8f9a0b1c2d"
Holder = Literal["player", "referee"]
_SEE_OR_REVOKE = "holder_tokens"


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
    return struct_from(
        CredentialRead,
        credential,
        credential_id=credential.id,
        made_at=credential.created_on,
        last_used_at=last_used,
        revoked_at=credential.revoked_on,
    )


def _name_of(context: Context, role: Holder, subject: UUID) -> str:
    """The holder's name; an unknown one is 404."""
    match role:
        case "player":
            return context.app.get_player(subject).name
        case "referee":
            return credentials.referee(context.app, subject).name


def tokens_of(context: Context, actor: Actor, role: Holder, subject: UUID) -> CredentialsRead:
    """A holder's tokens, without their secrets, each with when it was last used."""
    policy.check_holder(actor, role, str(subject), _SEE_OR_REVOKE)
    _name_of(context, role, subject)
    found = credentials.tokens_of(context.app, str(subject))
    used = context.reader.views.token_uses.last(c.id for c in found)
    return CredentialsRead(subject=str(subject), tokens=[credential_read(c, used.get(c.id)) for c in found])


@write
def issue_token(
    context: Context, actor: Actor, role: Holder, subject: UUID, minted_by: UUID | None
) -> credentials.Issued:
    """Another token for a holder, made with ``minted_by`` (the asker's token; None: the env's)."""
    policy.check_holder(actor, role, str(subject), "holder_new_token")
    match role:
        case "player":
            player = context.app.get_player(subject)
            player.check_not_erased()  # 410: an erased player gets no token
            name = player.name
        case "referee":
            name = credentials.referee(context.app, subject).name
    return credentials.issue(context.app, role, str(subject), name, minted_by=minted_by)


@write
def revoke_token(context: Context, actor: Actor, credential_id: UUID) -> RevokedRead:
    """A token and every token made with it, revoked and forgotten at once by this process."""
    credential = credentials.get(context.app, credential_id)
    policy.check_holder(actor, credential.role, credential.subject, _SEE_OR_REVOKE)
    revoked = credentials.revoke(context.app, credential_id)
    context.auth.forget(*revoked)
    return RevokedRead(revoked=revoked)


@write
def revoke_tokens(context: Context, actor: Actor, role: Holder, subject: UUID) -> RevokedRead:
    """Every token of a holder, and those made with them."""
    policy.check_holder(actor, role, str(subject), _SEE_OR_REVOKE)
    _name_of(context, role, subject)
    revoked = credentials.revoke_all(context.app, str(subject))
    context.auth.forget(*revoked)
    return RevokedRead(revoked=revoked)
