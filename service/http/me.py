"""``GET /me``: who the request's token speaks for.

A player's token: the player, their name and the leagues they are a member of. A referee's: the
referee, their name and the leagues they referee. An admin's: the admin credential and its name (the
``MAUMAU_ADMIN_TOKEN`` of the settings has none) and no leagues: an admin officiates them all.
Players' names and the leagues come from the read models (``?after=`` as every read).
"""

from typing import Annotated, Literal, cast

import msgspec
from litestar import get

from service.http.controller import ApiController
from service.http.params import PLAYER_ID, After
from service.http.routes import signed_in_route
from service.http.services import BearerDep, CallerDep
from service.projections.models import LeagueOfMine
from service.usecases.queries import players as player_queries


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
        found = caller.run(player_queries.who, bearer, after)
        actor = caller.actor
        # a token never speaks for the system actor: its role is one MeRead knows
        role = cast("Literal['player', 'referee', 'admin']", actor.role)
        return MeRead(role=role, id=actor.id, name=found.name, leagues=found.leagues, position=found.position)
