"""Erasing a player, on both stores, beyond their names: they are seated nowhere new, their Mao
matches go on without them (or end), and their tournaments pair them in no later round."""

from uuid import UUID

from service.application import MauMau
from service.domain.cards import parse_card
from service.domain.league import ERASED_NAME
from service.domain.mao.commands import DealRound, DrawCard, PlayCard
from service.domain.mao.events import CardDrawn, CardPlayed, MatchEnded, RoundEnded
from service.domain.mao.state import DEAL, OVER, PLAY
from service.domain.roles import Actor
from service.domain.seats import Seat
from service.domain.tournament_plan import Plan
from service.projections.reader import ReadModels
from service.settings import Settings
from tests.integration.projecting import catch_up
from tests.integration.tables import players
from tests.integration.test_tournaments import clock_plays_out
from tests.refusals import refused
from tests.unit.mao.scene import deck_for
from workers.conduct import Conductor
from workers.inline import Inline


def test_an_erased_player_is_seated_in_no_new_game_mao_match_tournament_or_league_and_nothing_is_written(
    app: MauMau,
):
    zelda, bob = app.register_player("Zelda"), app.register_player("Bob")
    club, mao = app.found_league("Club"), app.found_league("Mao night", "mao")
    for league in (club, mao):
        app.admit_member(league, bob)
    cup = app.create_tournament(club, "Cup", Plan(format="swiss", table_size=2, rounds=1))
    app.erase_player(zelda)
    position = app.recorder.max_notification_id()

    refused("player_erased", lambda: app.create_game([str(zelda), "bot:random"]))
    refused("player_erased", lambda: app.create_game([str(zelda), str(bob)], league_id=club))
    refused("player_erased", lambda: app.create_mao_game(mao, [str(zelda), str(bob), "bot:random"], "server"))
    refused("player_erased", lambda: app.join_tournament(cup, zelda))
    refused("player_erased", lambda: app.admit_member(club, zelda))

    assert app.recorder.max_notification_id() == position


def mao_match(app: MauMau) -> tuple[UUID, UUID, UUID, UUID]:
    """A server-judged match of Ada, Bo and a bot, Ada dealt first (the bot deals): the league, the
    match, Ada, Bo."""
    league = app.found_league("Mao night", "mao", {"hand_size": 4})
    ada, bo = app.register_player("Ada"), app.register_player("Bo")
    for player in (ada, bo):
        app.admit_member(league, player)
    match = app.create_mao_game(league, [str(ada), str(bo), "bot:random"], "server", first_dealer=2)
    return league, match.id, ada, bo


def test_an_erased_players_mao_seat_is_played_by_a_stand_in_that_only_draws(app: MauMau):
    _, match_id, ada, bo = mao_match(app)
    assert app.get_mao_game(match_id).state.turn == 0  # Ada's turn

    app.erase_player(ada)

    match = app.get_mao_game(match_id)
    assert match.forfeited == (0,) and match.state.phase == PLAY
    Conductor(app, Inline()).advance_game(match_id)  # the step the erasure queued
    assert app.get_mao_game(match_id).state.turn == 1  # the stand-in drew for Ada: Bo's turn
    first = len(match.facts)
    for _ in range(3):
        app.mao_do(match_id, lambda game, rng: DrawCard(1), Actor("player", bo))
        Conductor(app, Inline()).advance_game(match_id)
    later = app.get_mao_game(match_id).facts[first:]
    assert any(isinstance(fact, CardDrawn) and fact.seat == 0 for fact in later)
    assert not any(isinstance(fact, CardPlayed) and fact.seat == 0 for fact in later)
    position = app.recorder.max_notification_id()
    assert app.forfeit_seats_of(ada) == []  # forfeited once
    assert app.recorder.max_notification_id() == position


def test_a_mao_match_with_no_players_seat_left_in_ends_at_once_and_the_read_models_name_erased_player(
    app: MauMau, settings: Settings
):
    league, match_id, ada, bo = mao_match(app)

    app.erase_player(ada)
    app.erase_player(bo)

    match = app.get_mao_game(match_id)
    assert match.forfeited == (0, 1) and match.state.phase == OVER and match.state.winner == 2
    ended = [fact for fact in match.facts if isinstance(fact, RoundEnded)]
    assert ended[-1].reason == "forfeited" and ended[-1].winner == -1
    assert isinstance(match.facts[-1], MatchEnded)
    catch_up(settings)
    reader = ReadModels(settings)
    try:
        listed, _ = reader.mao_games(league, None, None, 10)
        assert [seat.name for seat in listed[0].seats] == [ERASED_NAME, ERASED_NAME, "bot:random"]
        assert listed[0].status == "over" and listed[0].winner == 2
        standings = reader.standings(league)
        assert standings is not None
        rows = {row.player_id: row for row in standings.rows}
        assert {rows[ada].name, rows[bo].name} == {ERASED_NAME}
        assert rows[ada].matches_played == 1 and rows[ada].matches_won == 0 and rows[ada].rounds_played == 1
    finally:
        reader.close()


