"""Double round robin: everyone meets everyone twice. A cycle of round robin rounds, then the same
rounds again, every table's seats reversed, so at tables of two each pair's second game has the
other player first (``pairing.pair_double_round_robin``). Ranked as a round robin; the format fixes
its rounds, so a plan gives none."""

from service.domain.errors import RuleError
from service.domain.formats.base import Draw, InRounds
from service.domain.pairing import Pairing, pair_double_round_robin, round_robin_rounds


class DoubleRoundRobin(InRounds):
    name = "double_round_robin"
    everyone_meets = True

    def check_rounds(self, rounds: int | None) -> None:
        if rounds is not None:
            raise RuleError("invalid_rounds", why="double_round_robin_plays")

    def rounds_to_play(self, rounds: int | None, entrants: int, table_size: int) -> int:
        return 2 * round_robin_rounds(entrants, table_size)  # a cycle: the round robin's

    def pair(self, draw: Draw) -> Pairing:
        earlier = [(played.tables, played.byes) for played in draw.rounds]
        cycle = max(1, draw.planned // 2)
        return pair_double_round_robin(
            draw.seeded, draw.ranked, earlier, cycle, draw.history, draw.table_size, draw.salt
        )


DOUBLE_ROUND_ROBIN = DoubleRoundRobin()
