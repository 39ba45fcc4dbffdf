"""Moves and challenges: a seat's commands, with the version the client saw.

A move names its ``kind``: ``play`` (a card, the suit a wild card names, the call
said with it, with the quick modifier ``more`` cards of its rank, with the blind
modifier the card it is ``declared`` as), ``challenge_declaration`` (blind: doubt
the face-down card before you), ``draw``, ``keep`` (the card just drawn; in pesten also
the end of a turn instead of playing again after a seven or a king), ``name_suit`` (the
dealer, for a wild card turned up as the starter) or ``choose_player`` (the player of a
card that makes another player draw names who). A player moves for their own
seat; an official of the game names the seat. ``version`` must be the game's
version now, else 409 ``stale_version`` and nothing is done. With an
``Idempotency-Key``, a command sent again answers what the first one did.
The answer is the command's events as the mover may see them and the log
``position`` to read the game after (``?after=``).
"""

from typing import Annotated, Literal
from uuid import UUID

import msgspec
from litestar import Controller, post
from litestar.openapi.spec import Example
from litestar.params import Body

from service.domain.cards import CARD_PATTERN, SUIT_PATTERN
from service.domain.roles import Actor
from service.http.auth import SIGNED_IN
from service.http.errors import problems
from service.http.params import GameId, IdempotencyKey
from service.http.security import BEARER
from service.http.services import ActorDep, ServicesDep
from service.projections.fold import changes_results
from service.usecases import policy
from service.usecases.context import scoped_key
from service.usecases.events import CommandResult, command_result
from service.usecases.services import Services

Version = Annotated[int, msgspec.Meta(ge=0, examples=[17], description="the game's version the client saw")]
SeatNo = (
    Annotated[
        int, msgspec.Meta(ge=0, description="officials only: the seat the move is for; players omit it")
    ]
    | None
)
Card = Annotated[
    str,
    msgspec.Meta(
        max_length=8,
        examples=["7H"],
        description="rank then suit: 10H, QS, 7D; a joker X1 or X2; a second deck's card ends in .2, 7D.2 "
        "(a card named without it plays whichever copy the seat holds)",
        extra_json_schema={"extra": {"pattern": CARD_PATTERN}},
    ),
]
Suit = Annotated[
    str,
    msgspec.Meta(
        max_length=8,
        examples=["S"],
        description="C, D, H or S",
        extra_json_schema={"extra": {"pattern": SUIT_PATTERN}},
    ),
]


class Play(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="play", tag_field="kind"
):
    card: Card
    suit: Annotated[
        Suit | None,
        msgspec.Meta(
            description="the suit a wild card names: the jack, or the queen, nine or joker where the "
            "ruleset makes them wild",
            # litestar leaves out the bounds of an optional value
            extra_json_schema={
                "extra": {
                    "oneOf": [{"type": "string", "maxLength": 8, "pattern": SUIT_PATTERN}, {"type": "null"}]
                }
            },
        ),
    ] = None
    call: Annotated[
        Literal["mau", "mau_mau"] | None,
        msgspec.Meta(
            description="what is said with the play: mau is the ruleset's call for a last card "
            "(Mau, last card, single card, Puke), mau_mau its call for going out (Mau Mau, Mau-Mau, "
            "Puke-Puke); a call not due with the play, as any call where the ruleset has none, is 422 "
            "call_not_due"
        ),
    ] = None
    more: Annotated[
        list[Card],
        msgspec.Meta(
            max_length=8,
            description="with the quick modifier: more cards of the card's rank laid on it in the same "
            "play, the last on top",
        ),
    ] = []
    declared: Annotated[
        Card | None,
        msgspec.Meta(
            description="with the blind modifier: the card this one is played face down as; the others "
            "see only it until the next player challenges or the round ends",
            extra_json_schema={
                "extra": {
                    "oneOf": [{"type": "string", "maxLength": 8, "pattern": CARD_PATTERN}, {"type": "null"}]
                }
            },
        ),
    ] = None
    version: Version
    seat: SeatNo = None


class Draw(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="draw", tag_field="kind"
):
    version: Version
    seat: SeatNo = None


class Keep(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="keep", tag_field="kind"
):
    version: Version
    seat: SeatNo = None


class NameSuit(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="name_suit", tag_field="kind"
):
    suit: Suit
    version: Version
    seat: SeatNo = None


class ChoosePlayer(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    tag="choose_player",
    tag_field="kind",
):
    player: Annotated[int, msgspec.Meta(ge=0, description="the seat chosen to draw")]
    version: Version
    seat: SeatNo = None


class ChallengeDeclared(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    tag="challenge_declaration",
    tag_field="kind",
):
    """The next player doubts the face-down card before them (blind)."""

    version: Version
    seat: SeatNo = None


Move = Play | Draw | Keep | NameSuit | ChoosePlayer | ChallengeDeclared


class ChallengeCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    version: (
        Annotated[int, msgspec.Meta(ge=0, description="the version the client saw; a challenge may omit it")]
        | None
    ) = None
    seat: SeatNo = None


