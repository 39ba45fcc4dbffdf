"""Score sheets of games played in person: decoded here, entered, confirmed and read by the use
cases of ``service.usecases.rounds`` (docs/score-sheets.md).
"""

from typing import Annotated

from litestar import get, post
from litestar.openapi.spec import Example
from litestar.params import Body, Parameter

from service.http.calls import looks_up
from service.http.controller import ApiController
from service.http.game_commands import game_command
from service.http.params import GameId
from service.http.routes import GAME_COMMAND, public_route
from service.http.services import WriterDep
from service.usecases.events import CommandResult
from service.usecases.rounds import (
    ConfirmationCreate,
    RoundCreate,
    RoundsRead,
    confirm_round,
    enter_round,
    score_sheet,
)

RoundNo = Annotated[
    int, Parameter(ge=1, description="the round's number, the first 1", examples=[Example(value=1)])
]
ENTRY_EXAMPLES = [
    Example(
        summary="seat 0 went out; the cards left in the other hands",
        value={"winner": 0, "hands": [[], ["KC", "7D"], ["2S"]], "version": 3},
    ),
    Example(summary="the same round as points", value={"winner": 0, "points": [0, 17, 2]}),
    Example(
        summary="the stock ran out; seat 1 missed a call and was challenged",
        value={"winner": None, "points": [12, 30, 4], "missed_calls": [0, 1, 0]},
    ),
]
RoundBody = Annotated[RoundCreate, Body(examples=ENTRY_EXAMPLES)]
ConfirmationBody = Annotated[ConfirmationCreate, Body(examples=[Example(summary="agree", value={})])]


class RoundController(ApiController, path="/games/{game_id:uuid}/rounds", tag="score sheets"):
    enter = game_command(
        "/",
        "enterRound",
        "Enter the next round of a game played in person (a seated player or an official)",
        RoundBody,
        enter_round,
    )

    @post(
        "/{round_no:int}/confirmation",
        operation_id="confirmRound",
        summary="Confirm a round's entry (a seated player other than the one who entered it)",
        **GAME_COMMAND,
    )
    def confirm(
        self, game_id: GameId, round_no: RoundNo, data: ConfirmationBody, writer: WriterDep
    ) -> CommandResult:
        return writer.run(confirm_round, game_id, round_no, data)

    sheet = get(
        operation_id="getRounds",
        summary="The score sheet: each round's entry, who entered, confirmed and corrected it, its "
        "points and the totals (public)",
        **public_route(404, reads_store=True),
    )(looks_up(score_sheet, RoundsRead, game_id=GameId))
