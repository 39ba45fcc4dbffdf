"""Invitations: an admin makes one for a league; a person redeems it for a name and a token.

``docs/members.md`` tells the whole story. The code is shown once, when the
invitation is made (only its hash is stored); a listing never holds it.
Redeeming needs no token: the code is the permission. Only a wrong secret counts
as a try at guessing: once a client address (``service.http.peer``) sent
``MAUMAU_REDEEM_REFUSALS`` wrong secrets for one invitation within a minute, its
further wrong ones are answered 429 ``too_many_attempts`` instead of 404, in
each API process. A right code is answered as it stands (a welcome, used up,
expired, revoked) whatever was counted, so a crowd redeeming a code at once, or
people sharing an address with a guesser, are never locked out.
"""

import threading
import time
import weakref
from collections import OrderedDict, deque
from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, Request, delete, get, post
from litestar.openapi.spec import Example
from litestar.params import Body, Parameter

from service.domain.errors import RuleError
from service.domain.invitation import CODE_PATTERN, MAX_USES, Invitation, parse_code
from service.http.auth import ADMIN_ONLY
from service.http.errors import problems
from service.http.params import LEAGUE_ID, PLAYER_ID, LeagueId
from service.http.peer import client_address
from service.http.players import Name, PlayerRead, TokenRead
from service.http.security import BEARER, OPTIONAL_BEARER
from service.http.services import ActorDep, ServicesDep
from service.usecases.services import Services
from service.usecases.tournaments import bounds

INVITATION_ID = "6e2a9c41-7b3d-4f85-a1c9-2d4e6f8b0a13"
CODE_EXAMPLE = "inv_6e2a9c417b3d4f85a1c92d4e6f8b0a13_Vq3Jx9kQ2mZ7rT4wB8nY1cF6hL0sD5gP3aE9uK2oXjM"

InvitationId = Annotated[
    UUID,
    Parameter(
        description="the invitation's id (the hex digits after `inv_` in its code)",
        examples=[Example(summary="an invitation", value=INVITATION_ID)],
    ),
]
Code = Annotated[
    str,
    msgspec.Meta(
        pattern=CODE_PATTERN,
        description="the invitation's code as it was handed out",
        examples=[CODE_EXAMPLE],
    ),
]


class InvitationCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The ranges are the rules' (422 ``invalid_uses``, ``invalid_expiry`` outside them)."""

    expires_at: Annotated[
        datetime,
        msgspec.Meta(
            description="when it stops working, with a time zone: after now, within 366 days",
            examples=["2026-12-31T23:59:00Z"],
        ),
    ]
    uses: Annotated[
        int,
        msgspec.Meta(
            description="how many people may join with it",
            examples=[10],
            extra_json_schema=bounds(1, MAX_USES),
        ),
    ] = 1


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