def swiss_of_four(app: MauMau) -> tuple[UUID, list[UUID]]:
    league = app.found_league("Tuesday club")
    members = players(app, 4)
    for member in members:
        app.admit_member(league, member)
    cup = app.create_tournament(
        league, "Cup", Plan(format="swiss", table_size=2, rounds=3, single_round=True)
    )
    for member in members:
        app.join_tournament(cup, member)
    return cup, members


def test_an_erased_entrant_is_paired_in_no_later_swiss_round_and_the_tournament_plays_to_its_end(app: MauMau):
    cup, members = swiss_of_four(app)
    app.start_tournament(cup, seed="erased")
    erased = members[0]
    games = app.start_round(cup, 1)

    app.erase_player(erased)

    tournament = app.get_tournament(cup)
    assert str(erased) in tournament.dropped
    for round_no in (1, 2, 3):
        for game_id in games:
            clock_plays_out(app, game_id)
            app.record_table_result(cup, game_id)
        if round_no < 3:
            games = app.start_round(cup, round_no + 1)
    tournament = app.get_tournament(cup)
    assert tournament.finished
    for played in tournament.rounds[1:]:
        assert str(erased) not in {entrant for table in played.tables for entrant in table}
    assert tournament.ranking[-1] == str(erased)  # ranked after everyone who played on


def test_an_erased_entrant_paired_before_their_tables_game_is_made_is_stood_in_for_by_the_plans_bot(
    app: MauMau,
):
    cup, members = swiss_of_four(app)
    app.start_tournament(cup, seed="erased")

    app.erase_player(members[0])
    games = app.start_round(cup, 1)

    tournament = app.get_tournament(cup)
    seats = [seat for game_id in games for seat in app.get_game(game_id).seats]
    assert str(members[0]) not in {seat.name for seat in seats}
    assert Seat("bot", tournament.plan.fill_bot) in seats
    assert len(tournament.paired_round(1).stand_ins) == 1
    assert tournament.dropped == (str(members[0]),)


def test_an_entrant_erased_before_the_start_leaves_the_entries(app: MauMau):
    cup, members = swiss_of_four(app)

    app.erase_player(members[0])

    assert str(members[0]) not in app.get_tournament(cup).entrants
    app.start_tournament(cup, seed="erased")
    assert str(members[0]) not in app.get_tournament(cup).order


def test_an_entrant_erased_while_winning_a_single_elimination_goes_no_further(app: MauMau):
    league = app.found_league("Knockout club")
    members = players(app, 4)
    for member in members:
        app.admit_member(league, member)
    cup = app.create_tournament(
        league, "Knockout", Plan(format="single_elimination", table_size=2, single_round=True)
    )
    for member in members:
        app.join_tournament(cup, member)
    app.start_tournament(cup, seed="knockout")
    for game_id in app.start_round(cup, 1):
        clock_plays_out(app, game_id)
        app.record_table_result(cup, game_id)
    finalists = app.get_tournament(cup).paired_round(2).tables[0]

    app.erase_player(UUID(finalists[0]))

    (final,) = app.start_round(cup, 2)
    assert finalists[0] not in {seat.name for seat in app.get_game(final).seats}
    clock_plays_out(app, final)
    app.record_table_result(cup, final)
    tournament = app.get_tournament(cup)
    assert tournament.finished and finalists[0] not in tournament.winners


def test_a_mao_match_ended_by_a_forfeit_between_rounds_counts_the_rounds_played_in_the_standings(
    app: MauMau, settings: Settings
):
    league = app.found_league("Mao night", "mao", {"hand_size": 1, "rounds_to_win": 2})
    app.appoint_referee(league, "rita")
    ada, bo = app.register_player("Ada"), app.register_player("Bo")
    for player in (ada, bo):
        app.admit_member(league, player)
    match = app.create_mao_game(league, [str(ada), str(bo), "bot:random"], "referee", first_dealer=2)
    deck = deck_for(3, 1, 2, {0: "5H"}, "9H")
    app.mao_do(match.id, lambda game, rng: DealRound(deck), Actor("referee", "rita"))
    app.mao_do(match.id, lambda game, rng: PlayCard(0, parse_card("5H"), says=("mao",)), Actor("player", ada))
    assert app.get_mao_game(match.id).state.phase == DEAL  # round 1 won by Ada, the match goes on

    app.erase_player(ada)
    app.erase_player(bo)

    assert app.get_mao_game(match.id).state.winner == 2
    catch_up(settings)
    reader = ReadModels(settings)
    try:
        standings = reader.standings(league)
        assert standings is not None
        rows = {row.player_id: row for row in standings.rows}
        assert rows[ada].rounds_played == 1 and rows[ada].rounds_won == 1 and rows[ada].matches_won == 0
    finally:
        reader.close()
