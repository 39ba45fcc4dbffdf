"""Players and referees: registered by an admin, each with a token (``service.usecases.players``);
a player's history of games; referees are appointed to leagues (``leagues``).

A referee is the credential that registered them: its id is the referee's
id, which leagues hold and referee tokens speak for.
"""

from typing import Annotated
from uuid import UUID

import msgspec
from litestar import delete, get, patch, post
from litestar.openapi.spec import Example
from litestar.params import Body, Parameter

from service.application import credentials
from service.domain.league import Player
from service.domain.names import MAX_NAME
from service.http.controller import ApiController
from service.http.page_read import Listing
from service.http.pages import Next, PageDep
from service.http.params import PLAYER_ID, REFEREE_ID, PlayerId, RefereeId
from service.http.routes import admin_route, public_route, signed_in_route
from service.http.services import BearerDep, CallerDep, ReadingDep, ServicesDep
from service.projections.models import ListedPlayer, PlayerHistory, PlayerRatingsRead
from service.usecases import players, tokens
from service.usecases.players import PlayerCreate, PlayerRename, RefereeCreate
from service.usecases.queries import lists
from service.usecases.queries import players as player_queries
from service.usecases.tokens import CredentialsRead, RevokedRead

StoredName = Annotated[str, msgspec.Meta(examples=["Ada"])]
StoredLeagueName = Annotated[str, msgspec.Meta(examples=["Thursday club"])]
Token = Annotated[
    str,
    msgspec.Meta(
        description="the bearer token, shown this once (only its hash is stored)",
        examples=["mm_0f6b1d2c3a4e4b5f8c6d7e8f9a0b1c2d_q3Jx9..."],
    ),
]


class PlayerRead(msgspec.Struct, frozen=True, kw_only=True):
    player_id: Annotated[UUID, msgspec.Meta(examples=[PLAYER_ID])]
    name: StoredName


class TokenRead(msgspec.Struct, frozen=True, kw_only=True):
    credential_id: UUID
    role: Annotated[str, msgspec.Meta(examples=["player"])]
    subject: Annotated[str, msgspec.Meta(examples=[PLAYER_ID], description="the player's or referee's id")]
    token: Token


class PlayerListRead(msgspec.Struct, frozen=True, kw_only=True):
    items: list[ListedPlayer]  # by name, then id
    next: Next
    position: int


PLAYERS = Listing(PlayerListRead, "players", tuple[str, UUID], lists.PLAYERS)
Search = Annotated[
    str | None,
    Parameter(
        min_length=1,
        max_length=MAX_NAME,
        description="players whose name contains this, in any case",
        examples=[Example(value="ad")],
    ),
]


class PlayerCreated(msgspec.Struct, frozen=True, kw_only=True):
    player: PlayerRead
    token: TokenRead


class RefereeRead(msgspec.Struct, frozen=True, kw_only=True):
    referee_id: Annotated[UUID, msgspec.Meta(examples=[REFEREE_ID])]
    name: StoredName


class RefereeCreated(msgspec.Struct, frozen=True, kw_only=True):
    referee: RefereeRead
    token: TokenRead


class PlayerErased(msgspec.Struct, frozen=True, kw_only=True):
    player: Annotated[PlayerRead, msgspec.Meta(description="the player, called 'erased player' from now on")]
    revoked: Annotated[list[UUID], msgspec.Meta(description="their tokens revoked now")]


def player_read(player: Player | players.Registered) -> PlayerRead:
    return PlayerRead(player_id=player.id, name=player.name)


def token_read(issued: credentials.Issued) -> TokenRead:
    return TokenRead(
        credential_id=issued.credential_id, role=issued.role, subject=issued.subject, token=issued.token
    )


PlayerBody = Annotated[PlayerCreate, Body(examples=[Example(summary="a new player", value={"name": "Ada"})])]

PlayerRenameBody = Annotated[
    PlayerRename, Body(examples=[Example(summary="a new name", value={"name": "Ada L."})])
]

RefereeBody = Annotated[
    RefereeCreate, Body(examples=[Example(summary="a new referee", value={"name": "Rita"})])
]


