"""Parameters many routes share, with their OpenAPI descriptions and examples."""

from typing import Annotated
from uuid import UUID

from litestar.openapi.spec import Example
from litestar.params import HeaderParameter, Parameter, ParameterKwarg

from service.usecases.fields import GAME_ID, LEAGUE_ID, PLAYER_ID, REFEREE_ID

# The largest number the stores keep (a signed 64-bit integer): event numbers and log positions
# beyond it are refused as malformed rather than failing in the database.
LARGEST = 2**63 - 1

OTHER_PLAYER_ID = "8a4d2b6e-1c3f-4e5a-9b7d-2f6e8c0a4b1d"

GameId = Annotated[
    UUID, Parameter(description="the game's id", examples=[Example(summary="a game", value=GAME_ID)])
]
PlayerId = Annotated[
    UUID, Parameter(description="the player's id", examples=[Example(summary="a player", value=PLAYER_ID)])
]
LeagueId = Annotated[
    UUID, Parameter(description="the league's id", examples=[Example(summary="a league", value=LEAGUE_ID)])
]
RefereeId = Annotated[
    UUID,
    Parameter(description="the referee's id", examples=[Example(summary="a referee", value=REFEREE_ID)]),
]
CredentialId = Annotated[
    UUID,
    Parameter(
        description="the token's credential id (the hex digits after `mm_` in the token)",
        examples=[Example(summary="a credential", value="0f6b1d2c-3a4e-4b5f-8c6d-7e8f9a0b1c2d")],
    ),
]


def _from_zero(
    description: str, example: Example, largest: int | None = LARGEST, header: str | None = None
) -> ParameterKwarg:
    """A number from 0 (a log position, an event number, a seat) up to ``largest`` (None: no bound), in
    the query or the ``header`` named: litestar leaves out a bound of 0 of an optional value, and
    writes 2**63 - 1 as the float 2**63, so the schema says them itself."""
    bounds = {"minimum": 0} if largest is None else {"minimum": 0, "maximum": largest}
    if header is None:
        return Parameter(ge=0, le=largest, schema_extra=bounds, description=description, examples=[example])
    return HeaderParameter(
        name=header, ge=0, le=largest, schema_extra=bounds, description=description, examples=[example]
    )


AFTER_MY_MOVE = Example(summary="after my move", value=4711)
After = Annotated[
    int | None,
    _from_zero(
        "a log position (a command's `position`): the answer waits, a few seconds at most, until the "
        "read models have applied it; the answer's `position` says how far they were. Without it, "
        "a signed-in client's read waits for the client's own last write (docs/consistency.md)",
        AFTER_MY_MOVE,
    ),
]
AfterMet = Annotated[
    int | None,
    _from_zero(
        "a log position, accepted as elsewhere and always met at once: this answer is read from the "
        "event store, so it holds every write answered before the request (docs/consistency.md)",
        AFTER_MY_MOVE,
    ),
]
SeatToSee = Annotated[int | None, _from_zero("officials: the seat to see", Example(value=0), largest=None)]
LastEventId = Annotated[
    int | None, _from_zero("resume after this event number", Example(value=12), header="Last-Event-ID")
]
IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        min_length=1,
        max_length=200,
        description="send the same key again and the first answer comes back, nothing is done twice",
        examples=[Example(summary="a fresh key per command", value="move-7b1e2c")],
    ),
]
