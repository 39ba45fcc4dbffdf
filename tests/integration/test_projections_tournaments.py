"""The tournaments read model against a recomputation from the Tournament aggregate, on PostgreSQL and SQLite.

Tournaments are played by the workers' own steps in this process
(``workers.inline``), people among the bots who never move, so clock bots
play their turns. The projection is caught up by a new runner now and then
while they are played, so tournaments are read back from their rows as well
as kept in memory. The expected bracket is drawn here from the aggregate
(``app.get_tournament``) and the players' names; turn deadlines from the
stored game (its last event and the plan's clock).
"""

from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest

from service.application import MauMau
from service.domain.pairing import ranking_order
from service.domain.tournament import Tournament
from service.domain.tournament_plan import Plan
from service.projections.models import (
    NextGame,
    TournamentPlacing,
    TournamentRound,
    TournamentTable,
    TournamentView,
)
from service.projections.reader import ReadModels
from service.projections.tournaments import image_of, restore
from tests.integration.projecting import catch_up
from tests.integration.tables import play_out, players
from tests.integration.test_workers import assert_tournament_agrees_with_its_games
from workers.conduct import Conductor
from workers.inline import Inline
from workers.tournaments import tournaments_to_conduct

pytestmark = pytest.mark.own_store  # each test reads the whole log: a store of the test's own


def league_with(app: MauMau, members: int, ruleset: str = "club") -> tuple[UUID, list[UUID]]:
    league = app.found_league("Saturday club", ruleset)
    joined = players(app, members)
    for player in joined:
        app.admit_member(league, player)
    return league, joined


def announce(app: MauMau, league: UUID, members: list[UUID], plan: Plan, name: str = "Cup") -> UUID:
    tournament_id = app.create_tournament(league, name, plan)
    for member in members:
        app.join_tournament(tournament_id, member)
    return tournament_id


def name_of(app: MauMau, entrant: str) -> str:
    return entrant if entrant.startswith("bot:") else app.get_player(entrant).name


def expected_view(app: MauMau, tournament_id: UUID, position: int) -> TournamentView:
    """The bracket, drawn from the aggregate."""
    t: Tournament = app.get_tournament(tournament_id)
    plan = t.plan
    rounds = []
    for played in t.rounds:
        tables = []
        for number, seats in enumerate(played.tables):
            result = played.results.get(number)
            tables.append(
                TournamentTable(
                    table=number,
                    entrants=list(seats),
                    game_id=played.games.get(number),
                    totals=list(result.totals) if result else None,
                    winners=list(result.winners) if result else [],
                    finished=result is not None,
                    timed_out=list(result.timed_out) if result else None,
                    forfeited=list(result.forfeited) if result else [],
                    stand_ins=list(played.stand_ins.get(number, ())),
                )
            )
        rounds.append(
            TournamentRound(
                round_no=played.round_no,
                due_at=t.due_at(played.round_no),
                tables=tables,
                byes=list(played.byes),
                out=list(played.out),
                finished=played.finished_at is not None,
                bye_points=played.bye_points if played.finished_at is not None else None,
            )
        )
    entrants = list(t.order) if t.started else list(t.entrants)
    tie_breaks, rule = ranking_order(
        t.rules.match_winner == "lowest_total", plan.format == "single_elimination"
    )
    if t.finished:
        status, planned = "finished", t.planned_rounds or None
    elif t.started:
        status, planned = "running", t.planned_rounds or None
    else:
        status, planned = "announced", plan.rounds
    return TournamentView(
        tournament_id=tournament_id,
        league_id=t.league_id,
        name=t.name,
        format=plan.format,
        table_size=plan.table_size,
        planned_rounds=planned,
        status=status,
        starts_at=plan.starts_at or t.started_at,
        entrants=entrants,
        rounds=rounds,
        ranking=[
            TournamentPlacing(
                rank=p.rank if p.played else None,
                entrant=p.entrant,
                name=name_of(app, p.entrant),
                points=p.points,
                wins=p.wins,
                tables=p.tables,
                byes=p.byes,
                bot_turns=p.bot_turns,
                opponents=p.opponents,
                stage=p.stage,
                forfeits=p.forfeits,
            )
            for p in t.standings()
        ],
        winners=list(t.winners),
        position=position,
        ruleset=t.ruleset_name,
        interval=plan.interval,
        target_score=plan.target_score,
        single_round=plan.single_round,
        turn_clock=plan.turn_clock,
        places=plan.places,
        fill_bot=plan.fill_bot,
        names={entrant: name_of(app, entrant) for entrant in entrants},
        tie_breaks=tie_breaks,
        rule=rule,
    )


def expected_deadline(app: MauMau, game_id: UUID, clock: int | None) -> datetime | None:
    """A person to move under a clock: the game's last event and the clock; else none."""
    game = app.get_game(game_id)
    if clock is None or game.over or game.paused or game.seats[game.seat_to_move].kind != "player":
        return None
    last = app.game_events(game_id)[-1]
    return last.timestamp + timedelta(seconds=clock)


