"""Referees: registered by an admin, each with a token; appointed to leagues (``leagues``).

A referee is the credential that registered them: its id is the referee's
id, which leagues hold and referee tokens speak for.
"""

from typing import Annotated
from uuid import UUID

import msgspec
from litestar import delete, get, post
from litestar.openapi.spec import Example
from litestar.params import Body

from service.http.controller import ApiController
from service.http.params import REFEREE_ID, RefereeId
from service.http.players import StoredName, TokenRead, token_read
from service.http.routes import admin_route, public_route, signed_in_route
from service.http.services import BearerDep, CallerDep, ServicesDep
from service.usecases import players, tokens
from service.usecases.players import RefereeCreate
from service.usecases.queries import players as player_queries
from service.usecases.tokens import CredentialsRead, RevokedRead


class RefereeRead(msgspec.Struct, frozen=True, kw_only=True):
    referee_id: Annotated[UUID, msgspec.Meta(examples=[REFEREE_ID])]
    name: StoredName


class RefereeCreated(msgspec.Struct, frozen=True, kw_only=True):
    referee: RefereeRead
    token: TokenRead


RefereeBody = Annotated[
    RefereeCreate, Body(examples=[Example(summary="a new referee", value={"name": "Rita"})])
]


class RefereeController(ApiController, path="/referees", tag="referees"):
    @post(
        operation_id="createReferee",
        summary="Register a referee (admin); the answer holds their first token",
        **admin_route(422, 415),
    )
    def create(self, caller: CallerDep, data: RefereeBody) -> RefereeCreated:
        done = caller.run(players.register_referee, data)
        return RefereeCreated(
            referee=RefereeRead(referee_id=done.id, name=done.name), token=token_read(done.issued)
        )

    @get(
        "/{referee_id:uuid}",
        operation_id="getReferee",
        summary="A referee's name (public)",
        **public_route(404, reads_store=True),
    )
    def read(self, services: ServicesDep, referee_id: RefereeId) -> RefereeRead:
        found = player_queries.referee(services, referee_id)
        return RefereeRead(referee_id=referee_id, name=found.name)

    @post(
        "/{referee_id:uuid}/tokens",
        operation_id="createRefereeToken",
        summary="Another token for a referee (an admin, or the referee)",
        **signed_in_route(403, 404),
    )
    def create_token(self, caller: CallerDep, bearer: BearerDep, referee_id: RefereeId) -> TokenRead:
        return token_read(caller.run(tokens.issue_token, "referee", referee_id, bearer))

    @get(
        "/{referee_id:uuid}/tokens",
        operation_id="listRefereeTokens",
        summary="A referee's tokens, without their secrets (an admin, or the referee)",
        **signed_in_route(403, 404, reads_store=True),
    )
    def tokens(self, caller: CallerDep, referee_id: RefereeId) -> CredentialsRead:
        return caller.run(tokens.tokens_of, "referee", referee_id)

    @delete(
        "/{referee_id:uuid}/tokens",
        operation_id="revokeRefereeTokens",
        summary="Revoke every token of a referee and those made with them (an admin, or the referee)",
        **signed_in_route(403, 404),
        status_code=200,
    )
    def revoke_tokens(self, caller: CallerDep, referee_id: RefereeId) -> RevokedRead:
        return caller.run(tokens.revoke_tokens, "referee", referee_id)
