"""Games and moves: creating a game (who may: ``check_may_create``), a seat's view, and a seat's
commands, with the version the client saw (the API's ``POST
/games/{id}/moves`` and ``/challenges``, and the play page's form, call the same use cases).

A move names its ``kind``: ``play`` (a card, the suit a wild card names, the call
said with it, with the quick modifier ``more`` cards of its rank, with the blind
modifier the card it is ``declared`` as), ``challenge_declaration`` (blind: doubt
the face-down card before you), ``draw``, ``keep`` (the card just drawn; in pesten also
the end of a turn instead of playing again after a seven or a king), ``name_suit`` (the
dealer, for a wild card turned up as the starter) or ``choose_player`` (the player of a
card that makes another player draw names who). Each body makes its own command (``made``).
A player moves for their own seat; an official of the game names the seat. ``version`` must be
the game's version now, else 409 ``stale_version`` and nothing is done. With an idempotency key,
a command sent again answers what the first one did. The answer is the command's events as the
mover may see them and the log ``position`` to read the game after.
"""

import re
from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec

from service.application import MauMau, Outcome
from service.domain.cards import CARD_COUNT, CARD_PATTERN, SUIT_PATTERN
from service.domain.clock import FORFEIT_AFTER
from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.projections.models import HandView
from service.usecases import policy
from service.usecases.context import Context, scoped_key, write, write_when
from service.usecases.events import CommandResult, changed_results
from service.usecases.fields import GAME_ID, PLAYER_ID, or_null
from service.usecases.game_command import commanded
from service.usecases.leagues import ForfeitAfter, TurnClock
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
            extra_json_schema=or_null({"type": "string", "enum": list(RULESET_NAMES)}),
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
                extra_json_schema=or_null(
                    {
                        "type": "array",
                        "maxItems": CARD_COUNT,
                        "items": {"type": "string", "pattern": CARD_PATTERN},
                    }
                ),
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
    # a friendly game's own clock: the league's types (range, example, refusal), told of a game
    turn_clock: (
        Annotated[
            TurnClock,
            msgspec.Meta(
                description="seconds per turn in this friendly game, none when left out; a late turn is "
                "played by a clock bot, flagged (422 invalid_turn_clock outside the range). A league's "
                "game plays the league's clock: naming one there is 422 invalid_option"
            ),
        ]
        | None
    ) = None
    forfeit_after: (
        Annotated[
            ForfeitAfter,
            msgspec.Meta(
                description="with turn_clock: a seat whose clock runs out this many times in a row "
                f"forfeits the game, a loss; left out: {FORFEIT_AFTER}, as in a league; 0 or null: never "
                "(422 invalid_forfeit_after outside the range). A league's game plays the league's rule: "
                "naming one there is 422 invalid_option"
            ),
        ]
        | msgspec.UnsetType
        | None
    ) = msgspec.UNSET


class NewGame(msgspec.Struct, frozen=True, kw_only=True):
    """A game just stored, created or imported from a record: what each answer begins with."""

    game_id: Annotated[UUID, msgspec.Meta(examples=[GAME_ID])]
    league_id: UUID | None
    seats: list[SeatSpec]


class GameCreated(NewGame, frozen=True, kw_only=True):
    version: Annotated[int, msgspec.Meta(examples=[3], description="the game's version: send it with a move")]
    position: Annotated[int, msgspec.Meta(examples=[4711], description="read with ?after= this to see it")]


Version = Annotated[int, msgspec.Meta(ge=0, examples=[17], description="the game's version the client saw")]
SeatNo = (
    Annotated[
        int, msgspec.Meta(ge=0, description="officials only: the seat the move is for; players omit it")
    ]
    | None
)
CARD_CHARS = 8  # the most characters a card or a suit is sent in (the longest card, "10H.2", has 5)
Card = Annotated[
    str,
    msgspec.Meta(
        max_length=CARD_CHARS,
        examples=["7H"],
        description="rank then suit: 10H, QS, 7D; a joker X1 or X2; a second deck's card ends in .2, 7D.2 "
        "(a card named without it plays whichever copy the seat holds)",
        extra_json_schema={"extra": {"pattern": CARD_PATTERN}},
    ),
]
Suit = Annotated[
    str,
    msgspec.Meta(
        max_length=CARD_CHARS,
        examples=["S"],
        description="C, D, H or S",
        extra_json_schema={"extra": {"pattern": SUIT_PATTERN}},
    ),
]


def _optional(pattern: str, description: str) -> msgspec.Meta:
    """An optional card's or suit's metadata: the document is told its rules (``or_null``)."""
    return msgspec.Meta(
        description=description,
        extra_json_schema=or_null({"type": "string", "maxLength": CARD_CHARS, "pattern": pattern}),
    )


