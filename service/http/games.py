"""Games: creating one, its public state, a seat's own view, its totals and its shuffles.

Who creates a game: an admin, any game; a referee, a friendly game or one of
a league they referee; a player, a friendly game they sit at, without a seed
(chosen seeds are for officials; the store mixes secret entropy into every
seed, so none fixes a deck by itself), an explicit deck or a first dealer.
"""

import re
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, get, post
from litestar.openapi.spec import Example
from litestar.params import Body

from service.domain.cards import CARD_COUNT, CARD_PATTERN, format_cards
from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.http import access
from service.http.auth import SIGNED_IN
from service.http.consistency import READS_STORE
from service.http.errors import problems
from service.http.page_read import page_read
from service.http.pages import (
    DEFAULT_LIMIT,
    Cursor,
    Limit,
    Next,
    choice_filter,
    choice_parameter,
    id_filter,
    uuid_filter,
)
from service.http.params import (
    GAME_ID,
    LEAGUE_ID,
    OTHER_PLAYER_ID,
    PLAYER_ID,
    After,
    AfterMet,
    GameId,
    IdempotencyKey,
    SeatToSee,
    scoped_key,
)
from service.http.security import BEARER, OPTIONAL_BEARER
from service.http.services import ActorDep, Services, ServicesDep
from service.projections.models import HandView, ListedGame, MatchTotals, PublicTable
from service.usecases.preset_schema import RULESET_NAMES, Options, RulesetName

# A seat as sent: a player's id in its canonical text (any case), or "bot:" and a bot's name (an unknown
# bot is the rules' 422 unknown_bot); anything else is 400 invalid_seat.
_HEX = "[0-9A-Fa-f]"
SEAT_PATTERN = f"^(?:bot:.*|{_HEX}{{8}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{12}})$"
SeatSpec = Annotated[
    str, msgspec.Meta(description="a player's id, or bot:random / bot:heuristic", examples=[PLAYER_ID])
]


class GameCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    seats: Annotated[
        list[SeatSpec],
        msgspec.Meta(
            min_length=1,
            max_length=12,
            # litestar leaves out the items' own metadata
            extra_json_schema={"extra": {"items": {"type": "string", "pattern": SEAT_PATTERN}}},
        ),
    ]
    ruleset: Annotated[
        RulesetName | None,
        msgspec.Meta(
            description=f"a preset: {', '.join(RULESET_NAMES)} (a page each in docs/rules/); 422 "
            "unknown_ruleset for any other name. Left out: the league's, or club outside a league; "
            "a league's game naming another is refused (422 ruleset_mismatch)",
            # litestar leaves out the metadata of an optional value's own type
            extra_json_schema={
                "extra": {"oneOf": [{"type": "string", "enum": list(RULESET_NAMES)}, {"type": "null"}]}
            },
        ),
    ] = None
    options: Options = msgspec.field(default_factory=dict)
    league_id: Annotated[
        UUID | None, msgspec.Meta(description="a league's game plays the league's ruleset and options")
    ] = None
    seed: (
        Annotated[
            str,
            msgspec.Meta(
                max_length=200,
                description="mixed with secret entropy the store draws for every game, so it fixes no "
                "deck by itself (admins and referees only)",
            ),
        ]
        | None
    ) = None
    deck: (
        Annotated[
            list[str],
            msgspec.Meta(
                max_length=CARD_COUNT,
                description="the first deal's deck, first card dealt first (officials)",
                # litestar leaves out the bounds of an optional value and the items' metadata
                extra_json_schema={
                    "extra": {
                        "oneOf": [
                            {
                                "type": "array",
                                "maxItems": CARD_COUNT,
                                "items": {"type": "string", "pattern": CARD_PATTERN},
                            },
                            {"type": "null"},
                        ]
                    }
                },
            ),
        ]
        | None
    ) = None
    first_dealer: (
        Annotated[int, msgspec.Meta(ge=0, description="the first dealer's seat (officials)")] | None
    ) = None
    in_person: Annotated[
        bool,
        msgspec.Meta(
            description="played with real cards: nothing is dealt, the rounds are entered from a score "
            "sheet (POST /games/{id}/rounds); players only, no clock"
        ),
    ] = False


class GameCreated(msgspec.Struct, frozen=True, kw_only=True):
    game_id: Annotated[UUID, msgspec.Meta(examples=[GAME_ID])]
    league_id: UUID | None
    seats: list[SeatSpec]
    version: Annotated[int, msgspec.Meta(examples=[3], description="the game's version: send it with a move")]
    position: Annotated[int, msgspec.Meta(examples=[4711], description="read with ?after= this to see it")]


class GameListRead(msgspec.Struct, frozen=True, kw_only=True):
    items: list[ListedGame]  # the newest first
    next: Next
    position: int


GAME_STATUSES = ("playing", "paused", "over", "abandoned")
LeagueFilter = id_filter("only the games of this league", LEAGUE_ID)
PlayerFilter = id_filter("only the games this player sits at", PLAYER_ID)
GameStatusFilter = choice_parameter("only the games in this state (paused: a dispute is open)", GAME_STATUSES)


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


def normalised(seat: str) -> str:
    """A player's id in its one text form (seats are compared as text); bots as given."""
    if re.fullmatch(SEAT_PATTERN, seat) is None:  # UUID() alone would take braces, "urn:uuid:", "_"s
        raise RuleError("invalid_seat", f"{seat!r} is neither a player id nor 'bot:<name>'")
    return seat if seat.startswith("bot:") else str(UUID(seat))


