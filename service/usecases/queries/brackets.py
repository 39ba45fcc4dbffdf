"""A single elimination's bracket as the tournament page draws it: each round a column of matches
(a table, or a bye), each match its seats with their totals and who went through, and which match of
the next round each one's winners went to; the rounds not paired yet as matches still to be decided.

Read from the tournament's view alone (``TournamentView``): the bracket is the view's rounds seen
another way, never a second reckoning of who won. How many rounds are still to come, and how many
tables each will have, follows the pairing's own table sizes (``pairing.table_sizes``) on the
assumption that each table sends one winner through (a shared win sends more: the page is drawn
again once the round is paired).
"""

from dataclasses import dataclass, field, replace
from uuid import UUID

from service.domain.pairing import table_sizes
from service.projections.models import TournamentRound, TournamentTable, TournamentView

MOST_ROUNDS = 12  # 6^12 entrants would be needed for more: a bound on the projection, never reached


@dataclass(frozen=True)
class Seat:
    entrant: str  # "" in a slot still to be decided
    name: str
    total: int | None = None  # once the table's game is over
    won: bool = False  # went through (a bye always does)
    forfeited: bool = False  # lost by the turn clock
    stand_in: bool = False  # a bot sat in for this entrant, who had dropped out


@dataclass(frozen=True)
class Match:
    table: int | None  # None: a bye
    seats: list[Seat]
    finished: bool = False
    game_id: UUID | None = None
    abandoned: bool = False
    decided: bool = True  # False: a match of a round not paired yet, its seats still to be decided
    # the index of the match in the next column that its winners (or its bye) went to, once known;
    # for a next round not paired yet, the match of it this one is drawn joined to
    next: int | None = None


@dataclass(frozen=True)
class BracketRound:
    round_no: int
    matches: list[Match]
    paired: bool = True  # False: a round still to come, its matches to be decided
    finished: bool = False


@dataclass(frozen=True)
class Bracket:
    rounds: list[BracketRound]
    winners: list[str] = field(default_factory=list)  # their names, once the final is over


def bracket(view: TournamentView) -> Bracket | None:
    """The bracket of a single elimination (None for another format)."""
    if view.format != "single_elimination":
        return None
    paired = [_paired(view, played) for played in view.rounds]
    rounds = paired + _to_come(view)
    joined = [
        BracketRound(
            round_no=column.round_no,
            matches=_joined(column, rounds[index + 1] if index + 1 < len(rounds) else None),
            paired=column.paired,
            finished=column.finished,
        )
        for index, column in enumerate(rounds)
    ]
    winners = [_name(view, entrant) for entrant in view.winners] if view.status == "finished" else []
    return Bracket(rounds=joined, winners=winners)


def _name(view: TournamentView, entrant: str) -> str:
    return view.names.get(entrant) or entrant


def _paired(view: TournamentView, played: TournamentRound) -> BracketRound:
    matches = [_match(view, table) for table in played.tables]
    matches += [
        Match(table=None, seats=[Seat(entrant, _name(view, entrant), won=True)]) for entrant in played.byes
    ]
    return BracketRound(round_no=played.round_no, matches=matches, finished=played.finished)


def _match(view: TournamentView, table: TournamentTable) -> Match:
    totals = table.totals or []
    seats = [
        Seat(
            entrant=entrant,
            name=_name(view, entrant),
            total=totals[seat] if seat < len(totals) else None,
            won=table.finished and seat in table.winners,
            forfeited=seat in table.forfeited,
            stand_in=seat in table.stand_ins,
        )
        for seat, entrant in enumerate(table.entrants)
    ]
    return Match(
        table=table.table,
        seats=seats,
        finished=table.finished,
        game_id=table.game_id,
        abandoned=table.abandoned,
    )


def _to_come(view: TournamentView) -> list[BracketRound]:
    """The rounds not paired yet, as many as the entrants still in need, each table's seats empty."""
    if view.status in ("finished", "cancelled"):
        return []
    if view.rounds:
        last = view.rounds[-1]
        if len(last.tables) == 1 and not last.byes:
            return []  # the final is being played
        alive = len(last.tables) + len(last.byes)  # a table's winner each, and the byes
        round_no = last.round_no
    else:
        alive = max(len(view.entrants), view.places or 0)
        round_no = 0
    rounds: list[BracketRound] = []
    while alive > 1 and len(rounds) < MOST_ROUNDS:
        sizes, byes = table_sizes(alive, view.table_size)
        if not sizes:
            break
        round_no += 1
        empty = [Match(table=n, seats=[Seat("", "")] * size, decided=False) for n, size in enumerate(sizes)]
        empty += [Match(table=None, seats=[Seat("", "")], decided=False) for _ in range(byes)]
        rounds.append(BracketRound(round_no=round_no, matches=empty, paired=False))
        if len(sizes) == 1 and not byes:
            break
        alive = len(sizes) + byes
    return rounds


def _joined(column: BracketRound, following: BracketRound | None) -> list[Match]:
    """Each match of ``column`` with the match of ``following`` its winners went to."""
    if following is None:
        return column.matches
    if following.paired:
        where = {seat.entrant: index for index, match in enumerate(following.matches) for seat in match.seats}
        return [_with_next(match, _went_to(match, where)) for match in column.matches]
    # not paired yet: the matches are shared out over the next round's in order, as evenly as may be
    count, targets = len(column.matches), len(following.matches)
    return [_with_next(match, index * targets // count) for index, match in enumerate(column.matches)]


def _went_to(match: Match, where: dict[str, int]) -> int | None:
    return next((where[seat.entrant] for seat in match.seats if seat.won and seat.entrant in where), None)


def _with_next(match: Match, following: int | None) -> Match:
    return replace(match, next=following)
