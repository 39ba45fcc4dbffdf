"""A Mao table's acts: play (accepted, or returned with the judge's short reason), draw, say,
call and end a pause. A player acts for their own seat; an official names the seat."""

import random
from typing import Annotated

from litestar import Controller, delete, post
from litestar.openapi.spec import Example
from litestar.params import Body

from service.domain.cards import parse_card
from service.domain.mao.aggregate import MaoGame
from service.domain.mao.commands import CallPause, DrawCard, EndPause, PlayCard, Say
from service.http.auth import SIGNED_IN
from service.http.errors import problems
from service.http.mao import access
from service.http.mao.acts import act
from service.http.mao.schemas import MaoActRead, PlayCreate, SeatCreate, UtteranceCreate
from service.http.params import GameId, SeatToSee
from service.http.security import BEARER
from service.http.services import ActorDep, ServicesDep

_ACT = {
    "opt": SIGNED_IN,
    "responses": problems(403, 404, 409, 415, 422),
    "security": BEARER,
    "sync_to_thread": True,
}


class MaoTableController(Controller):
    path = "/mao-games/{game_id:uuid}"
    tags = ["mao"]  # noqa: RUF012

    @post(
        "/plays",
        operation_id="playMaoCard",
        summary="Play a card and say what goes with it; a wrong play is returned with a penalty card",
        status_code=200,
        **_ACT,
    )
    def play(
        self,
        services: ServicesDep,
        actor: ActorDep,
        game_id: GameId,
        data: Annotated[
            PlayCreate, Body(examples=[Example(summary="a last card", value={"card": "QH", "says": ["mao"]})])
        ],
    ) -> MaoActRead:
        def command(game: MaoGame, rng: random.Random) -> PlayCard:
            seat = access.acting_seat(services, actor, game, data.seat)
            return PlayCard(seat, parse_card(data.card), tuple(data.says))

        return act(services, actor, game_id, command, is_play=True)

    @post(
        "/draws",
        operation_id="drawMaoCard",
        summary="Draw a card instead of playing",
        status_code=200,
        **_ACT,
    )
    def draw(
        self, services: ServicesDep, actor: ActorDep, game_id: GameId, data: Annotated[SeatCreate, Body()]
    ) -> MaoActRead:
        def command(game: MaoGame, rng: random.Random) -> DrawCard:
            return DrawCard(access.acting_seat(services, actor, game, data.seat))

        return act(services, actor, game_id, command)

    @post(
        "/utterances",
        operation_id="sayAtMaoTable",
        summary="Say something at the table: a call due, or talk the judge penalises",
        status_code=200,
        **_ACT,
    )
    def say(
        self,
        services: ServicesDep,
        actor: ActorDep,
        game_id: GameId,
        data: Annotated[UtteranceCreate, Body()],
    ) -> MaoActRead:
        def command(game: MaoGame, rng: random.Random) -> Say:
            return Say(access.acting_seat(services, actor, game, data.seat), data.words)

        return act(services, actor, game_id, command)

    @post(
        "/pause",
        operation_id="callMaoPause",
        summary="Call a procedural pause: nothing is played until its caller ends it",
        status_code=200,
        **_ACT,
    )
    def call_pause(
        self, services: ServicesDep, actor: ActorDep, game_id: GameId, data: Annotated[SeatCreate, Body()]
    ) -> MaoActRead:
        def command(game: MaoGame, rng: random.Random) -> CallPause:
            return CallPause(access.acting_seat(services, actor, game, data.seat))

        return act(services, actor, game_id, command)

    @delete(
        "/pause",
        operation_id="endMaoPause",
        summary="End the pause you called; the same turn goes on",
        status_code=200,
        **_ACT,
    )
    def end_pause(
        self, services: ServicesDep, actor: ActorDep, game_id: GameId, seat: SeatToSee = None
    ) -> MaoActRead:
        def command(game: MaoGame, rng: random.Random) -> EndPause:
            return EndPause(access.acting_seat(services, actor, game, seat))

        return act(services, actor, game_id, command)
