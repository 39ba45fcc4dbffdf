"""Swiss: a fixed number of rounds, each pairing players of like standing who have not met
(``pairing.pair_swiss``)."""

from service.domain.errors import RuleError
from service.domain.formats.base import Draw, InRounds, check_round_count
from service.domain.pairing import Pairing, pair_swiss


class Swiss(InRounds):
    name = "swiss"
    everyone_meets = False

    def check_rounds(self, rounds: int | None) -> None:
        if rounds is None:
            raise RuleError("invalid_rounds", why="swiss_tournament_needs")
        check_round_count(rounds)

    def rounds_to_play(self, rounds: int | None, entrants: int, table_size: int) -> int:
        return rounds or 0

    def pair(self, draw: Draw) -> Pairing:
        return pair_swiss(draw.ranked, draw.history, draw.table_size, draw.salt)


SWISS = Swiss()
