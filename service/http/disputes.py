"""Disputes and rulings (docs/referees.md; ``service.domain.adjudication``).

A dispute, raised by a seated player or an official, pauses the game: every
move is refused with 409 ``game_paused`` until an official of the game rules:
``resume``, ``penalty`` (a seat draws cards), ``void`` (every event from
``from_event`` on is void; the game goes on from the state before it) or, in a game played
in person, ``correct`` (round ``round``'s score sheet entry is replaced, in the body shape
of ``POST /games/{id}/rounds``; that round and the later ones are scored again).

``GET /disputes`` lists the open disputes the caller may rule on (``service.usecases.policy``):
an admin's, every one; a referee's, those of friendly games and of the leagues they referee.
Players rule on nothing: 403.
"""

from typing import Annotated
from uuid import UUID

import msgspec
from litestar import Controller, get, post
from litestar.openapi.spec import Example
from litestar.params import Body

from service.application.games import round_entry
from service.domain.adjudication import Correct, Penalty, Resume, Ruling, Void
from service.domain.errors import RuleError
from service.http.auth import SIGNED_IN
from service.http.errors import problems
from service.http.page_read import page_read
from service.http.pages import DEFAULT_LIMIT, Cursor, Limit, Next
from service.http.params import After, GameId, IdempotencyKey
from service.http.rounds import Hands, LastCard, MissedCalls, Points, Winner
from service.http.security import BEARER
from service.http.services import ActorDep, ServicesDep
from service.projections.models import OpenDispute
from service.usecases import policy
from service.usecases.context import scoped_key
from service.usecases.events import CommandResult, command_result

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


class PenaltyRuling(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="penalty", tag_field="kind"
):
    seat: Annotated[int, msgspec.Meta(ge=0, examples=[2])]
    cards: Annotated[int, msgspec.Meta(ge=1, examples=[2], description="penalty cards the seat draws")]
    note: Note = ""
    version: OptionalVersion = None


class VoidRuling(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="void", tag_field="kind"
):
    from_event: Annotated[int, msgspec.Meta(ge=1, examples=[37], description="the first voided event")]
    note: Note = ""
    version: OptionalVersion = None


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


RulingCreate = ResumeRuling | PenaltyRuling | VoidRuling | CorrectRuling


def ruling_of(data: RulingCreate) -> Ruling:
    if isinstance(data, CorrectRuling):
        return Correct(
            data.round, round_entry(data.winner, data.hands, data.points, data.missed_calls, data.last_card)
        )
    if isinstance(data, PenaltyRuling):
        return Penalty(data.seat, data.cards)
    if isinstance(data, VoidRuling):
        return Void(data.from_event)
    return Resume()


class DisputeController(Controller):
    path = "/games/{game_id:uuid}"
    tags = ["disputes"]  # noqa: RUF012

    @post(
        "/disputes",
        operation_id="raiseDispute",
        summary="Raise a dispute: the game pauses until a ruling (a seated player or an official)",
        status_code=200,
        opt=SIGNED_IN,
        responses=problems(400, 401, 403, 404, 409, 422, 415),
        security=BEARER,
        sync_to_thread=True,
    )
    def raise_dispute(
        self,
        services: ServicesDep,
        actor: ActorDep,
        game_id: GameId,
        data: Annotated[
            DisputeCreate,
            Body(
                examples=[
                    Example(summary="about event 37", value={"reason": "a card went missing", "about": 37})
                ]
            ),
        ],
        idempotency_key: IdempotencyKey = None,
    ) -> CommandResult:
        facts = services.games.facts(game_id)
        policy.check_at_table(services, actor, facts)
        outcome = services.app.raise_dispute(
            game_id,
            reason=data.reason,
            about=data.about,
            by=actor,
            expected_version=data.version,
            key=scoped_key(actor, idempotency_key),
        )
        services.wrote(actor, outcome.position)
        return command_result(outcome, policy.viewer(services, actor, facts), facts)

    @post(
        "/rulings",
        operation_id="giveRuling",
        summary="Rule on the open dispute: resume, penalty, void or correct (the game's referees and admins)",
        status_code=200,
        opt=SIGNED_IN,
        responses=problems(400, 401, 403, 404, 409, 422, 415),
        security=BEARER,
        sync_to_thread=True,
    )
    def give_ruling(
        self,
        services: ServicesDep,
        actor: ActorDep,
        game_id: GameId,
        data: Annotated[
            RulingCreate,
            Body(
                examples=[
                    Example(summary="play on", value={"kind": "resume"}),
                    Example(
                        summary="two penalty cards for seat 1",
                        value={"kind": "penalty", "seat": 1, "cards": 2},
                    ),
                    Example(
                        summary="void from event 37",
                        value={"kind": "void", "from_event": 37, "note": "misdeal"},
                    ),
                    Example(
                        summary="correct round 2 of a game played in person",
                        value={"kind": "correct", "round": 2, "winner": 1, "points": [14, 0, 22]},
                    ),
                ]
            ),
        ],
        idempotency_key: IdempotencyKey = None,
    ) -> CommandResult:
        facts = services.games.facts(game_id)
        policy.check_official(services, actor, facts)
        outcome = services.app.give_ruling(
            game_id,
            ruling_of(data),
            note=data.note,
            by=actor,
            expected_version=data.version,
            key=scoped_key(actor, idempotency_key),
        )
        services.wrote(actor, outcome.position)  # a void changes standings and histories
        return command_result(outcome, policy.viewer(services, actor, facts), facts)


class DisputeListRead(msgspec.Struct, frozen=True, kw_only=True):
    items: list[OpenDispute]  # the longest waiting first
    next: Next
    position: int


class OpenDisputeController(Controller):
    path = "/disputes"
    tags = ["disputes"]  # noqa: RUF012

    @get(
        operation_id="listOpenDisputes",
        summary="The open disputes the caller may rule on, the longest waiting first (referees: friendly "
        "games and their leagues'; admins: all; read model)",
        opt=SIGNED_IN,
        responses=problems(400, 401, 403, 422),
        security=BEARER,
        sync_to_thread=True,
    )
    def list_disputes(
        self,
        services: ServicesDep,
        actor: ActorDep,
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
        after: After = None,
    ) -> DisputeListRead:
        if not actor.officiates:
            raise RuleError("forbidden", "only referees and admins rule on disputes")
        referee = actor.id if actor.role == "referee" else None
        # the list a referee sees is theirs alone: another's cursor does not continue it
        filters = (referee,)
        return page_read(
            services,
            DisputeListRead,
            "disputes",
            filters,
            tuple[float, UUID],
            cursor,
            after,
            lambda start: services.reader.disputes(referee, start, limit),
        )
