"""Games: creating one, its public state, a seat's own view, its totals and its shuffles.

Who creates a game: an admin, any game; a referee, a friendly game or one of
a league they referee; a player, a friendly game they sit at, without a seed
(chosen seeds are for officials; the store mixes secret entropy into every
seed, so none fixes a deck by itself), an explicit deck or a first dealer.
"""

from collections.abc import Callable
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import get, post
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.spec import Example
from litestar.params import Body

from service.domain.cards import format_cards
from service.http.controller import ApiController
from service.http.encode import encode
from service.http.page_read import Listing
from service.http.pages import (
    Next,
    PageDep,
    choice_filter,
    choice_parameter,
    id_filter,
    uuid_filter,
)
from service.http.params import (
    LEAGUE_ID,
    OTHER_PLAYER_ID,
    PLAYER_ID,
    AfterMet,
    GameId,
    SeatToSee,
)
from service.http.routes import public_route, signed_in_route
from service.http.services import CallerDep, ServicesDep, WriterDep
from service.projections.models import HandView, ListedGame, MatchTotals, PublicTable
from service.usecases.games import GameCreate, GameCreated, create_game, seat_view
from service.usecases.queries import games as game_queries
from service.usecases.queries import lists
from service.usecases.services import Services


class GameListRead(msgspec.Struct, frozen=True, kw_only=True):
    items: list[ListedGame]  # the newest first
    next: Next
    position: int


GAMES = Listing(GameListRead, "games", int, lists.GAMES)
GAME_STATUSES = ("playing", "paused", "over", "abandoned")
LeagueFilter = Annotated[str | None, id_filter("only the games of this league", LEAGUE_ID)]
PlayerFilter = Annotated[str | None, id_filter("only the games this player sits at", PLAYER_ID)]
GameStatusFilter = Annotated[
    str | None, choice_parameter("only the games in this state (paused: a dispute is open)", GAME_STATUSES)
]


class ShuffleRead(msgspec.Struct, frozen=True, kw_only=True):
    number: Annotated[
        int, msgspec.Meta(examples=[3], description="the event number of the deal, recycle or reshuffle")
    ]
    round_no: int
    kind: Annotated[
        str,
        msgspec.Meta(
            examples=["deal"],
            description="deal, annulled_deal (a deal four of a kind annulled, dealt again), recycle, "
            "or reshuffle (the hidden cards dealt anew after a void reopened a round whose orders "
            "were revealed; see docs/referees.md)",
        ),
    ]
    commitment: Annotated[
        str, msgspec.Meta(description="sha256(salt | order), published before any card moved")
    ]
    salt: str | None  # None while the round is played
    order: list[str] | None  # the cards in the order they came off the deck, once the salt is out
    verified: bool | None  # the order and salt match the commitment; None while the salt is secret


class ShufflesRead(msgspec.Struct, frozen=True, kw_only=True):
    game_id: UUID
    shuffles: list[ShuffleRead]


CREATE_EXAMPLES = [
    Example(
        summary="a friendly game against two bots",
        value={"seats": [PLAYER_ID, "bot:heuristic", "bot:random"], "ruleset": "club"},
    ),
    Example(summary="a league game", value={"seats": [PLAYER_ID, OTHER_PLAYER_ID], "league_id": LEAGUE_ID}),
    Example(
        summary="a league table played with real cards",
        value={"seats": [PLAYER_ID, OTHER_PLAYER_ID], "league_id": LEAGUE_ID, "in_person": True},
    ),
    Example(
        summary="a table re-created by a referee: seed and first dealer",
        value={"seats": [PLAYER_ID, "bot:heuristic"], "seed": "table 4", "first_dealer": 1},
    ),
]
GameBody = Annotated[GameCreate, Body(examples=CREATE_EXAMPLES)]


def _current(
    path: str, operation_id: str, summary: str, query: Callable[[Services, UUID], Any], answer: type
) -> HTTPRouteHandler:
    """A public read of a game from the event store (``query``'s ``answer``): current already, so
    the ``?after=`` it takes, as every read does, is met at once."""

    def read(self: object, services: ServicesDep, game_id: GameId, after: AfterMet = None) -> Any:
        return query(services, game_id)

    read.__annotations__["return"] = answer  # litestar documents the answer by it
    read.__name__ = read.__qualname__ = query.__name__
    return get(path, operation_id=operation_id, summary=summary, **public_route(404, reads_store=True))(read)


class GameController(ApiController, path="/games", tag="games"):
    @post(
        operation_id="createGame",
        summary="Create a game: seats of players and bots; it is dealt at once",
        **signed_in_route(403, 404, 409, 410, 422, 415),
    )
    def create(self, data: GameBody, writer: WriterDep) -> GameCreated:
        return writer.run(create_game, data)

    @get(
        operation_id="listGames",
        summary="Games, the newest first, a page at a time; by league, player or status (public; read model)",
        **public_route(422),
    )
    def list_games(
        self,
        services: ServicesDep,
        league: LeagueFilter = None,
        player: PlayerFilter = None,
        status: GameStatusFilter = None,
        *,
        page: PageDep,
    ) -> GameListRead:
        league_id, player_id = uuid_filter("league", league), uuid_filter("player", player)
        status = choice_filter("status", status, GAME_STATUSES)
        return GAMES.page(services, page, league_id, player_id, status)

    read = _current(
        "/{game_id:uuid}",
        "getGame",
        "The public state: top card, named suit, debt, counts, scores, whose turn, version (public)",
        game_queries.table,
        PublicTable,
    )

    @get(
        "/{game_id:uuid}/me",
        operation_id="getMyView",
        summary="My hand, my legal moves and the public state (the seated player; officials name a seat)",
        **signed_in_route(403, 404, 422, reads_store=True),
    )
    def me(
        self,
        caller: CallerDep,
        game_id: GameId,
        seat: SeatToSee = None,
        after: AfterMet = None,
    ) -> HandView:
        return caller.run(seat_view, game_id, seat)

    totals = _current(
        "/{game_id:uuid}/totals",
        "getGameTotals",
        "Round and match totals (public)",
        game_queries.totals,
        MatchTotals,
    )

    @get(
        "/{game_id:uuid}/shuffles",
        operation_id="getGameShuffles",
        summary="Every shuffle's commitment; salts and orders once their round is over (public)",
        **public_route(404, reads_store=True),
    )
    def shuffles(self, services: ServicesDep, game_id: GameId) -> ShufflesRead:
        return ShufflesRead(
            game_id=game_id,
            shuffles=[
                encode(
                    ShuffleRead, shuffle, order=None if shuffle.order is None else format_cards(shuffle.order)
                )
                for shuffle in game_queries.shuffles(services, game_id)
            ],
        )
