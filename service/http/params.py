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


def _log_position(description: str) -> ParameterKwarg:
    """A log position to read after (``after``): the bounds the stores keep, an example, and what it does."""
    return Parameter(
        ge=0,
        le=LARGEST,
        # litestar leaves out a bound of 0 of an optional value, and writes 2**63 - 1 as the float 2**63
        schema_extra={"minimum": 0, "maximum": LARGEST},
        description=description,
        examples=[Example(summary="after my move", value=4711)],
    )


After = Annotated[
    int | None,
    _log_position(
        "a log position (a command's `position`): the answer waits, a few seconds at most, until the "
        "read models have applied it; the answer's `position` says how far they were. Without it, "
        "a signed-in client's read waits for the client's own last write (docs/consistency.md)"
    ),
]
AfterMet = Annotated[
    int | None,
    _log_position(
        "a log position, accepted as elsewhere and always met at once: this answer is read from the "
        "event store, so it holds every write answered before the request (docs/consistency.md)"
    ),
]
SeatToSee = Annotated[
    int | None,
    Parameter(
        ge=0,
        schema_extra={"minimum": 0},  # litestar leaves out a bound of 0 of an optional value
        description="officials: the seat to see",
        examples=[Example(value=0)],
    ),
]
LastEventId = Annotated[
    int | None,
    HeaderParameter(
        name="Last-Event-ID",
        ge=0,
        le=LARGEST,
        # litestar leaves out a bound of 0 of an optional value, and writes 2**63 - 1 as 2**63
        schema_extra={"minimum": 0, "maximum": LARGEST},
        description="resume after this event number",
        examples=[Example(value=12)],
    ),
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