def assert_tournaments_match(app: MauMau, reader: ReadModels, tournaments: list[UUID]) -> None:
    position = reader.position()
    assert position == app.recorder.max_notification_id()
    for tournament_id in tournaments:
        assert reader.tournament(tournament_id) == expected_view(app, tournament_id, position)
        t = app.get_tournament(tournament_id)
        for played in t.rounds:
            for game_id in played.games.values():
                table = reader.table(game_id)
                assert table is not None
                assert table.turn_deadline == expected_deadline(app, game_id, t.plan.turn_clock)
    by_league: dict[UUID, list[UUID]] = {}
    for tournament_id in tournaments:
        by_league.setdefault(app.get_tournament(tournament_id).league_id, []).append(tournament_id)
    for league, listed in by_league.items():
        assert reader.tournaments(league) == [expected_view(app, t, position) for t in listed]
    # what the tick looks at: running, or announced with a start time
    found = {t: app.get_tournament(t) for t in tournaments}
    ticked = [t for t, f in found.items() if not f.finished and (f.started or f.plan.starts_at is not None)]
    assert [t for t in reader.tournaments_to_conduct() if t in tournaments] == ticked


def now() -> datetime:
    return datetime.now(UTC)


# ---------------------------------------------------------------------------


def test_the_brackets_equal_a_recomputation_from_the_aggregates_while_and_after_workers_play_them(
    app, settings, reader
):
    league, (ann, ben, cid) = league_with(app, 3)
    swiss = announce(
        app,
        league,
        [ann, ben],
        Plan(format="swiss", table_size=4, rounds=2, single_round=True, places=8, turn_clock=30),
        "Swiss cup",
    )
    knockout = announce(
        app,
        league,
        [cid],
        Plan(format="single_elimination", table_size=3, single_round=True, places=7, turn_clock=10),
        "Knockout",
    )
    waiting = announce(
        app,
        league,
        [ann],
        Plan(
            format="round_robin", table_size=3, starts_at=now() + timedelta(hours=2), interval=600, places=6
        ),
        "Later",
    )
    other_league, (dora,) = league_with(app, 1, "mau-mau-150")
    elsewhere = announce(
        app,
        other_league,
        [dora],
        Plan(format="swiss", table_size=2, rounds=1, single_round=True, places=3, turn_clock=20),
    )
    everything = [swiss, knockout, waiting, elsewhere]
    catch_up(settings)
    assert_tournaments_match(app, reader, everything)  # all announced, none started

    inline = Inline()
    conductor = Conductor(app, inline)
    for tournament_id in (swiss, knockout, elsewhere):
        app.start_tournament(tournament_id, seed="projected")
    catch_up(settings)
    assert_tournaments_match(app, reader, everything)  # round 1 paired, no game made yet

    for tournament_id in (swiss, knockout, elsewhere):
        conductor.conduct_tournament(tournament_id)
    inline.run(conductor, until=lambda: bool(inline.queued("time_out_turn")))
    catch_up(settings)
    assert_tournaments_match(app, reader, everything)
    ((game_id, seat, _),) = inline.queued("time_out_turn")  # a person is to move, under the clock
    table = reader.table(game_id)
    assert (table.turn, table.seats[seat].kind) == (seat, "player") and table.turn_deadline is not None
    while inline.queue:  # a few steps at a time, looked at by a new runner each time
        ran = len(inline.done)
        inline.run(conductor, until=lambda: len(inline.done) - ran >= 40)  # noqa: B023
        catch_up(settings)
        assert_tournaments_match(app, reader, everything)
    assert_tournament_agrees_with_its_games(app, swiss)
    assert_tournament_agrees_with_its_games(app, elsewhere)
    assert app.get_tournament(knockout).finished
    catch_up(settings)
    assert_tournaments_match(app, reader, everything)
    ranking = reader.tournament(swiss).ranking
    assert sum(p.bot_turns for p in ranking) > 0
    assert {p.name for p in ranking if p.bot_turns} <= {app.get_player(ann).name, app.get_player(ben).name}
    # what the tick reads
    assert tournaments_to_conduct(type("Services", (), {"read": reader})()) == [waiting]


def test_the_tick_looks_at_a_tournament_announced_without_a_start_time_only_once_it_has_one(
    app, settings, reader
):
    league, (ann,) = league_with(app, 1)
    by_hand = announce(app, league, [ann], Plan(format="swiss", table_size=2, rounds=1), "Started by hand")
    timed = announce(
        app, league, [ann], Plan(format="swiss", table_size=2, rounds=1, starts_at=now() + timedelta(hours=1))
    )
    catch_up(settings)
    assert {by_hand, timed} <= {t.tournament_id for t in reader.tournaments(league)}  # both listed
    ticked = set(reader.tournaments_to_conduct())
    assert timed in ticked and by_hand not in ticked
    app.edit_tournament(by_hand, changes={"starts_at": now() + timedelta(hours=2)})
    catch_up(settings)
    assert by_hand in reader.tournaments_to_conduct()


