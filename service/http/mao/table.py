"""A Mao table's acts: play (accepted, or returned with the judge's short reason), draw, say,
call and end a pause. A player acts for their own seat; an official names the seat."""

from typing import Annotated

from litestar import delete, post
from litestar.openapi.spec import Example
from litestar.params import Body

from service.domain.cards import parse_card
from service.domain.mao.commands import CallPause, DrawCard, EndPause, PlayCard, Say
from service.http.controller import ApiController
from service.http.mao.acts import ACT_ROUTE, MaoActDep, provide_mao_act
from service.http.mao.schemas import PlayCreate, SeatCreate, UtteranceCreate
from service.http.params import GameId, SeatToSee
from service.http.services import WriterDep
from service.usecases.mao import MaoActRead

PlayBody = Annotated[
    PlayCreate, Body(examples=[Example(summary="a last card", value={"card": "QH", "says": ["mao"]})])
]


class MaoTableController(ApiController, path="/mao-games/{game_id:uuid}", tag="mao"):
    @post(
        "/plays",
        operation_id="playMaoCard",
        summary="Play a card and say what goes with it; a wrong play is returned with a penalty card",
        **ACT_ROUTE,
    )
    def play(self, data: PlayBody, act: MaoActDep) -> MaoActRead:
        def play_card(seat: int) -> PlayCard:
            return PlayCard(seat, parse_card(data.card), tuple(data.says))

        return act.by_seat(data.seat, play_card, "plays", data, is_play=True)

    @post(
        "/draws",
        operation_id="drawMaoCard",
        summary="Draw a card instead of playing",
        **ACT_ROUTE,
    )
    def draw(self, data: Annotated[SeatCreate, Body()], act: MaoActDep) -> MaoActRead:
        return act.by_seat(data.seat, DrawCard, "draws", data)

    @post(
        "/utterances",
        operation_id="sayAtMaoTable",
        summary="Say something at the table: a call due, talk the judge penalises, or in a pause talk "
        "about the turn order or safety",
        **ACT_ROUTE,
    )
    def say(self, data: Annotated[UtteranceCreate, Body()], act: MaoActDep) -> MaoActRead:
        def say(seat: int) -> Say:
            return Say(seat, data.words, data.about or "")

        return act.by_seat(data.seat, say, "utterances", data)

    @post(
        "/pause",
        operation_id="callMaoPause",
        summary="Call a procedural pause: nothing is played until its caller ends it",
        **ACT_ROUTE,
    )
    def call_pause(self, data: Annotated[SeatCreate, Body()], act: MaoActDep) -> MaoActRead:
        return act.by_seat(data.seat, CallPause, "pause", data)

    @delete(
        "/pause",
        operation_id="endMaoPause",
        summary="End the pause you called; the same turn goes on",
        **ACT_ROUTE,
    )
    def end_pause(self, game_id: GameId, seat: SeatToSee = None, *, writer: WriterDep) -> MaoActRead:
        # its own parameters: the document names the seat between the match's id and the key
        return provide_mao_act(game_id, writer).by_seat(seat, EndPause, "end_pause", seat)
