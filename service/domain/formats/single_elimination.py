"""Single elimination: each table's winners go through, the others are out, until one table is
left (``pairing.pair_elimination``). Its rounds are not fixed ahead, and nobody drops out of it."""

from collections.abc import Sequence

from service.domain.errors import RuleError
from service.domain.formats.base import Draw, PairedRound
from service.domain.pairing import Pairing, Placing, pair_elimination


class SingleElimination:
    name = "single_elimination"
    eliminates = True
    everyone_meets = False

    def check_rounds(self, rounds: int | None) -> None:
        if rounds is not None:
            raise RuleError("invalid_rounds", why="single_elimination_plays")

    def rounds_to_play(self, rounds: int | None, entrants: int, table_size: int) -> int:
        return 0

    def check_drop(self) -> None:
        raise RuleError("cannot_drop")

    def pair(self, draw: Draw) -> Pairing:
        still_in = [entrant for entrant in draw.ranked if entrant in draw.alive]
        return pair_elimination(still_in, draw.history, draw.table_size, draw.salt)

    def knocked_out(
        self, tables: Sequence[Sequence[str]], winners: Sequence[tuple[int, ...]]
    ) -> tuple[str, ...]:
        return tuple(
            entrant
            for table, won in zip(tables, winners, strict=True)
            for seat, entrant in enumerate(table)
            if seat not in won
        )

    def over(self, rounds: Sequence[PairedRound], planned: int, alive: int) -> bool:
        # the final: a round of one table and no bye; or nobody is left to play on
        last = rounds[-1]
        return (len(last.tables) == 1 and not last.byes) or alive <= 1

    def winners(self, placings: Sequence[Placing]) -> tuple[str, ...]:
        # a final won jointly has them all
        return tuple(placing.entrant for placing in placings if placing.stage == placings[0].stage)


SINGLE_ELIMINATION = SingleElimination()
