"""While a player chooses who draws, it is their turn for every reader of the game (hooks too)."""

import random

from service.domain.game import Game
from service.domain.history import Cause
from service.domain.roles import SYSTEM
from service.domain.ruleset_options import ruleset
from service.domain.seats import Seat
from service.domain.state import CHOOSING
from service.projections.hooks import turn_of
from tests.gameplay import SAME_ENTROPY, next_command


def test_the_seat_choosing_who_draws_is_the_seat_to_move():
    game = Game.create(
        ruleset=ruleset("haft-khabis", single_round=True),
        seats=tuple(Seat("bot", "random") for _ in range(3)),
        seed="choosing",
        cause=Cause(SYSTEM, "CreateGame", "key", "digest"),
        entropy=SAME_ENTROPY,
    )
    rng = random.Random(3)
    seen = 0
    for _ in range(20):
        while not game.over and game.state.phase != CHOOSING:
            game.execute(next_command(game.state, rng, challenge_rate=0), Cause(SYSTEM, "Move"))
        if game.over:
            break
        assert turn_of(game) == game.seat_to_move == game.state.turn
        seen += 1
        game.execute(next_command(game.state, rng, challenge_rate=0), Cause(SYSTEM, "Move"))
    assert seen > 0