def check_may_create(services: Services, actor: Actor, data: GameCreate, seats: list[str]) -> None:
    if actor.role == "admin":
        return
    if actor.role == "referee":
        if data.league_id is not None and actor.id not in services.app.get_league(data.league_id).referees:
            raise RuleError("forbidden", "a referee creates friendly games and games of their leagues")
        return
    if data.league_id is not None:
        raise RuleError("forbidden", "a player creates friendly games only")
    if actor.id not in seats:
        raise RuleError("not_seated", "a player creates games they sit at")
    if data.seed is not None:
        raise RuleError("not_allowed", "only a referee or an admin may choose the seed")


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


class GameController(Controller):
    path = "/games"
    tags = ["games"]  # noqa: RUF012

    @post(
        operation_id="createGame",
        summary="Create a game: seats of players and bots; it is dealt at once",
        opt=SIGNED_IN,
        responses=problems(400, 401, 403, 404, 409, 410, 422, 415),
        security=BEARER,
        sync_to_thread=True,
    )
    def create(
        self,
        services: ServicesDep,
        actor: ActorDep,
        data: Annotated[GameCreate, Body(examples=CREATE_EXAMPLES)],
        idempotency_key: IdempotencyKey = None,
    ) -> GameCreated:
        seats = [normalised(seat) for seat in data.seats]
        check_may_create(services, actor, data, seats)
        outcome = services.app.create_game(
            seats,
            ruleset=data.ruleset,
            options=data.options,
            seed=data.seed,
            deck=data.deck,
            first_dealer=data.first_dealer,
            league_id=data.league_id,
            in_person=data.in_person,
            by=actor,
            key=scoped_key(actor, idempotency_key),
        )
        created: Any = outcome.events[0]
        services.wrote(actor, outcome.position)
        return GameCreated(
            game_id=outcome.game_id,
            league_id=created.league_id,
            seats=[f"bot:{seat.name}" if seat.kind == "bot" else seat.name for seat in created.seats],
            version=outcome.version,
            position=outcome.position,
        )

    @get(
        operation_id="listGames",
        summary="Games, the newest first, a page at a time; by league, player or status (public; read model)",
        responses=problems(400, 401, 422),
        security=OPTIONAL_BEARER,
        sync_to_thread=True,
    )
    def list_games(
        self,
        services: ServicesDep,
        league: LeagueFilter = None,
        player: PlayerFilter = None,
        status: GameStatusFilter = None,
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
        after: After = None,
    ) -> GameListRead:
        league_id, player_id = uuid_filter("league", league), uuid_filter("player", player)
        status = choice_filter("status", status, GAME_STATUSES)
        filters = (league_id, player_id, status)
        return page_read(
            services,
            GameListRead,
            "games",
            filters,
            int,
            cursor,
            after,
            lambda start: services.reader.games(league_id, player_id, status, start, limit),
        )

    @get(
        "/{game_id:uuid}",
        operation_id="getGame",
        summary="The public state: top card, named suit, debt, counts, scores, whose turn, version (public)",
        responses=problems(400, 401, 404),
        security=OPTIONAL_BEARER,
        sync_to_thread=True,
        opt=READS_STORE,
    )
    def read(self, services: ServicesDep, game_id: GameId, after: AfterMet = None) -> PublicTable:
        return services.current.table(game_id)

    @get(
        "/{game_id:uuid}/me",
        operation_id="getMyView",
        summary="My hand, my legal moves and the public state (the seated player; officials name a seat)",
        responses=problems(400, 401, 403, 404, 422),
        security=BEARER,
        sync_to_thread=True,
        opt={**SIGNED_IN, **READS_STORE},
    )
    def me(
        self,
        services: ServicesDep,
        actor: ActorDep,
        game_id: GameId,
        seat: SeatToSee = None,
        after: AfterMet = None,
    ) -> HandView:
        facts = services.games.facts(game_id)
        seat = access.seat_to_see(services, actor, facts, seat)
        return services.current.hand(game_id, seat)

    @get(
        "/{game_id:uuid}/totals",
        operation_id="getGameTotals",
        summary="Round and match totals (public)",
        responses=problems(400, 401, 404),
        security=OPTIONAL_BEARER,
        sync_to_thread=True,
        opt=READS_STORE,
    )
    def totals(self, services: ServicesDep, game_id: GameId, after: AfterMet = None) -> MatchTotals:
        return services.current.totals(game_id)

    @get(
        "/{game_id:uuid}/shuffles",
        operation_id="getGameShuffles",
        summary="Every shuffle's commitment; salts and orders once their round is over (public)",
        responses=problems(401, 404),
        security=OPTIONAL_BEARER,
        sync_to_thread=True,
        opt=READS_STORE,
    )
    def shuffles(self, services: ServicesDep, game_id: GameId) -> ShufflesRead:
        return ShufflesRead(
            game_id=game_id,
            shuffles=[
                ShuffleRead(
                    number=shuffle.number,
                    round_no=shuffle.round_no,
                    kind=shuffle.kind,
                    commitment=shuffle.commitment,
                    salt=shuffle.salt,
                    order=None if shuffle.order is None else format_cards(shuffle.order),
                    verified=shuffle.verified,
                )
                for shuffle in services.app.shuffles(game_id)
            ],
        )
