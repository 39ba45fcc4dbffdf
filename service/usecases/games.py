"""Games and moves: a seat's commands, with the version the client saw (the API's ``POST
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

from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec

from service.application import MauMau, Outcome
from service.domain.cards import CARD_PATTERN, SUIT_PATTERN
from service.domain.roles import Actor
from service.projections.fold import changes_results
from service.usecases import policy
from service.usecases.context import Context, scoped_key
from service.usecases.events import CommandResult, command_result

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


class Draw(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="draw", tag_field="kind"
):
    version: Version
    seat: SeatNo = None

    def made(self, app: MauMau, game_id: UUID, seat: int, **options: Any) -> Outcome:
        return app.draw(game_id, seat, **options)


class Keep(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="keep", tag_field="kind"
):
    version: Version
    seat: SeatNo = None

    def made(self, app: MauMau, game_id: UUID, seat: int, **options: Any) -> Outcome:
        return app.keep(game_id, seat, **options)


class NameSuit(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="name_suit", tag_field="kind"
):
    suit: Suit
    version: Version
    seat: SeatNo = None

    def made(self, app: MauMau, game_id: UUID, seat: int, **options: Any) -> Outcome:
        return app.name_suit(game_id, seat, self.suit, **options)


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

    def made(self, app: MauMau, game_id: UUID, seat: int, **options: Any) -> Outcome:
        return app.choose_player(game_id, seat, self.player, **options)


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


def make_move(
    context: Context, actor: Actor, game_id: UUID, data: Move | ChallengeCreate, idempotency_key: str | None
) -> CommandResult:
    """A move (or a missed call's challenge) at the seat ``actor`` may act for."""
    facts = context.games.facts(game_id)
    seat = policy.acting_seat(context, actor, facts, data.seat)
    outcome = data.made(
        context.app,
        game_id,
        seat,
        by=actor,
        expected_version=data.version,
        key=scoped_key(actor, idempotency_key),
    )
    if changes_results(outcome.events):
        # the move's position noted only then: a move that ends no round changes only the game's
        # own reads, current anyway, and the note is the move path's dearest statement after the save
        context.wrote(actor, outcome.position)
    return command_result(outcome, policy.viewer(context, actor, facts), facts)
