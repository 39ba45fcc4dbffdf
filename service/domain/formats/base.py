"""What a tournament format is: the ``TournamentFormat`` protocol, and the parts formats share.

A format decides what differs from one way of running a tournament to another; the aggregate
(``service.domain.tournament``) does the rest the same for every format: entries, the seed order,
the schedule, results, byes' points, the ranking's tie-breaks, corrections. A format reads plain
data (a ``Draw``, the rounds paired, the placings) and never the aggregate, so it imports nothing
of it.
"""

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from service.domain.errors import RuleError
from service.domain.pairing import History, Pairing, Placing

MAX_ROUNDS = 50


class PairedRound(Protocol):
    """A round as paired (``tournament.Round`` is one)."""

    @property
    def tables(self) -> tuple[tuple[str, ...], ...]: ...

    @property
    def byes(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class Draw:
    """What the next round is paired from."""

    ranked: Sequence[str]  # the entrants still playing, best placed first
    seeded: Sequence[str]  # the same entrants, in seed order
    alive: Collection[str]  # the entrants no round has put out (``knocked_out``)
    history: History  # every round paired so far
    table_size: int  # the most seats at a table
    salt: str  # the seed and the round: breaks the pairing's ties
    # every round paired so far, in order, and the rounds the tournament plays (``rounds_to_play``):
    # what a format replaying earlier rounds needs (a double round robin's second cycle)
    rounds: Sequence[PairedRound] = ()
    planned: int = 0


class TournamentFormat(Protocol):
    """One tournament format, registered by its ``name`` in ``formats.FORMATS``."""

    name: str  # as a plan and the API spell it
    # entrants go out round by round (``knocked_out``): the ranking puts the round reached first
    # (``pairing.rank``'s stage), and once a round has finished a ruling that changes its winners
    # is kept out (``KEPT_ELIMINATED``): who went through has played on
    eliminates: bool
    # every entrant meets every other (a round robin): the page's crosstable is a grid, entrant
    # against entrant; else it has a column per round (a swiss meets a few of the field)
    everyone_meets: bool

    def check_rounds(self, rounds: int | None) -> None:
        """Refuse (``invalid_rounds``) a plan's ``rounds`` the format cannot play."""
        ...

    def rounds_to_play(self, rounds: int | None, entrants: int, table_size: int) -> int:
        """The rounds a started tournament plays (``Started.rounds``): 0 when ``over`` decides."""
        ...

    def check_drop(self) -> None:
        """Refuse (``cannot_drop``) an entrant dropping out of a running tournament, if the format does."""
        ...

    def pair(self, draw: Draw) -> Pairing:
        """The tables and byes of the next round."""
        ...

    def knocked_out(
        self, tables: Sequence[Sequence[str]], winners: Sequence[tuple[int, ...]]
    ) -> tuple[str, ...]:
        """The entrants a finished round puts out, given each table's winning seats."""
        ...

    def over(self, rounds: Sequence[PairedRound], planned: int, alive: int) -> bool:
        """After a round finished: no round is to follow. ``planned``: ``rounds_to_play``; ``alive``:
        how many entrants no round has put out."""
        ...

    def winners(self, placings: Sequence[Placing]) -> tuple[str, ...]:
        """The tournament's winners from its final placings (best first)."""
        ...


def check_round_count(rounds: int) -> None:
    """A number of rounds a plan fixes: a whole number, 1 to ``MAX_ROUNDS``."""
    if type(rounds) is not int or not 1 <= rounds <= MAX_ROUNDS:
        raise RuleError("invalid_rounds", why="between_rounds", max_rounds=MAX_ROUNDS)


class InRounds:
    """What a format playing a fixed number of rounds, everyone to the end, shares: anyone may drop
    out, nobody is put out, it is over after its last round, the best placed wins alone."""

    eliminates = False

    def check_drop(self) -> None:
        return None

    def knocked_out(
        self, tables: Sequence[Sequence[str]], winners: Sequence[tuple[int, ...]]
    ) -> tuple[str, ...]:
        return ()

    def over(self, rounds: Sequence[PairedRound], planned: int, alive: int) -> bool:
        return len(rounds) >= planned

    def winners(self, placings: Sequence[Placing]) -> tuple[str, ...]:
        return (placings[0].entrant,)
