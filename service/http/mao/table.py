"""A Mao table's acts: play (accepted, or returned with the judge's short reason), draw, say,
call and end a pause. A player acts for their own seat; an official names the seat."""

from typing import Annotated

from litestar import delete
from litestar.openapi.spec import Example
from litestar.params import Body

from service.domain.cards import parse_card
from service.domain.mao.commands import CallPause, DrawCard, EndPause, PlayCard, Say
from service.http.controller import ApiController
from service.http.mao.acts import ACT_ROUTE, provide_mao_act, seat_act_route
from service.http.mao.schemas import PlayCreate, UtteranceCreate
from service.http.params import GameId, SeatToSee
from service.http.services import WriterDep
from service.usecases.mao import MaoActRead

PlayBody = Annotated[
    PlayCreate, Body(examples=[Example(summary="a last card", value={"card": "QH", "says": ["mao"]})])
]


class MaoTableController(ApiController, path="/mao-games/{game_id:uuid}", tag="mao"):
    play = seat_act_route(
        "/plays",
        "playMaoCard",
        "Play a card and say what goes with it; a wrong play is returned with a penalty card",
        lambda seat, data: PlayCard(seat, parse_card(data.card), tuple(data.says)),
        PlayBody,
        is_play=True,
    )
    draw = seat_act_route(
        "/draws", "drawMaoCard", "Draw a card instead of playing", lambda seat, _: DrawCard(seat)
    )
    say = seat_act_route(
        "/utterances",
        "sayAtMaoTable",
        "Say something at the table: a call due, talk the judge penalises, or in a pause talk "
        "about the turn order or safety",
        lambda seat, data: Say(seat, data.words, data.about or ""),
        Annotated[UtteranceCreate, Body()],
    )
    call_pause = seat_act_route(
        "/pause",
        "callMaoPause",
        "Call a procedural pause: nothing is played until its caller ends it",
        lambda seat, _: CallPause(seat),
    )

    @delete(
        "/pause",
        operation_id="endMaoPause",
        summary="End the pause you called; the same turn goes on",
        **ACT_ROUTE,
    )
    def end_pause(self, game_id: GameId, seat: SeatToSee = None, *, writer: WriterDep) -> MaoActRead:
        # its own parameters: the document names the seat between the match's id and the key
        return provide_mao_act(game_id, writer).by_seat(seat, EndPause, "end_pause", seat)