MOVE_EXAMPLES = [
    Example(summary="play a card", value={"kind": "play", "card": "7H", "version": 17}),
    Example(
        summary="play a jack, name spades, say mau",
        value={"kind": "play", "card": "JD", "suit": "S", "call": "mau", "version": 17},
    ),
    Example(
        summary="with the quick modifier, lay three nines at once, 9S on top",
        value={"kind": "play", "card": "9H", "more": ["9C", "9S"], "version": 17},
    ),
    Example(
        summary="with the blind modifier, play 2C face down as 9H",
        value={"kind": "play", "card": "2C", "declared": "9H", "version": 17},
    ),
    Example(
        summary="with the blind modifier, challenge the face-down card before you",
        value={"kind": "challenge_declaration", "version": 18},
    ),
    Example(summary="draw", value={"kind": "draw", "version": 17}),
    Example(
        summary="keep the card just drawn (pesten: or end the turn after a seven or a king)",
        value={"kind": "keep", "version": 18},
    ),
    Example(
        summary="the dealer names a suit for a jack starter",
        value={"kind": "name_suit", "suit": "H", "version": 3},
    ),
    Example(
        summary="after a two in haft-khabis, choose seat 0 to draw",
        value={"kind": "choose_player", "player": 0, "version": 21},
    ),
    Example(summary="a referee moves for seat 2", value={"kind": "draw", "version": 17, "seat": 2}),
]


def apply_move(
    services: Services, actor: Actor, game_id: UUID, data: Move, idempotency_key: str | None
) -> CommandResult:
    """A move as the API makes it, for the API's handler and the play page alike."""
    facts = services.games.facts(game_id)
    seat = policy.acting_seat(services, actor, facts, data.seat)
    options = {"by": actor, "expected_version": data.version, "key": scoped_key(actor, idempotency_key)}
    app = services.app
    if isinstance(data, Play):
        outcome = app.play(
            game_id,
            seat,
            data.card,
            suit=data.suit,
            call=data.call,
            more=data.more,
            declared=data.declared,
            **options,
        )
    elif isinstance(data, Draw):
        outcome = app.draw(game_id, seat, **options)
    elif isinstance(data, Keep):
        outcome = app.keep(game_id, seat, **options)
    elif isinstance(data, NameSuit):
        outcome = app.name_suit(game_id, seat, data.suit, **options)
    elif isinstance(data, ChallengeDeclared):
        outcome = app.challenge_declaration(game_id, seat, **options)
    else:
        outcome = app.choose_player(game_id, seat, data.player, **options)
    if changes_results(outcome.events):
        # the move's position noted only then: a move that ends no round changes only the game's
        # own reads, current anyway, and the note is the move path's dearest statement after the save
        services.wrote(actor, outcome.position)
    return command_result(outcome, policy.viewer(services, actor, facts), facts)


def apply_challenge(
    services: Services, actor: Actor, game_id: UUID, data: ChallengeCreate, idempotency_key: str | None
) -> CommandResult:
    facts = services.games.facts(game_id)
    seat = policy.acting_seat(services, actor, facts, data.seat)
    outcome = services.app.challenge(
        game_id,
        seat,
        by=actor,
        expected_version=data.version,
        key=scoped_key(actor, idempotency_key),
    )
    if changes_results(outcome.events):
        services.wrote(actor, outcome.position)
    return command_result(outcome, policy.viewer(services, actor, facts), facts)


class MoveController(Controller):
    path = "/games/{game_id:uuid}"
    tags = ["moves"]  # noqa: RUF012

    @post(
        "/moves",
        operation_id="makeMove",
        summary="Play, draw, keep or name a suit (the seated player; officials name the seat)",
        status_code=200,
        opt=SIGNED_IN,
        responses=problems(400, 401, 403, 404, 409, 422, 415),
        security=BEARER,
        sync_to_thread=True,
    )
    def move(
        self,
        services: ServicesDep,
        actor: ActorDep,
        game_id: GameId,
        data: Annotated[Move, Body(examples=MOVE_EXAMPLES)],
        idempotency_key: IdempotencyKey = None,
    ) -> CommandResult:
        return apply_move(services, actor, game_id, data, idempotency_key)

    @post(
        "/challenges",
        operation_id="challengeMissedCall",
        summary="Challenge the missed call whose window is open (a seated player; officials name the seat)",
        status_code=200,
        opt=SIGNED_IN,
        responses=problems(400, 401, 403, 404, 409, 422, 415),
        security=BEARER,
        sync_to_thread=True,
    )
    def challenge(
        self,
        services: ServicesDep,
        actor: ActorDep,
        game_id: GameId,
        data: Annotated[
            ChallengeCreate,
            Body(examples=[Example(summary="challenge at version 18", value={"version": 18})]),
        ],
        idempotency_key: IdempotencyKey = None,
    ) -> CommandResult:
        return apply_challenge(services, actor, game_id, data, idempotency_key)
