"""Score sheets of games played in person (docs/score-sheets.md): enter a round, confirm one, read them.

A round is entered by a seated player or an official of the game, as it ends at the real
table: the seat that went out (``null``: the round stopped with no winner) and, per seat,
either the cards left in hand or the points they are worth, with the missed calls
challenged if the scorer noted them. The other seated players confirm it; a dispute and a
referee's ``correct`` ruling (``service.usecases.disputes``) replace an entry. The sheet is
public: the cards left in hand at a round's end are on the table by then. The API's
``/games/{id}/rounds`` and the scorer's page call these use cases alike.
"""

from typing import TYPE_CHECKING, Annotated, Any, TypeAlias
from uuid import UUID

import msgspec

from service.application import credentials
from service.domain.cards import CARD_COUNT, CARD_PATTERN, MAX_DECKS, format_card, format_cards
from service.domain.errors import RuleError
from service.domain.presets import PRESETS
from service.domain.roles import Actor
from service.domain.round_scoring import running_totals
from service.domain.ruleset_checks import most_players
from service.domain.scoresheet import RoundEntry
from service.usecases import policy
from service.usecases.context import Context, write_when
from service.usecases.events import CommandResult, changed_results
from service.usecases.facts import GameFacts
from service.usecases.fields import or_null
from service.usecases.game_command import commanded

# the most points a seat's cards can be worth in any ruleset: every card of two decks at the dearest value
MOST_POINTS = CARD_COUNT * max(max(rules.card_points.values(), default=0) for rules in PRESETS.values())
# the most seats a ruleset allows, with as many decks as a table may use
MOST_SEATS = max(most_players(msgspec.structs.replace(rules, decks=MAX_DECKS)) for rules in PRESETS.values())

OptionalVersion = (
    Annotated[int, msgspec.Meta(ge=0, examples=[7], description="the game's version the client saw")] | None
)
Winner = Annotated[
    Annotated[int, msgspec.Meta(ge=0)] | None,
    msgspec.Meta(
        examples=[0],
        description="the seat that went out; null: the round stopped with no winner",
        extra_json_schema=or_null({"type": "integer", "minimum": 0}),
    ),
]
Card = Annotated[str, msgspec.Meta(pattern=CARD_PATTERN)]
Hands = Annotated[
    Annotated[
        list[Annotated[list[Card], msgspec.Meta(max_length=CARD_COUNT)]], msgspec.Meta(max_length=MOST_SEATS)
    ]
    | None,
    msgspec.Meta(
        description="per seat, the cards left in hand (the winner's empty): rank then suit, 10H, QS; "
        "a joker X1 or X2; a second deck's card with .2, 7H.2",
        extra_json_schema=or_null(
            {
                "type": "array",
                "maxItems": MOST_SEATS,
                "items": {
                    "type": "array",
                    "maxItems": CARD_COUNT,
                    "items": {"type": "string", "pattern": CARD_PATTERN},
                },
            }
        ),
    ),
]


LastCard = Annotated[
    Card | None,
    msgspec.Meta(
        description="the card the winner went out with, when the sheet says it (the rulesets that score "
        "it: a jack doubles the losers' points, a queen scores the winner); null: not said",
        extra_json_schema=or_null({"type": "string", "pattern": CARD_PATTERN}),
    ),
]


def _per_seat_counts(most: int, description: str) -> Any:
    """Per seat, a whole number from 0 to ``most``, or null; said in the schema as the API documents it."""
    return Annotated[
        Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=most)]], msgspec.Meta(max_length=MOST_SEATS)]
        | None,
        msgspec.Meta(
            description=description,
            extra_json_schema=or_null(
                {
                    "type": "array",
                    "maxItems": MOST_SEATS,
                    "items": {"type": "integer", "minimum": 0, "maximum": most},
                }
            ),
        ),
    ]


if TYPE_CHECKING:
    Points: TypeAlias = list[int] | None
    MissedCalls: TypeAlias = list[int] | None
else:
    Points = _per_seat_counts(
        MOST_POINTS, "per seat, the points of the cards left in hand (the winner's 0), instead of hands"
    )
    MissedCalls = _per_seat_counts(
        CARD_COUNT, "per seat, the missed calls challenged this round (they cost cards, not points)"
    )


class RoundCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    winner: Winner
    hands: Hands = None
    points: Points = None
    missed_calls: MissedCalls = None
    last_card: LastCard = None
    version: OptionalVersion = None


class ConfirmationCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    version: OptionalVersion = None


class EntryRead(msgspec.Struct, frozen=True, kw_only=True):
    winner: int | None
    hands: list[list[str]] | None  # per seat, the cards left; None when entered as points
    points: list[int] | None  # per seat, as entered; None when entered as cards
    missed_calls: list[int]  # per seat; empty when none was noted
    last_card: str | None = None  # the card the winner went out with; None when the sheet does not say


