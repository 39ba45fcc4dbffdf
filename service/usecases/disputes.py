"""Disputes and rulings (docs/referees.md; ``service.domain.adjudication``).

A dispute, raised by a seated player or an official, pauses the game: every move is refused with
409 ``game_paused`` until an official of the game rules: ``resume``, ``penalty`` (a seat draws
cards), ``void`` (every event from ``from_event`` on is void; the game goes on from the state
before it) or, in a game played in person, ``correct`` (round ``round``'s score sheet entry is
replaced, in the body shape of a round's entry; that round and the later ones are scored again).
Each ruling's body makes its own ruling (``ruling``). The API, the scorer's page and the referee
console call these use cases alike.
"""

from typing import Annotated
from uuid import UUID

import msgspec

from service.application.games import round_entry
from service.domain.adjudication import Correct, Penalty, Resume, Ruling, Void
from service.domain.roles import Actor
from service.usecases import policy
from service.usecases.context import Context, write
from service.usecases.events import CommandResult
from service.usecases.game_command import commanded
from service.usecases.rounds import Hands, LastCard, MissedCalls, Points, Winner

OptionalVersion = (
    Annotated[int, msgspec.Meta(ge=0, examples=[42], description="the version the client saw, if it cares")]
    | None
)
Note = Annotated[str, msgspec.Meta(max_length=1000, examples=["seat 2 played out of turn"])]


class DisputeCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    reason: Note = ""
    about: Annotated[int, msgspec.Meta(ge=1, description="the event number it is about")] | None = None
    version: OptionalVersion = None


class ResumeRuling(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="resume", tag_field="kind"
):
    note: Note = ""
    version: OptionalVersion = None

    def ruling(self) -> Ruling:
        return Resume()


class PenaltyRuling(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="penalty", tag_field="kind"
):
    seat: Annotated[int, msgspec.Meta(ge=0, examples=[2])]
    cards: Annotated[int, msgspec.Meta(ge=1, examples=[2], description="penalty cards the seat draws")]
    note: Note = ""
    version: OptionalVersion = None

    def ruling(self) -> Ruling:
        return Penalty(self.seat, self.cards)


class VoidRuling(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="void", tag_field="kind"
):
    from_event: Annotated[int, msgspec.Meta(ge=1, examples=[37], description="the first voided event")]
    note: Note = ""
    version: OptionalVersion = None

    def ruling(self) -> Ruling:
        return Void(self.from_event)


class CorrectRuling(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="correct", tag_field="kind"
):
    round: Annotated[int, msgspec.Meta(ge=1, examples=[3], description="the round whose entry is replaced")]
    winner: Winner
    hands: Hands = None
    points: Points = None
    missed_calls: MissedCalls = None
    last_card: LastCard = None
    note: Note = ""
    version: OptionalVersion = None

    def ruling(self) -> Ruling:
        return Correct(
            self.round,
            round_entry(self.winner, self.hands, self.points, self.missed_calls, self.last_card),
        )


RulingCreate = ResumeRuling | PenaltyRuling | VoidRuling | CorrectRuling


@write  # the open disputes' list
def raise_dispute(
    context: Context, actor: Actor, game_id: UUID, data: DisputeCreate, idempotency_key: str | None
) -> CommandResult:
    facts = context.games.facts(game_id)
    policy.check_at_table(context, actor, facts)
    return commanded(
        context,
        actor,
        facts,
        context.app.raise_dispute,
        game_id,
        version=data.version,
        idempotency_key=idempotency_key,
        reason=data.reason,
        about=data.about,
    )


@write  # a void changes standings and histories
def give_ruling(
    context: Context, actor: Actor, game_id: UUID, data: RulingCreate, idempotency_key: str | None
) -> CommandResult:
    facts = context.games.facts(game_id)
    policy.check_official(context, actor, facts)
    return commanded(
        context,
        actor,
        facts,
        context.app.give_ruling,
        game_id,
        data.ruling(),
        version=data.version,
        idempotency_key=idempotency_key,
        note=data.note,
    )
