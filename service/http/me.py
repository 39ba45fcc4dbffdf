"""``GET /me``: who the request's token speaks for.

A player's token: the player, their name and the leagues they are a member of. A referee's: the
referee, their name and the leagues they referee. An admin's: the admin credential and its name (the
``MAUMAU_ADMIN_TOKEN`` of the settings has none) and no leagues: an admin officiates them all.
Players' names and the leagues come from the read models (``?after=`` as every read).
"""

from typing import Annotated, Literal
from uuid import UUID

import msgspec
from litestar import get

from service.application import credentials
from service.http.controller import ApiController
from service.http.params import PLAYER_ID, After
from service.http.routes import signed_in_route
from service.http.services import BearerDep, CallerDep
from service.projections.models import LeagueOfMine
from service.usecases.consistency import READ_WAIT_SECONDS, caught_up
from service.usecases.services import Services


class MeRead(msgspec.Struct, frozen=True, kw_only=True):
    role: Annotated[Literal["player", "referee", "admin"], msgspec.Meta(examples=["player"])]
    id: Annotated[
        str,
        msgspec.Meta(
            examples=[PLAYER_ID],
            description="a player's or referee's id; an admin's credential id (`env`: the settings' token)",
        ),
    ]
    name: Annotated[str | None, msgspec.Meta(examples=["Ada"])]  # None: the settings' admin token
    leagues: list[LeagueOfMine]  # a player's: member of; a referee's: referees; by name
    position: int


class MeController(ApiController, path="/me", tag="me"):
    @get(
        operation_id="whoAmI",
        summary="Who this token is: role, id, name and leagues (any token; read model)",
        **signed_in_route(),
    )
    def read(self, caller: CallerDep, bearer: BearerDep, after: After = None) -> MeRead:
        services, actor = caller.services, caller.actor
        caught_up(services.reader, after, services.app.recorder.max_notification_id)
        position = services.reader.position()
        if actor.role == "player":
            name: str | None = _player_name(services, UUID(actor.id))
            leagues = services.reader.leagues_of(actor.id, "member")
        elif actor.role == "referee":
            name = credentials.referee(services.app, UUID(actor.id)).name
            leagues = services.reader.leagues_of(actor.id, "referee")
        else:
            name = None if bearer is None else credentials.get(services.app, bearer).name
            leagues = []
        return MeRead(role=actor.role, id=actor.id, name=name, leagues=leagues, position=position)  # type: ignore[arg-type]


def _player_name(services: Services, player_id: UUID) -> str | None:
    """The player's name in the read models; a token used at once after registering may be ahead of
    them, so they are waited for (a few seconds at most) up to the log's head."""
    found = services.reader.names([player_id]).get(player_id)
    if found is None:
        services.reader.wait_for(services.app.recorder.max_notification_id() or 0, READ_WAIT_SECONDS)
        found = services.reader.names([player_id]).get(player_id)
    return found
