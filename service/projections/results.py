"""A tournament's results as a club files them: one row per seat per table, one per bye, from the bracket.

Every figure is the bracket's (``TournamentView``, what ``GET /tournaments/{id}``
answers); only the place at a table is worked out here, as the ratings place a
match (``service.domain.rating.places``): the winners share 1, then, where seats
were eliminated (101, faraon), the later out the better, then by total in the
ruleset's direction, equal seats sharing a place. docs/exports.md lists the
columns.
"""

from typing import Literal
from uuid import UUID

import msgspec

from service.domain.presets import PRESETS
from service.domain.rating import places
from service.domain.struct_from import struct_from
from service.domain.tournament_entries import BOT_ENTRANT
from service.projections.models import TournamentPlacing, TournamentRound, TournamentView


class ResultRow(msgspec.Struct, frozen=True, kw_only=True):
    """One seat at one table of a round, or one bye; the CSV's columns, in this order."""

    round_no: int
    kind: Literal["seat", "bye"]
    table: int | None  # None for a bye
    seat: int | None  # the place at the table, 0 first; None for a bye
    entrant: str  # a player's id, or "bot:<bot>#<n>" for a place a bot filled
    name: str  # the player's name as it is now; a bot's place is named by its entrant
    game_id: UUID | None  # the table's game, once the round has started
    finished: bool  # the table's result is recorded; a bye: its round is over
    points: int | None  # the seat's match total; a bye: what the round's byes scored; None until then
    place: int | None  # the place at the table (1 best, ties share); None for a bye or an open table
    won: bool  # among the table's winners (a bye counts as a win in the ranking, not here)
    forfeited: bool  # forfeited the table by clock: a loss, scored the table's worst total
    bot_turns: int | None  # turns a clock bot played for the seat, once the table is finished
    out: bool  # single elimination: this round put the entrant out
    abandoned: bool  # the table's game was in play when the tournament was cancelled: it counts for nobody
    # the entrant's place in the final ranking, once the tournament is finished; None without a result
    final_place: int | None
    # a bot's seat in place of an entrant who had dropped out when the game was made: that entrant;
    # the row's ``entrant`` is then the bot that sat in, and its result is the bot's
    stand_in_for: str | None = None


class TournamentResultsRead(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament's results: its rows (the CSV's, in the same order) and its ranking."""

    tournament_id: UUID
    league_id: UUID
    name: str
    status: Literal["announced", "running", "finished", "cancelled"]
    format: str
    ruleset: str
    lowest_wins: bool  # the ruleset's direction: the lowest total wins a table (club) or the highest
    planned_rounds: int | None
    rows: list[ResultRow]  # by round, then table and seat, a round's byes after its tables
    ranking: list[TournamentPlacing]  # as the bracket ranks the entrants (final once finished)
    winners: list[str]  # entrants, once it is finished
    position: int


def tournament_results(view: TournamentView) -> TournamentResultsRead:
    lowest_wins = PRESETS[view.ruleset].match_winner == "lowest_total"
    final = {
        placing.entrant: placing.rank
        for placing in view.ranking
        if view.status == "finished" and placing.rank is not None
    }
    rows = [row for played in view.rounds for row in _round_rows(view, played, lowest_wins, final)]
    return struct_from(TournamentResultsRead, view, lowest_wins=lowest_wins, rows=rows)


def _round_rows(
    view: TournamentView, played: TournamentRound, lowest_wins: bool, final: dict[str, int]
) -> list[ResultRow]:
    rows = []
    for table in played.tables:
        placed = None
        if table.totals is not None:
            placed = places(table.totals, table.winners, lowest_wins, table.out_round)
        for seat, paired in enumerate(table.entrants):
            stand_in = seat in table.stand_ins
            entrant = f"{BOT_ENTRANT}{view.fill_bot}" if stand_in else paired
            rows.append(
                ResultRow(
                    round_no=played.round_no,
                    kind="seat",
                    table=table.table,
                    seat=seat,
                    entrant=entrant,
                    name=view.names.get(entrant, entrant),
                    game_id=table.game_id,
                    finished=table.finished,
                    points=None if table.totals is None else table.totals[seat],
                    place=None if placed is None else placed[seat],
                    won=seat in table.winners,
                    forfeited=seat in table.forfeited,
                    bot_turns=None if table.timed_out is None else table.timed_out[seat],
                    out=entrant in played.out,
                    abandoned=table.abandoned,
                    final_place=final.get(entrant),
                    stand_in_for=paired if stand_in else None,
                )
            )
    rows += [
        ResultRow(
            round_no=played.round_no,
            kind="bye",
            table=None,
            seat=None,
            entrant=entrant,
            name=view.names.get(entrant, entrant),
            game_id=None,
            finished=played.finished,
            points=played.bye_points,
            place=None,
            won=False,
            forfeited=False,
            bot_turns=None,
            out=False,
            abandoned=False,
            final_place=final.get(entrant),
        )
        for entrant in played.byes
    ]
    return rows
