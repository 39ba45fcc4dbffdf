"""Round robin: everyone meets everyone, over the seed order (``pairing.pair_round_robin``); by
default in the fewest rounds that can do it (``pairing.round_robin_rounds``)."""

from service.domain.formats.base import Draw, InRounds, check_round_count
from service.domain.pairing import Pairing, pair_round_robin, round_robin_rounds


class RoundRobin(InRounds):
    name = "round_robin"
    everyone_meets = True

    def check_rounds(self, rounds: int | None) -> None:
        if rounds is not None:
            check_round_count(rounds)

    def rounds_to_play(self, rounds: int | None, entrants: int, table_size: int) -> int:
        return rounds or round_robin_rounds(entrants, table_size)

    def pair(self, draw: Draw) -> Pairing:
        return pair_round_robin(draw.seeded, draw.ranked, draw.history, draw.table_size, draw.salt)


ROUND_ROBIN = RoundRobin()