class PlayerController(ApiController, path="/players", tag="players"):
    @post(
        operation_id="createPlayer",
        summary="Register a player (admin); the answer holds their first token",
        **admin_route(409, 422, 415),
    )
    def create(self, caller: CallerDep, data: PlayerBody) -> PlayerCreated:
        done = caller.run(players.register_player, data)
        return PlayerCreated(player=player_read(done), token=token_read(done.issued))

    @get(
        operation_id="listPlayers",
        summary="Players by name, a page at a time; `q` searches names (public; read model)",
        **public_route(422),
    )
    def list_players(self, services: ServicesDep, q: Search = None, *, page: PageDep) -> PlayerListRead:
        return PLAYERS.page(services, page, q)

    @get(
        "/{player_id:uuid}",
        operation_id="getPlayer",
        summary="A player's name (public)",
        **public_route(404, reads_store=True),
    )
    def read(self, services: ServicesDep, player_id: PlayerId) -> PlayerRead:
        return player_read(player_queries.player(services, player_id))

    @patch(
        "/{player_id:uuid}",
        operation_id="renamePlayer",
        summary="Rename a player (an admin, or the player)",
        **signed_in_route(403, 404, 409, 410, 415),
    )
    def rename(self, caller: CallerDep, player_id: PlayerId, data: PlayerRenameBody) -> PlayerRead:
        return player_read(caller.run(players.rename_player, player_id, data))

    @post(
        "/{player_id:uuid}/erasure",
        operation_id="erasePlayer",
        summary="Erase a player on request (admin): their name leaves the store, their results stay "
        "under 'erased player'; their tokens are revoked, they leave their leagues and their seat "
        "forfeits each game of theirs in play",
        **admin_route(404, status_code=200),
    )
    def erase(self, caller: CallerDep, player_id: PlayerId) -> PlayerErased:
        done = caller.run(players.erase_player, player_id)
        return PlayerErased(player=player_read(done.player), revoked=done.revoked)

    @post(
        "/{player_id:uuid}/tokens",
        operation_id="createPlayerToken",
        summary="Another token for a player (an admin, or the player)",
        **signed_in_route(403, 404, 410),
    )
    def create_token(self, caller: CallerDep, bearer: BearerDep, player_id: PlayerId) -> TokenRead:
        return token_read(caller.run(tokens.issue_token, "player", player_id, bearer))

    @get(
        "/{player_id:uuid}/tokens",
        operation_id="listPlayerTokens",
        summary="A player's tokens, without their secrets (an admin, or the player)",
        **signed_in_route(403, 404, reads_store=True),
    )
    def tokens(self, caller: CallerDep, player_id: PlayerId) -> CredentialsRead:
        return caller.run(tokens.tokens_of, "player", player_id)

    @delete(
        "/{player_id:uuid}/tokens",
        operation_id="revokePlayerTokens",
        summary="Revoke every token of a player and those made with them (an admin, or the player)",
        **signed_in_route(403, 404, status_code=200),
    )
    def revoke_tokens(self, caller: CallerDep, player_id: PlayerId) -> RevokedRead:
        return caller.run(tokens.revoke_tokens, "player", player_id)

    @get(
        "/{player_id:uuid}/games",
        operation_id="getPlayerHistory",
        summary="The games a player has played and plays, newest first (public; read model)",
        **public_route(404),
    )
    def history(self, player_id: PlayerId, reading: ReadingDep) -> PlayerHistory:
        return reading.run(player_queries.history, player_id)

    @get(
        "/{player_id:uuid}/ratings",
        operation_id="getPlayerRatings",
        summary="A player's rating after each rated match, newest first, every league (public; read model)",
        **public_route(404),
    )
    def ratings(self, player_id: PlayerId, reading: ReadingDep) -> PlayerRatingsRead:
        return reading.run(player_queries.rating_history, player_id)


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
        **signed_in_route(403, 404, status_code=200),
    )
    def revoke_tokens(self, caller: CallerDep, referee_id: RefereeId) -> RevokedRead:
        return caller.run(tokens.revoke_tokens, "referee", referee_id)
