"""A tournament's round as its events made it (``Round``): its tables and byes, each table's game
and result (``TableResult``, checked by ``check_result``), the results kept out and the seats a
bot stood in at."""

from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

import msgspec

from service.domain.errors import RuleError
from service.domain.pairing import Played
from service.domain.rating import last_standing
from service.domain.rulesets import Ruleset
from service.domain.tournament_plan import is_int


class TableResult(msgspec.Struct, frozen=True, kw_only=True):
    totals: tuple[int, ...]  # per seat, the match totals
    winners: tuple[int, ...]  # winning seats (more than one: a shared win)
    timed_out: tuple[int, ...]  # per seat, turns a clock bot played
    forfeited: tuple[int, ...] = ()  # seats that forfeited by clock: never among the winners
    # per seat, the round at whose end the seat was eliminated (0: never); (): nobody was (Game.result)
    out_round: tuple[int, ...] = ()


@dataclass
class Round:
    """One round as the events made it."""

    round_no: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]
    games: dict[int, UUID] = field(default_factory=dict)  # table -> game
    results: dict[int, TableResult] = field(default_factory=dict)  # table -> result
    finished_at: datetime | None = None
    bye_points: int = 0
    out: tuple[str, ...] = ()  # single elimination: the entrants this round knocked out
    in_person: set[int] = field(default_factory=set)  # the tables whose games are played with real cards
    # table -> a result its game came to after a ruling that the tournament kept out (TableResultKept)
    kept: dict[int, TableResult] = field(default_factory=dict)
    # table -> the seats whose entrant had dropped out when its game was made: a bot sat in for them
    stand_ins: dict[int, tuple[int, ...]] = field(default_factory=dict)

    @property
    def started(self) -> bool:
        """Every table has its game."""
        return len(self.games) == len(self.tables)

    def played(self) -> list[Played]:
        return [
            Played(
                self.tables[t],
                result.totals,
                result.winners,
                result.timed_out,
                result.forfeited,
                self.stand_ins.get(t, ()),
            )
            for t, result in sorted(self.results.items())
        ]


def check_result(result: TableResult, seats: int, rules: Ruleset) -> None:
    """The totals and timeouts name every seat; the winners are exactly the seats with the best total
    among those that did not forfeit, or, where the last seat standing wins (``last_standing``),
    some of the seats that did not forfeit and were not eliminated."""
    if (
        len(result.totals) != seats
        or len(result.timed_out) != seats
        or len(result.out_round) not in (0, seats)
    ):
        raise RuleError("invalid_result", why="result_gives_all", seats=seats)
    numbers = (*result.totals, *result.timed_out, *result.winners, *result.forfeited, *result.out_round)
    if not all(is_int(v) for v in numbers) or any(v < 0 for v in result.out_round):
        raise RuleError("invalid_result", why="totals_timeouts_seats")
    still = [seat for seat in range(seats) if seat not in result.forfeited]
    if not still or not set(result.forfeited) <= set(range(seats)):
        raise RuleError("invalid_result", why="seats_forfeited_seats")
    if last_standing(rules):
        # a round that puts out every seat still in ends the match with those seats sharing the win
        last = max(result.out_round, default=0)
        standing = [seat for seat in still if not result.out_round or result.out_round[seat] in (0, last)]
        if not result.winners or not set(result.winners) <= set(standing):
            raise RuleError("invalid_result", why="winners_seats_not")
        return
    best = (min if rules.match_winner == "lowest_total" else max)(result.totals[seat] for seat in still)
    if result.winners != tuple(seat for seat in still if result.totals[seat] == best):
        raise RuleError("invalid_result", why="winners_seats_best")