class Redemption(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    code: Code
    name: Name


class Welcome(msgspec.Struct, frozen=True, kw_only=True):
    player: PlayerRead
    league_id: Annotated[UUID, msgspec.Meta(examples=[LEAGUE_ID])]
    token: TokenRead


WINDOW = 60.0  # seconds in which wrong secrets are counted


class Refusals:
    """Wrong secrets per client address and invitation in the last ``window`` seconds, in this process."""

    def __init__(self, limit: int, window: float = WINDOW) -> None:
        self.limit = limit
        self.window = window
        # the least recently counted first, so the ones out of the window are forgotten from the front
        self._times: OrderedDict[tuple[str, UUID], deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def count(self, address: str, invitation_id: UUID) -> None:
        """One more wrong secret; ``too_many_attempts`` (not counted) once ``limit`` were in the window."""
        if self.limit <= 0:
            return
        now = time.monotonic()
        with self._lock:
            while self._times and next(iter(self._times.values()))[-1] <= now - self.window:
                self._times.popitem(last=False)
            recent = self._times.setdefault((address, invitation_id), deque())
            while recent and recent[0] <= now - self.window:
                recent.popleft()
            if len(recent) >= self.limit:
                raise RuleError(
                    "too_many_attempts", "too many wrong codes for this invitation: wait a minute"
                )
            recent.append(now)
            self._times.move_to_end((address, invitation_id))


# one count per running app (its Services), made at its first wrong secret
_refusals: "weakref.WeakKeyDictionary[Services, Refusals]" = weakref.WeakKeyDictionary()
_refusals_made = threading.Lock()


def refusals_of(services: Services) -> Refusals:
    with _refusals_made:
        found = _refusals.get(services)
        if found is None:
            found = _refusals[services] = Refusals(services.settings.redeem_refusals)
        return found


def invitation_read(invitation: Invitation) -> InvitationRead:
    return InvitationRead(
        invitation_id=invitation.id,
        league_id=invitation.league_id,
        made_at=invitation.created_on,
        made_by=invitation.made_by,
        expires_at=invitation.expires_at,
        uses=invitation.uses,
        uses_left=invitation.uses_left,
        revoked=invitation.revoked,
        redeemed_by=list(invitation.redeemed_by),
    )


class LeagueInvitationController(Controller):
    path = "/leagues"
    tags = ["invitations"]  # noqa: RUF012

    @post(
        "/{league_id:uuid}/invitations",
        operation_id="createInvitation",
        summary="Make an invitation to a league (admin); the answer holds its code, shown once",
        opt=ADMIN_ONLY,
        responses=problems(400, 401, 403, 404, 415, 422),
        security=BEARER,
        sync_to_thread=True,
    )
    def create(
        self,
        services: ServicesDep,
        actor: ActorDep,
        league_id: LeagueId,
        data: Annotated[
            InvitationCreate,
            Body(
                examples=[
                    Example(summary="ten people", value={"expires_at": "2026-12-31T23:59:00Z", "uses": 10})
                ]
            ),
        ],
    ) -> InvitationMade:
        invitation, code = services.app.make_invitation(league_id, data.expires_at, data.uses, actor.id)
        return InvitationMade(invitation=invitation_read(invitation), code=code)

    @get(
        "/{league_id:uuid}/invitations",
        operation_id="listInvitations",
        summary="A league's invitations, without their codes (admin)",
        opt=ADMIN_ONLY,
        responses=problems(401, 403, 404),
        security=BEARER,
        sync_to_thread=True,
    )
    def list_invitations(self, services: ServicesDep, league_id: LeagueId) -> InvitationsRead:
        found = services.app.invitations_of(league_id)
        return InvitationsRead(league_id=league_id, invitations=[invitation_read(i) for i in found])


class InvitationController(Controller):
    path = "/invitations"
    tags = ["invitations"]  # noqa: RUF012

    @delete(
        "/{invitation_id:uuid}",
        operation_id="revokeInvitation",
        summary="Revoke an invitation (admin): it is refused from now on",
        opt=ADMIN_ONLY,
        responses=problems(401, 403, 404, 409),
        security=BEARER,
        sync_to_thread=True,
    )
    def revoke(self, services: ServicesDep, actor: ActorDep, invitation_id: InvitationId) -> None:
        services.app.revoke_invitation(invitation_id, actor.id)

    @post(
        "/redeem",
        operation_id="redeemInvitation",
        summary="Join a league with an invitation's code and a name of one's choosing (no token needed); "
        "the answer holds the new player's token",
        responses=problems(400, 404, 409, 410, 415, 429),
        security=OPTIONAL_BEARER,
        sync_to_thread=True,
    )
    def redeem(
        self,
        request: Request[Any, Any, Any],
        services: ServicesDep,
        data: Annotated[
            Redemption,
            Body(examples=[Example(summary="Ada joins", value={"code": CODE_EXAMPLE, "name": "Ada"})]),
        ],
    ) -> Welcome:
        try:
            welcome = services.app.redeem_invitation(data.code, data.name)
        except RuleError as refused:
            # a wrong secret (or no such invitation) is a guess; used up, revoked, a taken name are not
            if refused.code == "invitation_not_found":
                address = client_address(request, services.settings.trusted_proxies)
                refusals_of(services).count(address, parse_code(data.code)[0])
            raise
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
