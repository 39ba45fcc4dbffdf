"""Who met whom, as the tournament page shows it: the crosstable of a format that puts nobody out,
and each entrant's rounds at a glance. Where everyone meets everyone (a round robin, a double round
robin) the crosstable is a grid, entrant against entrant: each entrant's meetings with each other,
from the row's side, every meeting of a pair in its cell. A swiss pairs each entrant with a few of
the field, so its crosstable has a column per round, as swiss crosstables have: each cell the row's
result and the row numbers of those at its table (a 128-entrant swiss's grid would be 16,384 cells,
nearly all empty).

Read from the tournament's view alone (``TournamentView``), in the ranking's order. What counts is
what the ranking counts: a seat a bot sat in for someone who had dropped out met nobody (its result
is the bot's), and a table abandoned by a cancellation counts for nobody, so neither is a meeting.
"""

from typing import Literal
from uuid import UUID

import msgspec

from service.domain.formats import FORMATS
from service.projections.models import TournamentPlacing, TournamentTable, TournamentView

# from the row's (or the entrant's) side: won, lost, a shared win, a table someone else won, a
# table still in play (or waiting for its game)
Outcome = Literal["won", "lost", "shared", "neither", "playing"]
# an entrant's round: at a table, a bye, a bot sat in for them, or no table that round
RoundKind = Literal["table", "bye", "stand_in", "none"]


class Meeting(msgspec.Struct, frozen=True, kw_only=True):
    round_no: int
    outcome: Outcome
    own: int | None  # the row's total, once the game is over
    other: int | None  # the column's
    forfeited: bool = False  # the row lost this table by the turn clock
    game_id: UUID | None = None


class CrossRow(msgspec.Struct, frozen=True, kw_only=True):
    entrant: str
    name: str
    rank: int | None
    points: int
    wins: int
    byes: int
    dropped: bool
    # one list a column, in the rows' order: the meetings with that entrant (the row's own: empty);
    # none in a crosstable by rounds
    cells: list[list[Meeting]]
    rounds: list["RoundPlayed"] = msgspec.field(default_factory=list)  # by rounds: one a round paired so far


class Crosstable(msgspec.Struct, frozen=True, kw_only=True):
    rows: list[CrossRow]
    by_rounds: bool = False  # a column per round (a swiss), not one per entrant


class RoundPlayed(msgspec.Struct, frozen=True, kw_only=True):
    round_no: int
    kind: RoundKind
    outcome: Outcome | None = None  # at a table
    opponents: tuple[str, ...] = ()  # their names
    met: tuple[int, ...] = ()  # the row numbers (1: the ranking's first) of those who played themselves
    own: int | None = None
    table: int | None = None
    game_id: UUID | None = None
    forfeited: bool = False
    bye_points: int | None = None  # a bye's, once its round is over


class EntrantRounds(msgspec.Struct, frozen=True, kw_only=True):
    entrant: str
    name: str
    dropped: bool
    rounds: list[RoundPlayed]


def _name(view: TournamentView, entrant: str) -> str:
    return view.names.get(entrant) or entrant


def _counted(table: TournamentTable) -> list[tuple[int, str]]:
    """The seats whose entrant played the table themself (none of an abandoned table)."""
    if table.abandoned:
        return []
    return [(seat, entrant) for seat, entrant in enumerate(table.entrants) if seat not in table.stand_ins]


def _outcome(table: TournamentTable, own: int, other: int | None = None) -> Outcome:
    """The table's result from seat ``own``'s side (against seat ``other``, in a crosstable)."""
    if not table.finished:
        return "playing"
    won = own in table.winners
    if other is None:
        return ("shared" if len(table.winners) > 1 else "won") if won else "lost"
    beaten = other in table.winners
    if won and beaten:
        return "shared"
    if won or beaten:
        return "won" if won else "lost"
    return "neither"


def _total(table: TournamentTable, seat: int) -> int | None:
    return table.totals[seat] if table.totals is not None and seat < len(table.totals) else None


