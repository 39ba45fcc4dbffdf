"""The referee's table view of a faraon match: who is out, and how many cards each seat was dealt."""

import random

from service.domain.game import Game
from service.domain.history import Cause
from service.domain.roles import SYSTEM
from service.domain.ruleset_options import ruleset
from service.domain.seats import Seat
from service.domain.state import OVER
from service.domain.views import table_view
from tests.gameplay import SAME_ENTROPY, next_command


def test_the_referee_view_names_the_seats_out_and_each_seats_hand_size_for_the_round():
    rng = random.Random(0)
    game = Game.create(
        ruleset=ruleset("faraon"),
        seats=tuple(Seat.parse("bot:random") for _ in range(3)),
        seed="0",
        cause=Cause(SYSTEM, "test"),
        entropy=SAME_ENTROPY,
    )
    assert [seat.hand_size for seat in table_view(game).seats] == [ruleset("faraon").hand_size] * 3
    deals: list[list[tuple[int, int, bool]]] = []
    while game.state.phase != OVER:
        round_no = game.state.round_no
        game.execute(next_command(game.state, rng, challenge_rate=0), Cause(SYSTEM, "test"))
        if game.state.round_no != round_no and game.state.phase != OVER:  # just dealt
            view = table_view(game)
            deals.append([(seat.hand_size, seat.cards, seat.out) for seat in view.seats])
            for seat in view.seats:
                assert seat.out == bool(game.state.out >> seat.seat & 1)
                assert seat.hand_size == (0 if seat.out else seat.cards)
    sizes = {size for deal in deals for size, _, _ in deal}
    assert any(out for deal in deals for _, _, out in deal), "no seat went out before the last deal"
    assert len(sizes - {0}) > 1, "every hand was dealt the same size"
