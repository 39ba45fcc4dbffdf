"""Disputes and rulings: decoded here, raised and given by the use cases of
``service.usecases.disputes`` (docs/referees.md).

``GET /disputes`` lists the open disputes the caller may rule on (``service.usecases.policy``):
an admin's, every one; a referee's, those of friendly games and of the leagues they referee.
Players rule on nothing: 403.
"""

from typing import Annotated
from uuid import UUID

import msgspec
from litestar import get
from litestar.openapi.spec import Example
from litestar.params import Body

from service.http.controller import ApiController
from service.http.game_commands import game_command
from service.http.page_read import Listing
from service.http.pages import Next, PageDep
from service.http.routes import signed_in_route
from service.http.services import CallerDep
from service.projections.models import OpenDispute
from service.usecases import policy
from service.usecases.disputes import DisputeCreate, RulingCreate, give_ruling, raise_dispute
from service.usecases.queries import lists

DisputeBody = Annotated[
    DisputeCreate,
    Body(examples=[Example(summary="about event 37", value={"reason": "a card went missing", "about": 37})]),
]

RulingBody = Annotated[
    RulingCreate,
    Body(
        examples=[
            Example(summary="play on", value={"kind": "resume"}),
            Example(
                summary="two penalty cards for seat 1",
                value={"kind": "penalty", "seat": 1, "cards": 2},
            ),
            Example(
                summary="void from event 37",
                value={"kind": "void", "from_event": 37, "note": "misdeal"},
            ),
            Example(
                summary="correct round 2 of a game played in person",
                value={"kind": "correct", "round": 2, "winner": 1, "points": [14, 0, 22]},
            ),
        ]
    ),
]


class DisputeController(ApiController, path="/games/{game_id:uuid}", tag="disputes"):
    dispute = game_command(
        "/disputes",
        "raiseDispute",
        "Raise a dispute: the game pauses until a ruling (a seated player or an official)",
        DisputeBody,
        raise_dispute,
    )
    ruling = game_command(
        "/rulings",
        "giveRuling",
        "Rule on the open dispute: resume, penalty, void or correct (the game's referees and admins)",
        RulingBody,
        give_ruling,
    )


class DisputeListRead(msgspec.Struct, frozen=True, kw_only=True):
    items: list[OpenDispute]  # the longest waiting first
    next: Next
    position: int


DISPUTES = Listing(DisputeListRead, "disputes", tuple[float, UUID], lists.DISPUTES)


class OpenDisputeController(ApiController, path="/disputes", tag="disputes"):
    @get(
        operation_id="listOpenDisputes",
        summary="The open disputes the caller may rule on, the longest waiting first (referees: friendly "
        "games and their leagues'; admins: all; read model)",
        **signed_in_route(403, 422),
    )
    def list_disputes(self, caller: CallerDep, page: PageDep) -> DisputeListRead:
        # the list a referee sees is theirs alone: another's cursor does not continue it
        return DISPUTES.page(caller.services, page, policy.disputes_of(caller.actor))