class ActorRead(msgspec.Struct, frozen=True, kw_only=True):
    role: Annotated[str, msgspec.Meta(examples=["player"])]
    id: str
    name: str  # a player's or referee's name (a player's empty once erased); an admin's id


class CorrectionRead(msgspec.Struct, frozen=True, kw_only=True):
    by: ActorRead
    event: int  # the ruling's event number
    dispute: int
    replaced: EntryRead  # the entry the ruling replaced


class RoundRead(msgspec.Struct, frozen=True, kw_only=True):
    round_no: int
    entry: EntryRead  # the entry in force
    entered_by: ActorRead
    entered_at: int  # the event number of the entry
    confirmed_by: list[int]  # seats, in the order they confirmed the entry in force
    corrections: list[CorrectionRead]  # the oldest first
    points: list[int]  # per seat, the round's score
    totals: list[int]  # per seat, the match after this round


class RoundsRead(msgspec.Struct, frozen=True, kw_only=True):
    game_id: UUID
    in_person: bool
    version: int
    rounds: list[RoundRead]  # the rounds in force, the first first
    totals: list[int]
    over: bool
    winners: list[int]


def entry_read(entry: RoundEntry) -> EntryRead:
    return EntryRead(
        winner=entry.winner,
        hands=None if entry.hands is None else [format_cards(hand) for hand in entry.hands],
        points=None if entry.points is None else list(entry.points),
        missed_calls=list(entry.missed_calls),
        last_card=None if entry.last_card is None else format_card(entry.last_card),
    )


def check_scorer(context: Context, actor: Actor, facts: GameFacts) -> None:
    """Who enters a round: a seated player or an official of the game."""
    policy.check_at_table(context, actor, facts)


def score_sheet(context: Context, game_id: UUID) -> RoundsRead:
    """The sheet as it stands, from the store: the API's and the spectators' page's."""
    game = context.app.get_game(game_id)
    sheets = game.rounds()
    named: dict[UUID, str] = context.reader.names(
        [UUID(sheet.entered_by.id) for sheet in sheets if sheet.entered_by.role == "player"]
        + [
            UUID(correction.by.id)
            for sheet in sheets
            for correction in sheet.corrections
            if correction.by.role == "player"
        ]
    )

    def who(actor: Actor) -> ActorRead:
        if actor.role == "player":
            name = named.get(UUID(actor.id), "")
        elif actor.role == "referee":
            name = credentials.referee(context.app, UUID(actor.id)).name
        else:
            name = actor.id
        return ActorRead(role=actor.role, id=actor.id, name=name)

    s = game.state
    rounds = []
    after = running_totals(game.ruleset, s.round_points)
    for sheet, points, running in zip(sheets, s.round_points, after, strict=False):
        rounds.append(
            RoundRead(
                round_no=sheet.round_no,
                entry=entry_read(sheet.entry),
                entered_by=who(sheet.entered_by),
                entered_at=sheet.entered_at,
                confirmed_by=list(sheet.confirmed_by),
                corrections=[
                    CorrectionRead(
                        by=who(c.by), event=c.at, dispute=c.dispute, replaced=entry_read(c.replaced)
                    )
                    for c in sheet.corrections
                ],
                points=list(points),
                totals=running,
            )
        )
    result = game.result()
    return RoundsRead(
        game_id=game.id,
        in_person=game.in_person,
        version=game.version,
        rounds=rounds,
        totals=list(result.totals),
        over=game.over,
        winners=list(result.winners),
    )


@write_when(changed_results)  # a command that ends no round changes only the game's own reads
def enter_round(
    context: Context, actor: Actor, game_id: UUID, data: RoundCreate, idempotency_key: str | None
) -> CommandResult:
    facts = context.games.facts(game_id)
    check_scorer(context, actor, facts)
    return commanded(
        context,
        actor,
        facts,
        context.app.enter_round,
        game_id,
        version=data.version,
        idempotency_key=idempotency_key,
        winner=data.winner,
        hands=data.hands,
        points=data.points,
        missed_calls=data.missed_calls,
        last_card=data.last_card,
    )


def confirm_round(
    context: Context,
    actor: Actor,
    game_id: UUID,
    round_no: int,
    data: ConfirmationCreate,
    idempotency_key: str | None,
) -> CommandResult:
    """A seated player agrees with a round's entry (not the one who entered it)."""
    facts = context.games.facts(game_id)
    if actor.role != "player" or facts.seat_of(actor.id) is None:
        raise RuleError("not_seated", why="players_table_confirm")
    return commanded(
        context,
        actor,
        facts,
        context.app.confirm_round,
        game_id,
        round_no,
        version=data.version,
        idempotency_key=idempotency_key,
    )