def crosstable(view: TournamentView, played: list["EntrantRounds"] | None = None) -> Crosstable | None:
    """The crosstable of a format that eliminates nobody (None for one that does: its page draws a
    bracket; None for a name no longer registered). ``played``: ``entrant_rounds(view)``, if made."""
    unit = FORMATS.get(view.format)
    if unit is None or unit.eliminates:
        return None
    if not unit.everyone_meets:
        if played is None:
            played = entrant_rounds(view)
        return Crosstable(
            rows=[
                _row(view, placing, [], found.rounds)
                for placing, found in zip(view.ranking, played, strict=True)
            ],
            by_rounds=True,
        )
    order = [placing.entrant for placing in view.ranking]
    column = {entrant: index for index, entrant in enumerate(order)}
    cells: dict[str, list[list[Meeting]]] = {entrant: [[] for _ in order] for entrant in order}
    for played_round in view.rounds:
        for table in played_round.tables:
            sat = _counted(table)
            for seat, entrant in sat:
                for other_seat, other in sat:
                    if other == entrant or entrant not in cells or other not in column:
                        continue
                    cells[entrant][column[other]].append(
                        Meeting(
                            round_no=played_round.round_no,
                            outcome=_outcome(table, seat, other_seat),
                            own=_total(table, seat),
                            other=_total(table, other_seat),
                            forfeited=seat in table.forfeited,
                            game_id=table.game_id,
                        )
                    )
    return Crosstable(rows=[_row(view, placing, cells[placing.entrant]) for placing in view.ranking])


def _row(
    view: TournamentView,
    placing: TournamentPlacing,
    cells: list[list[Meeting]],
    rounds: list[RoundPlayed] | None = None,
) -> CrossRow:
    return CrossRow(
        entrant=placing.entrant,
        name=_name(view, placing.entrant),
        rank=placing.rank,
        points=placing.points,
        wins=placing.wins,
        byes=placing.byes,
        dropped=placing.dropped,
        cells=cells,
        rounds=rounds or [],
    )


def entrant_rounds(view: TournamentView) -> list[EntrantRounds]:
    """Each entrant's rounds (the ranking's order), one a round paired so far."""
    rounds: dict[str, list[RoundPlayed]] = {placing.entrant: [] for placing in view.ranking}
    number = {placing.entrant: index + 1 for index, placing in enumerate(view.ranking)}
    for played in view.rounds:
        for table in played.tables:
            if table.abandoned:
                continue
            names = [_name(view, entrant) for entrant in table.entrants]
            # the others' row numbers, of those who played themselves (a bot sitting in met nobody)
            numbers = [(seat, number[entrant]) for seat, entrant in _counted(table) if entrant in number]
            for seat, entrant in enumerate(table.entrants):
                found = rounds.get(entrant)
                if found is None:
                    continue
                if seat in table.stand_ins:
                    found.append(RoundPlayed(round_no=played.round_no, kind="stand_in"))
                    continue
                found.append(
                    RoundPlayed(
                        round_no=played.round_no,
                        kind="table",
                        outcome=_outcome(table, seat),
                        opponents=tuple(names[:seat] + names[seat + 1 :]),
                        met=tuple(n for other, n in numbers if other != seat),
                        own=_total(table, seat),
                        table=table.table,
                        game_id=table.game_id,
                        forfeited=seat in table.forfeited,
                    )
                )
        for entrant in played.byes:
            if entrant in rounds:
                rounds[entrant].append(
                    RoundPlayed(round_no=played.round_no, kind="bye", bye_points=played.bye_points)
                )
        for found in rounds.values():
            if not found or found[-1].round_no != played.round_no:
                found.append(RoundPlayed(round_no=played.round_no, kind="none"))
    return [
        EntrantRounds(
            entrant=placing.entrant,
            name=_name(view, placing.entrant),
            dropped=placing.dropped,
            rounds=rounds[placing.entrant],
        )
        for placing in view.ranking
    ]