class _Move(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind"):
    """A move's body: its ``kind`` tells which (each move names its own; ``kw_only`` is each one's,
    msgspec does not pass it on)."""


class Play(_Move, tag="play", frozen=True, kw_only=True):
    card: Card
    suit: Annotated[
        Suit | None,
        _optional(
            SUIT_PATTERN,
            "the suit a wild card names: the jack, or the queen, nine or joker where the ruleset makes "
            "them wild",
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
        _optional(
            CARD_PATTERN,
            "with the blind modifier: the card this one is played face down as; the others see only it "
            "until the next player challenges or the round ends",
        ),
    ] = None
    version: Version
    seat: SeatNo = None

    def made(self, app: MauMau, game_id: UUID, seat: int, **options: Any) -> Outcome:
        return app.play(
            game_id,
            seat,
            self.card,
            suit=self.suit,
            call=self.call,
            more=self.more,
            declared=self.declared,
            **options,
        )


class Draw(_Move, tag="draw", frozen=True, kw_only=True):
    version: Version
    seat: SeatNo = None

    def made(self, app: MauMau, game_id: UUID, seat: int, **options: Any) -> Outcome:
        return app.draw(game_id, seat, **options)


class Keep(_Move, tag="keep", frozen=True, kw_only=True):
    version: Version
    seat: SeatNo = None

    def made(self, app: MauMau, game_id: UUID, seat: int, **options: Any) -> Outcome:
        return app.keep(game_id, seat, **options)


class NameSuit(_Move, tag="name_suit", frozen=True, kw_only=True):
    suit: Suit
    version: Version
    seat: SeatNo = None

    def made(self, app: MauMau, game_id: UUID, seat: int, **options: Any) -> Outcome:
        return app.name_suit(game_id, seat, self.suit, **options)


class ChoosePlayer(_Move, tag="choose_player", frozen=True, kw_only=True):
    player: Annotated[int, msgspec.Meta(ge=0, description="the seat chosen to draw")]
    version: Version
    seat: SeatNo = None

    def made(self, app: MauMau, game_id: UUID, seat: int, **options: Any) -> Outcome:
        return app.choose_player(game_id, seat, self.player, **options)


class ChallengeDeclared(_Move, tag="challenge_declaration", frozen=True, kw_only=True):
    """The next player doubts the face-down card before them (blind)."""

    version: Version
    seat: SeatNo = None

    def made(self, app: MauMau, game_id: UUID, seat: int, **options: Any) -> Outcome:
        return app.challenge_declaration(game_id, seat, **options)


Move = Play | Draw | Keep | NameSuit | ChoosePlayer | ChallengeDeclared


class ChallengeCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    version: (
        Annotated[int, msgspec.Meta(ge=0, description="the version the client saw; a challenge may omit it")]
        | None
    ) = None
    seat: SeatNo = None

    def made(self, app: MauMau, game_id: UUID, seat: int, **options: Any) -> Outcome:
        return app.challenge(game_id, seat, **options)


@write_when(changed_results)  # a command that ends no round changes only the game's own reads
def make_move(
    context: Context, actor: Actor, game_id: UUID, data: Move | ChallengeCreate, idempotency_key: str | None
) -> CommandResult:
    """A move (or a missed call's challenge) at the seat ``actor`` may act for."""
    facts = context.games.facts(game_id)
    seat = policy.acting_seat(context, actor, facts, data.seat)
    return commanded(
        context,
        actor,
        facts,
        data.made,
        context.app,
        game_id,
        seat,
        version=data.version,
        idempotency_key=idempotency_key,
    )


def normalised(seat: str) -> str:
    """A player's id in its one text form (seats are compared as text); bots as given."""
    if re.fullmatch(SEAT_PATTERN, seat) is None:  # UUID() alone would take braces, "urn:uuid:", "_"s
        raise RuleError("invalid_seat", why="neither_player_id", spec=seat)
    return seat if seat.startswith("bot:") else str(UUID(seat))


def check_may_create(context: Context, actor: Actor, data: GameCreate, seats: list[str]) -> None:
    if actor.role == "admin":
        return
    if actor.role == "referee":
        if data.league_id is not None and actor.id not in context.app.get_league(data.league_id).referees:
            raise RuleError("forbidden", why="referee_creates_friendly")
        return
    if data.league_id is not None:
        raise RuleError("forbidden", why="player_creates_friendly")
    if actor.id not in seats:
        raise RuleError("not_seated", why="player_creates_games")
    if data.seed is not None:
        raise RuleError("not_allowed", why="seed")


@write
def create_game(context: Context, actor: Actor, data: GameCreate, idempotency_key: str | None) -> GameCreated:
    """A game of players and bots, dealt at once (unless played in person)."""
    seats = [normalised(seat) for seat in data.seats]
    check_may_create(context, actor, data, seats)
    own_clock = data.turn_clock is not None or data.forfeit_after is not msgspec.UNSET
    if data.league_id is not None and own_clock:
        raise RuleError("invalid_option", why="league_clock")
    outcome = context.app.create_game(
        seats,
        ruleset=data.ruleset,
        options=data.options,
        seed=data.seed,
        deck=data.deck,
        first_dealer=data.first_dealer,
        league_id=data.league_id,
        in_person=data.in_person,
        turn_clock=data.turn_clock,
        forfeit_after=FORFEIT_AFTER if data.forfeit_after is msgspec.UNSET else data.forfeit_after,
        by=actor,
        key=scoped_key(actor, idempotency_key),
    )
    created: Any = outcome.events[0]
    return GameCreated(
        game_id=outcome.game_id,
        league_id=created.league_id,
        seats=[f"bot:{seat.name}" if seat.kind == "bot" else seat.name for seat in created.seats],
        version=outcome.version,
        position=outcome.position,
    )


def seat_view(context: Context, actor: Actor, game_id: UUID, seat: int | None) -> HandView:
    """A seat's hand, its legal moves and the public table: a player's own; the one an official names."""
    facts = context.games.facts(game_id)
    return context.current.hand(game_id, policy.seat_to_see(context, actor, facts, seat))
