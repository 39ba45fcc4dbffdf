"""A table's result changed by a referee's ruling after the tournament recorded it: corrected, or kept."""

import uuid

import msgspec

from service.domain.tournament import Tournament
from service.domain.tournament_results import KEPT_ELIMINATED, KEPT_FINISHED
from service.persistence.mapper import MsgspecMapper
from service.projections.tournaments import TrackedTournament
from tests.refusals import refused
from tests.unit.test_tournament import attach_all, best_wins, by_number, entered, play_round
from tests.unit.test_tournament_lifecycle import rebuilt, recorded, unchanged


def record(tournament: Tournament, game: uuid.UUID, totals: tuple[int, ...]) -> None:
    tournament.record_result(game, totals, best_wins(totals))


def test_a_changed_result_in_a_round_still_open_replaces_the_recorded_one_and_the_round_closes_as_usual():
    tournament = entered(8)
    tournament.start("seed")
    games = attach_all(tournament)
    record(tournament, games[0], (0, 10, 20, 30))
    record(tournament, games[0], (40, 10, 20, 30))  # a referee's correction: seat 1 wins now
    played = tournament.rounds[0]
    assert played.results[0].winners == (1,) and played.finished_at is None
    [corrected] = recorded(tournament, Tournament.TableResultCorrected)
    assert corrected.previous.totals == (0, 10, 20, 30) and corrected.result.totals == (40, 10, 20, 30)
    record(tournament, games[1], (5, 6, 7, 8))
    assert played.finished_at is not None and len(tournament.rounds) == 2
    assert len(recorded(tournament, Tournament.TableFinished)) == 2


def test_the_same_corrected_result_again_records_nothing():
    tournament = entered(8)
    tournament.start("seed")
    game = attach_all(tournament)[0]
    record(tournament, game, (0, 10, 20, 30))
    record(tournament, game, (40, 10, 20, 30))
    record(tournament, game, (40, 10, 20, 30))
    assert len(recorded(tournament, Tournament.TableResultCorrected)) == 1


def test_an_impossible_corrected_result_is_refused_and_changes_nothing():
    tournament = entered(8)
    tournament.start("seed")
    game = attach_all(tournament)[0]
    record(tournament, game, (0, 10, 20, 30))
    unchanged("invalid_result", tournament, lambda: tournament.record_result(game, (40, 10, 20, 30), (0,)))
    unchanged("invalid_result", tournament, lambda: tournament.record_result(game, (40, 10, 20), (1,)))
    assert tournament.rounds[0].results[0].totals == (0, 10, 20, 30)


def test_a_correction_in_a_finished_swiss_round_moves_the_ranking_but_not_the_pairings_or_bye_points():
    tournament = entered(5, table_size=2, rounds=3)  # two tables of two and a bye
    tournament.start("seed")
    games = attach_all(tournament)
    record(tournament, games[0], (3, 20))
    record(tournament, games[1], (8, 20))
    first = tournament.rounds[0]
    second_tables = tournament.rounds[1].tables
    assert first.bye_points == 6
    winner, loser = first.tables[0]
    record(tournament, games[0], (30, 20))  # a referee's correction: the other seat won the table
    assert first.results[0].winners == (1,)
    placings = {p.entrant: p for p in tournament.standings()}
    assert (placings[loser].wins, placings[loser].points) == (1, 20)
    assert (placings[winner].wins, placings[winner].points) == (0, 30)
    assert tournament.rounds[1].tables == second_tables and first.bye_points == 6
    assert rebuilt(tournament).standings() == tournament.standings()


