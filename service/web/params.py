"""The pages' path and query parameters (the pages are outside the OpenAPI document: the types and
bounds are what counts, a bound refused as the API refuses it)."""

from typing import Annotated
from uuid import UUID

from litestar.params import Parameter

GameId = Annotated[UUID, Parameter(description="the game's id")]
PlayerId = Annotated[UUID, Parameter(description="the player's id")]
LeagueId = Annotated[UUID, Parameter(description="the league's id")]
TournamentId = Annotated[UUID, Parameter(description="the tournament's id")]
SeatToSee = Annotated[int | None, Parameter(ge=0, description="officials: the seat to see")]
RoundNo = Annotated[int, Parameter(ge=1, description="the round's number, the first 1")]
After = Annotated[
    int | None, Parameter(ge=0, description="a log position the page waits for (a few seconds at most)")
]
