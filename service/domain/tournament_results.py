"""A tournament's results and what follows them: a table's result recorded or corrected
(``record_result``), the round finished, the next round paired or the tournament finished, and the
standings (``pairing.rank``) they come from."""

from typing import TYPE_CHECKING
from uuid import UUID

from service.domain.errors import RuleError
from service.domain.formats import Draw
from service.domain.pairing import History, Placing, rank
from service.domain.rating import last_standing
from service.domain.tournament_round import Round, TableResult, check_result

if TYPE_CHECKING:
    from service.domain.tournament import Tournament

# why a result changed by a ruling after it was recorded is kept out of the tournament
KEPT_FINISHED, KEPT_ELIMINATED = "tournament_finished", "elimination_decided"


def record_result(
    tournament: "Tournament",
    game_id: UUID,
    totals: tuple[int, ...],
    winners: tuple[int, ...],
    timed_out: tuple[int, ...] = (),
    forfeited: tuple[int, ...] = (),
    out_round: tuple[int, ...] = (),
) -> None:
    """A table's game is over: its totals and winning seats (the turns clock bots played, the
    seats that forfeited, the round each seat was eliminated at).

    The same result again does nothing. After the round's last table, the round
    finishes and the next is paired, or the tournament finishes. A different result for a table
    already recorded (a referee's ruling changed its game) corrects it (``_correct``): rounds
    paired meanwhile stay as paired, and a finished round's bye points stay as they were fixed.
    """
    found = tournament._table_of(game_id)
    if found is None:
        raise RuleError("not_a_tournament_game")
    if tournament.cancelled:
        raise RuleError("tournament_cancelled", cancelled=tournament.cancelled)
    played, table = found
    seats = len(played.tables[table])
    result = TableResult(
        totals=tuple(totals),
        winners=tuple(sorted(winners)),
        timed_out=tuple(timed_out) or (0,) * seats,
        forfeited=tuple(forfeited),
        out_round=tuple(out_round),
    )
    recorded = played.results.get(table)
    if recorded == result:
        return
    check_result(result, seats, tournament.rules)
    if recorded is not None:
        _correct(tournament, played, table, game_id, result, recorded)
        return
    tournament.trigger_event(
        tournament.TableFinished, round_no=played.round_no, table=table, game_id=game_id, result=result
    )
    if len(played.results) == len(played.tables):
        finish_round(tournament, played)


def _correct(
    tournament: "Tournament",
    played: Round,
    table: int,
    game_id: UUID,
    result: TableResult,
    previous: TableResult,
) -> None:
    """A ruling changed a game after its table's result was recorded: the new result replaces it,
    unless what the old one decided cannot be undone (``_kept_because``); then it is kept and the
    refusal recorded, once per result."""
    reason = _kept_because(tournament, played, result, previous)
    at_table = {"round_no": played.round_no, "table": table, "game_id": game_id, "result": result}
    if reason is None:
        tournament.trigger_event(tournament.TableResultCorrected, **at_table, previous=previous)
    elif played.kept.get(table) != result:
        tournament.trigger_event(tournament.TableResultKept, **at_table, reason=reason)


def _kept_because(
    tournament: "Tournament", played: Round, result: TableResult, previous: TableResult
) -> str | None:
    """Why a changed result cannot replace the recorded one (None: it can): a finished tournament's
    ranking and winners are final, and who went out of a finished elimination round has played on."""
    if tournament.finished:
        return KEPT_FINISHED
    if (
        tournament.format_unit.eliminates
        and played.finished_at is not None
        and result.winners != previous.winners
    ):
        return KEPT_ELIMINATED
    return None


def standings(tournament: "Tournament") -> list[Placing]:
    """Every entrant placed by the tie-breaks (pairing.rank), as the results stand: the no-shows
    dropped at the start too, last, with nothing played."""
    if not tournament.started:
        return []
    return rank(
        [*tournament.order, *(entrant for entrant in tournament.dropped if entrant not in tournament.order)],
        [table for played in tournament.rounds for table in played.played()],
        [
            (bye, played.bye_points)
            for played in tournament.rounds
            if played.finished_at
            for bye in played.byes
        ],
        tournament.rules.match_winner == "lowest_total",
        stages(tournament) if tournament.format_unit.eliminates else None,
        withdrawn=set(tournament.dropped),
        ratings=tournament.ratings if tournament.plan.rating_tie_break else None,
        wins_first=last_standing(tournament.rules),
    )


def finish_round(tournament: "Tournament", played: Round) -> None:
    winning = [result.totals[seat] for result in played.results.values() for seat in result.winners]
    unit = tournament.format_unit
    out = unit.knocked_out(played.tables, [played.results[t].winners for t in range(len(played.tables))])
    tournament.trigger_event(
        tournament.RoundFinished,
        round_no=played.round_no,
        bye_points=round(sum(winning) / len(winning)),
        out=out,
    )
    if unit.over(tournament.rounds, tournament.planned_rounds, len(alive(tournament))):
        placings = standings(tournament)
        winners = unit.winners(placings)
        tournament.trigger_event(
            tournament.Finished, ranking=tuple(p.entrant for p in placings), winners=winners
        )
    else:
        pair_next(tournament)


def pair_next(tournament: "Tournament") -> None:
    history = History((played.tables, played.byes) for played in tournament.rounds)
    dropped = set(tournament.dropped)
    ranked = [placing.entrant for placing in standings(tournament) if placing.entrant not in dropped]
    draw = Draw(
        ranked=ranked,
        seeded=tournament.active,
        alive=set(alive(tournament)),
        history=history,
        table_size=tournament.plan.table_size,
        salt=f"{tournament.seed}:{len(tournament.rounds) + 1}",
        rounds=tuple(tournament.rounds),
        planned=tournament.planned_rounds,
    )
    pairing = tournament.format_unit.pair(draw)
    tournament.trigger_event(
        tournament.RoundPaired, round_no=len(tournament.rounds) + 1, tables=pairing.tables, byes=pairing.byes
    )


def alive(tournament: "Tournament") -> list[str]:
    # a dropped entrant plays on in no format (only an erased one drops out of an elimination)
    out = {entrant for played in tournament.rounds for entrant in played.out} | set(tournament.dropped)
    return [entrant for entrant in tournament.order if entrant not in out]


def stages(tournament: "Tournament") -> dict[str, int]:
    """A format that eliminates: the round each entrant went out in; one more for those still in."""
    reached = {entrant: len(tournament.rounds) + 1 for entrant in tournament.order}
    for played in tournament.rounds:
        for entrant in played.out:
            reached[entrant] = played.round_no
    return reached