def test_a_correction_that_changes_who_went_through_an_elimination_round_is_kept_out_and_recorded_once():
    tournament = entered(8, format="single_elimination", rounds=None)
    tournament.start("seed")
    play_round(tournament, by_number)
    first = tournament.rounds[0]
    before = (first.results[0], first.out, tournament.rounds[1].tables)
    totals = first.results[0].totals
    upset = (99, *totals[1:3], -1)
    record(tournament, first.games[0], upset)
    record(tournament, first.games[0], upset)  # the worker looking again
    [kept] = recorded(tournament, Tournament.TableResultKept)
    assert kept.reason == KEPT_ELIMINATED and kept.result.totals == upset
    assert (first.results[0], first.out, tournament.rounds[1].tables) == before
    assert first.kept[0].totals == upset
    assert not recorded(tournament, Tournament.TableResultCorrected)


def test_a_correction_in_an_elimination_round_that_keeps_the_same_winners_is_taken():
    tournament = entered(8, format="single_elimination", rounds=None)
    tournament.start("seed")
    play_round(tournament, by_number)
    first = tournament.rounds[0]
    before = first.results[0]
    loser = next(seat for seat in range(4) if seat not in before.winners)
    totals = tuple(total + 5 if seat == loser else total for seat, total in enumerate(before.totals))
    record(tournament, first.games[0], totals)
    assert first.results[0].totals == totals and first.results[0].winners == before.winners
    assert len(recorded(tournament, Tournament.TableResultCorrected)) == 1


def test_a_finished_tournament_keeps_its_results_and_ranking_final():
    tournament = entered(4, rounds=1)
    tournament.start("seed")
    play_round(tournament, by_number)
    assert tournament.finished
    played = tournament.rounds[0]
    ranking, winners, standings = tournament.ranking, tournament.winners, tournament.standings()
    totals = played.results[0].totals
    record(tournament, played.games[0], (99, *totals[1:3], -1))
    [kept] = recorded(tournament, Tournament.TableResultKept)
    assert kept.reason == KEPT_FINISHED
    assert (tournament.ranking, tournament.winners, tournament.standings()) == (ranking, winners, standings)


def test_a_correction_of_a_cancelled_tournament_is_refused_and_changes_nothing():
    tournament = entered(8)
    tournament.start("seed")
    game = attach_all(tournament)[0]
    record(tournament, game, (0, 10, 20, 30))
    tournament.cancel("the hall closed")
    unchanged("tournament_cancelled", tournament, lambda: record(tournament, game, (40, 10, 20, 30)))


def test_a_correction_taken_after_a_kept_result_clears_it_and_the_stored_events_rebuild_the_same():
    tournament = entered(8, format="single_elimination", rounds=None)
    tournament.start("seed")
    play_round(tournament, by_number)
    first = tournament.rounds[0]
    before = first.results[0]
    record(tournament, first.games[0], (99, *before.totals[1:3], -1))  # other winners: kept out
    assert first.kept
    loser = next(seat for seat in range(4) if seat not in before.winners)
    totals = tuple(total + 5 if seat == loser else total for seat, total in enumerate(before.totals))
    record(tournament, first.games[0], totals)  # a later ruling: the same winners, other totals
    assert first.kept == {} and first.results[0].totals == totals
    mapper = MsgspecMapper()
    folded = None
    for event in tournament.collect_events():
        folded = mapper.to_domain_event(mapper.to_stored_event(event)).mutate(folded)
    assert isinstance(folded, Tournament)
    assert folded.rounds[0].results == first.results and folded.rounds[0].kept == {}
    assert folded.standings() == tournament.standings()
    refused("not_a_tournament_game", lambda: folded.record_result(uuid.uuid4(), (0, 1, 2, 3), (0,)))


def test_a_tournament_image_stored_before_kept_results_restores_with_none_kept():
    tournament = entered(8)
    tournament.start("seed")
    record(tournament, attach_all(tournament)[0], (0, 10, 20, 30))
    stored = msgspec.msgpack.decode(TrackedTournament(tournament, 1).image())
    for played in stored["image"]["rounds"]:
        assert played.pop("kept") == {}
    restored = TrackedTournament.restore(tournament.id, msgspec.msgpack.encode(stored)).tournament
    assert restored.rounds[0].kept == {} and restored.rounds[0].results == tournament.rounds[0].results
