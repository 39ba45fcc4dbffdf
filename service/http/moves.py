"""Moves and challenges: decoded here, made by the use case ``service.usecases.games.make_move``
(which says what each move kind is and who may make it).
"""

from typing import Annotated

from litestar.openapi.spec import Example
from litestar.params import Body

from service.http.controller import ApiController
from service.http.game_commands import game_command
from service.usecases.games import ChallengeCreate, Move, make_move

MOVE_EXAMPLES = [
    Example(summary="play a card", value={"kind": "play", "card": "7H", "version": 17}),
    Example(
        summary="play a jack, name spades, say mau",
        value={"kind": "play", "card": "JD", "suit": "S", "call": "mau", "version": 17},
    ),
    Example(
        summary="with the quick modifier, lay three nines at once, 9S on top",
        value={"kind": "play", "card": "9H", "more": ["9C", "9S"], "version": 17},
    ),
    Example(
        summary="with the blind modifier, play 2C face down as 9H",
        value={"kind": "play", "card": "2C", "declared": "9H", "version": 17},
    ),
    Example(
        summary="with the blind modifier, challenge the face-down card before you",
        value={"kind": "challenge_declaration", "version": 18},
    ),
    Example(summary="draw", value={"kind": "draw", "version": 17}),
    Example(
        summary="keep the card just drawn (pesten: or end the turn after a seven or a king)",
        value={"kind": "keep", "version": 18},
    ),
    Example(
        summary="the dealer names a suit for a jack starter",
        value={"kind": "name_suit", "suit": "H", "version": 3},
    ),
    Example(
        summary="after a two in haft-khabis, choose seat 0 to draw",
        value={"kind": "choose_player", "player": 0, "version": 21},
    ),
    Example(summary="a referee moves for seat 2", value={"kind": "draw", "version": 17, "seat": 2}),
]
MoveBody = Annotated[Move, Body(examples=MOVE_EXAMPLES)]
ChallengeBody = Annotated[
    ChallengeCreate, Body(examples=[Example(summary="challenge at version 18", value={"version": 18})])
]


class MoveController(ApiController, path="/games/{game_id:uuid}", tag="moves"):
    move = game_command(
        "/moves",
        "makeMove",
        "Play, draw, keep or name a suit (the seated player; officials name the seat)",
        MoveBody,
        make_move,
    )
    challenge = game_command(
        "/challenges",
        "challengeMissedCall",
        "Challenge the missed call whose window is open (a seated player; officials name the seat)",
        ChallengeBody,
        make_move,
    )