def test_a_players_next_game_is_the_table_played_else_the_next_one_due(app, settings, reader):
    league, (ann, ben) = league_with(app, 2)
    plan = Plan(format="swiss", table_size=4, rounds=1, single_round=True, places=4, turn_clock=45)
    tournament_id = announce(app, league, [ann], plan)
    catch_up(settings)
    assert reader.next_game(ann) is None  # joined, but no table is paired yet
    app.start_tournament(tournament_id, seed="next")
    catch_up(settings)
    t = app.get_tournament(tournament_id)
    seat = t.rounds[0].tables[0].index(str(ann))
    assert reader.next_game(ann) == NextGame(
        player_id=ann,
        tournament_id=tournament_id,
        tournament="Cup",
        round_no=1,
        table=0,
        seat=seat,
        game_id=None,
        status="waiting",
        due_at=t.started_at,
        turn_deadline=None,
        position=reader.position(),
    )
    assert reader.next_game(ben) is None  # a member who did not join

    inline = Inline()
    conductor = Conductor(app, inline)
    conductor.conduct_tournament(tournament_id)
    inline.run(conductor, until=lambda: bool(inline.queued("time_out_turn")))  # Ann is to move
    catch_up(settings)
    (game_id,) = app.get_tournament(tournament_id).rounds[0].games.values()
    found = reader.next_game(ann)
    assert found is not None and (found.status, found.game_id, found.seat) == ("playing", game_id, seat)
    assert found.turn_deadline == expected_deadline(app, game_id, 45) is not None
    assert reader.table(game_id).turn_deadline == found.turn_deadline

    inline.run(conductor)
    catch_up(settings)
    assert app.get_tournament(tournament_id).finished
    assert reader.next_game(ann) is None  # its last table is over


def test_between_two_rounds_a_players_next_game_is_the_pending_round_of_their_tournament_with_its_time(
    app, settings, reader
):
    league, (ann,) = league_with(app, 1)
    plan = Plan(
        format="swiss", table_size=2, rounds=2, single_round=True, places=4, turn_clock=45, interval=3600
    )
    tournament_id = announce(app, league, [ann], plan, name="Two rounds")
    app.start_tournament(tournament_id, seed="between")
    games = app.start_round(tournament_id, 1)
    first = app.get_tournament(tournament_id).rounds[0]
    anns = next(t for t, entrants in enumerate(first.tables) if str(ann) in entrants)
    play_out(app, games[anns], seed=4)  # Ann's table only: the other one is still played
    app.record_table_result(tournament_id, games[anns])
    catch_up(settings)
    t = app.get_tournament(tournament_id)
    assert len(t.rounds) == 1 and t.rounds[0].finished_at is None and anns in t.rounds[0].results
    assert reader.next_game(ann) == NextGame(
        player_id=ann,
        tournament_id=tournament_id,
        tournament="Two rounds",
        round_no=2,
        table=None,
        seat=None,
        game_id=None,
        status="pending",
        due_at=t.started_at + timedelta(hours=1),
        turn_deadline=None,
        position=reader.position(),
    )

    other = 1 - anns
    play_out(app, games[other], seed=5)
    app.record_table_result(tournament_id, games[other])
    catch_up(settings)
    assert len(app.get_tournament(tournament_id).rounds) == 2
    found = reader.next_game(ann)
    assert found is not None and (found.round_no, found.status) == (2, "waiting") and found.table is not None


def test_a_game_outside_any_tournament_has_no_turn_deadline_even_when_a_person_is_to_move(
    app, settings, reader
):
    (ann,) = players(app, 1)
    game_id = app.create_game([ann, "bot:heuristic"], seed="no clock").game_id
    catch_up(settings)
    table = reader.table(game_id)
    assert table is not None and table.turn is not None and table.turn_deadline is None


def test_a_stored_tournament_is_restored_with_everything_the_aggregate_holds(app):
    league, members = league_with(app, 2)
    tournament_id = announce(app, league, members, Plan(format="swiss", table_size=3, rounds=2, places=5))
    app.start_tournament(tournament_id, seed="image")
    inline = Inline()
    conductor = Conductor(app, inline)
    conductor.conduct_tournament(tournament_id)
    inline.run(conductor, until=lambda: len(app.get_tournament(tournament_id).rounds) == 2)
    tournament = app.get_tournament(tournament_id)
    restored = restore(tournament.id, tournament.version, image_of(tournament))
    assert vars(restored) == vars(tournament)  # an attribute the image forgets would show here
    assert restored.standings() == tournament.standings()
