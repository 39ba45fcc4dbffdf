"""Players and referees: registered by an admin, each with a token (``service.usecases.players``);
a player's history of games; referees are appointed to leagues (``leagues``).

A referee is the credential that registered them: its id is the referee's
id, which leagues hold and referee tokens speak for.
"""

from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import delete, get, patch, post
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.spec import Example
from litestar.params import Body, Parameter

from service.application import credentials
from service.domain.credential import Credential
from service.domain.league import Player
from service.domain.names import MAX_NAME
from service.http.calls import calls, handler, looks_up, public_read
from service.http.controller import ApiController
from service.http.page_read import Listing
from service.http.pages import Next, PageDep
from service.http.params import PLAYER_ID, REFEREE_ID, PlayerId, RefereeId
from service.http.routes import admin_route, public_route, signed_in_route
from service.http.services import BearerDep, Caller, CallerDep, ServicesDep
from service.projections.models import ListedPlayer, PlayerHistory, PlayerRatingsRead
from service.usecases import players, tokens
from service.usecases.players import PlayerCreate, PlayerRename, RefereeCreate
from service.usecases.queries import lists
from service.usecases.queries import players as player_queries
from service.usecases.tokens import CredentialsRead, Holder, RevokedRead

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


def player_created(done: players.Registered) -> PlayerCreated:
    return PlayerCreated(player=player_read(done), token=token_read(done.issued))


def referee_read(referee: Credential | players.Registered) -> RefereeRead:
    return RefereeRead(referee_id=referee.id, name=referee.name)


def referee_created(done: players.Registered) -> RefereeCreated:
    return RefereeCreated(referee=referee_read(done), token=token_read(done.issued))


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


def token_routes(
    role: Holder, subject_id: Any, operation_ids: tuple[str, str, str], *statuses: int
) -> tuple[HTTPRouteHandler, HTTPRouteHandler, HTTPRouteHandler]:
    """A player's or a referee's tokens (``subject_id``: the path's id): another token (its route
    also answering ``statuses``), the list without their secrets, and revoking them all; for an
    admin or the subject themself."""
    create, listing, revoke = operation_ids
    path, name, whose = f"/{{{role}_id:uuid}}/tokens", f"{role}_id", f"(an admin, or the {role})"

    def issue(caller: Caller, bearer: UUID | None, **subject: UUID) -> TokenRead:
        return token_read(caller.run(tokens.issue_token, role, subject[name], bearer))

    made = handler(
        "create_token", {"caller": CallerDep, "bearer": BearerDep, name: subject_id}, TokenRead, issue
    )
    return (
        post(
            path,
            operation_id=create,
            summary=f"Another token for a {role} {whose}",
            **signed_in_route(403, 404, *statuses),
        )(made),
        get(
            path,
            operation_id=listing,
            summary=f"A {role}'s tokens, without their secrets {whose}",
            **signed_in_route(403, 404, reads_store=True),
        )(calls(tokens.tokens_of, CredentialsRead, role, **{name: subject_id})),
        delete(
            path,
            operation_id=revoke,
            summary=f"Revoke every token of a {role} and those made with them {whose}",
            **signed_in_route(403, 404, status_code=200),
        )(calls(tokens.revoke_tokens, RevokedRead, role, **{name: subject_id})),
    )


class PlayerController(ApiController, path="/players", tag="players"):
    create = post(
        operation_id="createPlayer",
        summary="Register a player (admin); the answer holds their first token",
        **admin_route(409, 422, 415),
    )(calls(players.register_player, PlayerCreated, encode=player_created, data=PlayerBody))

    @get(
        operation_id="listPlayers",
        summary="Players by name, a page at a time; `q` searches names (public; read model)",
        **public_route(422),
    )
    def list_players(self, services: ServicesDep, q: Search = None, *, page: PageDep) -> PlayerListRead:
        return PLAYERS.page(services, page, q)

    read = get(
        "/{player_id:uuid}",
        operation_id="getPlayer",
        summary="A player's name (public)",
        **public_route(404, reads_store=True),
    )(looks_up(player_queries.player, PlayerRead, player_read, player_id=PlayerId))

    rename = patch(
        "/{player_id:uuid}",
        operation_id="renamePlayer",
        summary="Rename a player (an admin, or the player)",
        **signed_in_route(403, 404, 409, 410, 415),
    )(calls(players.rename_player, PlayerRead, encode=player_read, player_id=PlayerId, data=PlayerRenameBody))

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

    create_token, tokens, revoke_tokens = token_routes(
        "player", PlayerId, ("createPlayerToken", "listPlayerTokens", "revokePlayerTokens"), 410
    )

    history = public_read(
        "/{player_id:uuid}/games",
        "getPlayerHistory",
        "The games a player has played and plays, newest first (public; read model)",
        player_queries.history,
        PlayerHistory,
        player_id=PlayerId,
    )

    ratings = public_read(
        "/{player_id:uuid}/ratings",
        "getPlayerRatings",
        "A player's rating after each rated match, newest first, every league (public; read model)",
        player_queries.rating_history,
        PlayerRatingsRead,
        player_id=PlayerId,
    )


class RefereeController(ApiController, path="/referees", tag="referees"):
    create = post(
        operation_id="createReferee",
        summary="Register a referee (admin); the answer holds their first token",
        **admin_route(422, 415),
    )(calls(players.register_referee, RefereeCreated, encode=referee_created, data=RefereeBody))

    read = get(
        "/{referee_id:uuid}",
        operation_id="getReferee",
        summary="A referee's name (public)",
        **public_route(404, reads_store=True),
    )(looks_up(player_queries.referee, RefereeRead, referee_read, referee_id=RefereeId))

    create_token, tokens, revoke_tokens = token_routes(
        "referee", RefereeId, ("createRefereeToken", "listRefereeTokens", "revokeRefereeTokens")
    )
