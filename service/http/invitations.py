"""Invitations: an admin makes one for a league; a person redeems it for a name and a token
(``service.usecases.invitations``; ``docs/members.md``). The client address a wrong secret is
counted under is the peer's (``service.auth.peer``).
"""

from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Request, delete, get, post
from litestar.openapi.spec import Example
from litestar.params import Body, Parameter

from service.auth.peer import client_address
from service.domain.invitation import Invitation
from service.http.calls import calls
from service.http.controller import ApiController
from service.http.encode import encode
from service.http.params import LEAGUE_ID, PLAYER_ID, LeagueId
from service.http.players import PlayerRead, TokenRead
from service.http.routes import admin_route, public_route
from service.http.services import CallerDep, ServicesDep
from service.usecases import invitations
from service.usecases.invitations import CODE_EXAMPLE, InvitationCreate, Redemption

INVITATION_ID = "6e2a9c41-7b3d-4f85-a1c9-2d4e6f8b0a13"

InvitationId = Annotated[
    UUID,
    Parameter(
        description="the invitation's id (the hex digits after `inv_` in its code)",
        examples=[Example(summary="an invitation", value=INVITATION_ID)],
    ),
]


class InvitationRead(msgspec.Struct, frozen=True, kw_only=True):
    """An invitation, without its code."""

    invitation_id: Annotated[UUID, msgspec.Meta(examples=[INVITATION_ID])]
    league_id: Annotated[UUID, msgspec.Meta(examples=[LEAGUE_ID])]
    made_at: datetime
    made_by: Annotated[str, msgspec.Meta(description="the id of the admin who made it")]
    expires_at: datetime
    uses: int
    uses_left: int
    revoked: bool
    redeemed_by: Annotated[
        list[UUID], msgspec.Meta(examples=[[PLAYER_ID]], description="the players it made, in order")
    ]


class InvitationMade(msgspec.Struct, frozen=True, kw_only=True):
    invitation: InvitationRead
    code: Annotated[
        str,
        msgspec.Meta(
            description="the code to hand out, shown this once (only its hash is stored)",
            examples=[CODE_EXAMPLE],
        ),
    ]


class InvitationsRead(msgspec.Struct, frozen=True, kw_only=True):
    league_id: UUID
    invitations: Annotated[list[InvitationRead], msgspec.Meta(description="oldest first, spent ones too")]


class Welcome(msgspec.Struct, frozen=True, kw_only=True):
    player: PlayerRead
    league_id: Annotated[UUID, msgspec.Meta(examples=[LEAGUE_ID])]
    token: TokenRead


def invitation_read(invitation: Invitation) -> InvitationRead:
    return encode(
        InvitationRead,
        invitation,
        invitation_id=invitation.id,
        made_at=invitation.created_on,
        redeemed_by=list(invitation.redeemed_by),
    )


def made_read(made: tuple[Invitation, str]) -> InvitationMade:
    invitation, code = made
    return InvitationMade(invitation=invitation_read(invitation), code=code)


InvitationBody = Annotated[
    InvitationCreate,
    Body(examples=[Example(summary="ten people", value={"expires_at": "2026-12-31T23:59:00Z", "uses": 10})]),
]

RedemptionBody = Annotated[
    Redemption,
    Body(examples=[Example(summary="Ada joins", value={"code": CODE_EXAMPLE, "name": "Ada"})]),
]


class LeagueInvitationController(ApiController, path="/leagues", tag="invitations"):
    create = post(
        "/{league_id:uuid}/invitations",
        operation_id="createInvitation",
        summary="Make an invitation to a league (admin); the answer holds its code, shown once",
        **admin_route(404, 415, 422),
    )(
        calls(
            invitations.make_invitation,
            InvitationMade,
            encode=made_read,
            league_id=LeagueId,
            data=InvitationBody,
        )
    )

    @get(
        "/{league_id:uuid}/invitations",
        operation_id="listInvitations",
        summary="A league's invitations, without their codes (admin)",
        **admin_route(404),
    )
    def list_invitations(self, caller: CallerDep, league_id: LeagueId) -> InvitationsRead:
        found = caller.run(invitations.invitations_of, league_id)
        return InvitationsRead(league_id=league_id, invitations=[invitation_read(i) for i in found])


class InvitationController(ApiController, path="/invitations", tag="invitations"):
    revoke = delete(
        "/{invitation_id:uuid}",
        operation_id="revokeInvitation",
        summary="Revoke an invitation (admin): it is refused from now on",
        **admin_route(404, 409),
    )(calls(invitations.revoke_invitation, None, invitation_id=InvitationId))

    @post(
        "/redeem",
        operation_id="redeemInvitation",
        summary="Join a league with an invitation's code and a name of one's choosing (no token needed); "
        "the answer holds the new player's token",
        **public_route(404, 409, 410, 415, 429),
    )
    def redeem(self, request: Request[Any, Any, Any], services: ServicesDep, data: RedemptionBody) -> Welcome:
        address = client_address(request, services.settings.trusted_proxies)
        welcome = invitations.redeem_invitation(services, data, address).welcome
        return Welcome(
            player=PlayerRead(player_id=welcome.player_id, name=welcome.name),
            league_id=welcome.league_id,
            token=TokenRead(
                credential_id=welcome.credential_id,
                role="player",
                subject=str(welcome.player_id),
                token=welcome.token,
            ),
        )
