"""The workers' steps (workers.conduct) run in this process through ``workers.inline``, on PostgreSQL
and on SQLite: tournaments started and played by bots, turn clocks, stalled tables, unknown ids.

The same steps run in real Celery workers in tests/e2e/test_tournament_run.py.
"""

import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import UUID, uuid4

import pytest

from service.application import MauMau
from service.domain.events import MissedCallChallenged
from service.domain.game import Game
from service.domain.roles import Actor
from service.domain.seats import Seat
from service.domain.tournament import Tournament, seat_spec
from service.domain.tournament_plan import Plan
from service.settings import Settings
from tests.environment import without_settings
from tests.integration.tables import REFEREE, deck_for, players
from workers.conduct import Conductor, bot_move
from workers.inline import Inline

ROOT = Path(__file__).resolve().parents[2]


def now() -> datetime:
    return datetime.now(UTC)


def announced(app: MauMau, members: int = 0, **plan: object) -> tuple[UUID, list[UUID]]:
    """A league with ``members`` members who all join a tournament of that plan: its id and theirs."""
    league = app.found_league("Thursday club")
    joined = players(app, members)
    for player in joined:
        app.admit_member(league, player)
    settings = {"format": "swiss", "table_size": 4, "rounds": 2, "single_round": True, "places": 8} | plan
    tournament_id = app.create_tournament(league, "Autumn cup", Plan(**settings))  # type: ignore[arg-type]
    for player in joined:
        app.join_tournament(tournament_id, player)
    return tournament_id, joined


def turns_timed_out(app: MauMau, game_id: UUID) -> list[int]:
    game = app.get_game(game_id)
    counts = [0] * len(game.seats)
    for event in app.game_events(game_id):
        if isinstance(event, Game.TurnTimedOut):
            counts[event.seat] += 1
    return counts


def assert_tournament_agrees_with_its_games(app: MauMau, tournament_id: UUID) -> Tournament:
    """Every table, result and placing of a finished tournament, recomputed from its games' events."""
    tournament = app.get_tournament(tournament_id)
    assert tournament.finished
    points: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    clock_turns: Counter[str] = Counter()
    for played in tournament.rounds:
        assert sorted([*(e for table in played.tables for e in table), *played.byes]) == sorted(
            tournament.order
        )
        assert len(played.games) == len(played.results) == len(played.tables)
        for table, entrants in enumerate(played.tables):
            game = app.get_game(played.games[table])
            assert game.over and game.league_id == tournament.league_id
            assert app.tournament_of(game) == tournament.id
            assert game.seats == tuple(Seat.parse(seat_spec(entrant)) for entrant in entrants)
            result = played.results[table]
            timed_out = turns_timed_out(app, game.id)
            counted = game.result()  # a seat that forfeited by clock: the table's worst, no win
            assert result.totals == counted.totals
            assert result.winners == tuple(sorted(counted.winners))
            assert result.timed_out == tuple(timed_out)
            assert result.forfeited == counted.forfeited
            for seat, entrant in enumerate(entrants):
                if seat in played.stand_ins.get(table, ()):
                    continue  # a bot sat in for one who had dropped out: its result is nobody's
                points[entrant] += counted.totals[seat]
                wins[entrant] += seat in counted.winners
                clock_turns[entrant] += timed_out[seat]
        for bye in played.byes:
            points[bye] += played.bye_points
            wins[bye] += 1
    standings = tournament.standings()
    # the no-shows too, who never sat at a table
    placed = [*tournament.order, *(e for e in tournament.dropped if e not in tournament.order)]
    assert {p.entrant: p.points for p in standings} == {e: points[e] for e in placed}
    assert {p.entrant: p.wins for p in standings} == {e: wins[e] for e in placed}
    assert {p.entrant: p.bot_turns for p in standings} == {e: clock_turns[e] for e in placed}
    assert tournament.ranking == tuple(p.entrant for p in standings)
    assert tournament.winners == (standings[0].entrant,)
    return tournament


@pytest.fixture
def inline() -> Inline:
    return Inline()


@pytest.fixture
def conductor(app: MauMau, inline: Inline) -> Conductor:
    return Conductor(app, inline)


def test_a_due_swiss_tournament_of_bots_is_started_paired_and_played_to_the_end_by_the_steps_alone(
    app, inline, conductor
):
    tournament_id, _ = announced(app, starts_at=now() - timedelta(seconds=1))
    conductor.tick([tournament_id])
    inline.run(conductor)
    tournament = assert_tournament_agrees_with_its_games(app, tournament_id)
    assert [len(played.tables) for played in tournament.rounds] == [2, 2]
    assert not inline.queue
    steps = Counter(name for name, _ in inline.done)
    assert steps["conduct_tournament"] == 1  # the next round started when the last table finished
    assert steps["time_out_turn"] == 0  # bots only: no clock was ever set


def test_a_tournament_whose_start_time_has_not_come_is_left_alone(app, inline, conductor):
    tournament_id, _ = announced(app, starts_at=now() + timedelta(hours=1))
    version = app.get_tournament(tournament_id).version
    conductor.conduct_tournament(tournament_id)
    assert app.get_tournament(tournament_id).version == version
    assert not inline.queue


def test_a_tournament_started_by_hand_has_its_first_round_created_at_the_next_look(app, inline, conductor):
    tournament_id, _ = announced(app)  # no start time: an admin starts it
    conductor.conduct_tournament(tournament_id)
    assert not app.get_tournament(tournament_id).started
    app.start_tournament(tournament_id, seed="by hand")
    conductor.conduct_tournament(tournament_id)
    first = app.get_tournament(tournament_id).rounds[0]
    assert first.started
    assert sorted(inline.queued("advance_game")) == sorted((game_id,) for game_id in first.games.values())
    conductor.conduct_tournament(tournament_id)  # again: the round is running, nothing new is queued
    assert len(inline.queue) == len(first.games)


def test_a_person_who_never_moves_is_played_by_the_clock_bot_and_the_events_say_so(app, inline, conductor):
    tournament_id, (ann,) = announced(
        app, members=1, places=4, rounds=1, turn_clock=30, starts_at=now() - timedelta(seconds=1)
    )
    conductor.conduct_tournament(tournament_id)
    inline.run(conductor)
    tournament = assert_tournament_agrees_with_its_games(app, tournament_id)
    (game_id,) = tournament.rounds[0].games.values()
    game = app.get_game(game_id)
    ann_seat = game.seat_of(str(ann))
    assert ann_seat is not None
    timed_out = turns_timed_out(app, game_id)
    assert timed_out[ann_seat] > 0
    assert sum(timed_out) == timed_out[ann_seat]  # the bots' seats were never timed out
    assert tournament.rounds[0].results[0].timed_out[ann_seat] == timed_out[ann_seat]
    assert {p.entrant: p.bot_turns for p in tournament.standings()}[str(ann)] == timed_out[ann_seat]
    # every clock was set for Ann's seat, at the version she was to move at, for the plan's 30 seconds
    clocks = [args for name, args in inline.done if name == "time_out_turn"]
    assert len(clocks) == timed_out[ann_seat]
    assert {(game_id, ann_seat)} == {(g, seat) for g, seat, _ in clocks}


def test_a_clock_that_runs_out_after_the_person_moved_changes_nothing(app, inline, conductor):
    tournament_id, (ann,) = announced(
        app, members=1, places=4, rounds=1, turn_clock=30, starts_at=now() - timedelta(seconds=1)
    )
    conductor.conduct_tournament(tournament_id)
    inline.run(conductor, until=lambda: bool(inline.queued("time_out_turn")))
    ((game_id, seat, version),) = inline.queued("time_out_turn")
    game = app.get_game(game_id)
    assert (game.version, game.seat_to_move, game.seats[seat]) == (version, seat, Seat("player", str(ann)))
    inline.queue.clear()

    app.execute(
        game_id, bot_move(game, seat, "random"), by=Actor("player", str(ann)), expected_version=version
    )
    moved = app.get_game(game_id).version
    conductor.time_out_turn(game_id, seat, version)  # the clock set before her move
    assert app.get_game(game_id).version == moved
    assert turns_timed_out(app, game_id)[seat] == 0
    assert not inline.queue


def test_a_clock_bot_plays_a_turn_whose_clock_ran_out_and_the_bots_answer(app, inline, conductor):
    tournament_id, _ = announced(
        app, members=1, places=4, rounds=1, turn_clock=30, starts_at=now() - timedelta(seconds=1)
    )
    conductor.conduct_tournament(tournament_id)
    inline.run(conductor, until=lambda: bool(inline.queued("time_out_turn")))
    ((game_id, seat, version),) = inline.queued("time_out_turn")
    inline.queue.clear()
    conductor.time_out_turn(game_id, seat, version)
    events = app.game_events(game_id, after=version)
    assert isinstance(events[0], Game.TurnTimedOut) and events[0].seat == seat
    assert inline.queued("advance_game") == [(game_id,)]
    conductor.time_out_turn(game_id, seat, version)  # delivered twice: the second finds a later version
    assert len(app.game_events(game_id, after=version)) == len(events)


def test_bots_answer_a_person_after_the_think_delay_one_move_at_a_time(app, inline):
    conductor = Conductor(app, inline, think=0.25)
    (ann,) = players(app, 1)
    game_id = app.create_game([ann, "bot:heuristic", "bot:heuristic"], seed="think").game_id
    for _ in range(200):
        game = app.get_game(game_id)
        if game.over:
            break
        if game.seats[game.seat_to_move].kind == "player":  # Ann moves at once
            app.execute(game_id, bot_move(game, game.seat_to_move, "random"), by=Actor("player", str(ann)))
            continue
        inline.queue.clear()
        conductor.advance_game(game_id)
        after = app.get_game(game_id)
        commands = [
            e for e in app.game_events(game_id, after=game.version) if getattr(e, "cause", None) is not None
        ]
        assert len(commands) == 1  # one bot move per step
        if not after.over and after.seats[after.seat_to_move].kind == "bot":
            assert [(due, name, args) for due, _, name, args in inline.queue] == [
                (0.25, "advance_game", (game_id,))
            ]
        else:
            assert not inline.queue  # not a tournament game: no clock for Ann
    assert app.get_game(game_id).over


def test_bots_play_a_game_outside_any_tournament_to_its_end_and_record_nothing(app, inline, conductor):
    game_id = app.create_game(["bot:heuristic", "bot:random", "bot:heuristic"], seed="alone").game_id
    conductor.advance_game(game_id)
    inline.run(conductor)
    game = app.get_game(game_id)
    assert game.over
    assert conductor.app.tournament_of(game) is None
    assert all(name == "advance_game" for name, _ in inline.done)


def test_a_step_that_runs_out_of_time_queues_the_rest_of_the_game(app, inline):
    conductor = Conductor(app, inline, budget=0.0)
    game_id = app.create_game(["bot:heuristic", "bot:heuristic"], seed="budget").game_id
    version = app.get_game(game_id).version
    conductor.advance_game(game_id)
    assert app.get_game(game_id).version > version  # one move at least, then the rest is queued
    assert inline.queued("advance_game") == [(game_id,)]


def test_a_stalled_table_is_queued_again_by_a_later_look(app, inline, conductor):
    tournament_id, _ = announced(app, starts_at=now() - timedelta(seconds=1))
    conductor.conduct_tournament(tournament_id)
    games = [args[0] for args in inline.queued("advance_game")]
    assert len(games) == 2
    inline.queue.clear()  # the queued steps are lost (say, a task failed for good)
    conductor.conduct_tournament(tournament_id, now=now() + timedelta(seconds=5))
    assert not inline.queue  # not stalled yet
    stalled = now() + timedelta(seconds=conductor.stalled_after + 1)
    conductor.conduct_tournament(tournament_id, now=stalled)
    assert sorted(inline.queued("advance_game")) == sorted((game_id,) for game_id in games)
    inline.queue.clear()  # lost again
    conductor.conduct_tournament(tournament_id, now=stalled + timedelta(seconds=1))
    assert not inline.queue  # the tables were looked at a second ago
    conductor.conduct_tournament(tournament_id, now=stalled + timedelta(seconds=conductor.stalled_after))
    assert sorted(inline.queued("advance_game")) == sorted((game_id,) for game_id in games)
    inline.run(conductor)
    assert_tournament_agrees_with_its_games(app, tournament_id)


def test_a_finished_game_whose_result_was_not_recorded_is_recorded_at_the_next_look(app, inline, conductor):
    tournament_id, _ = announced(app, starts_at=now() - timedelta(seconds=1))
    conductor.conduct_tournament(tournament_id)
    inline.queue.clear()
    first = app.get_tournament(tournament_id).rounds[0]
    for game_id in first.games.values():  # played out, but the steps that would record it are lost
        while not (game := app.get_game(game_id)).over:
            seat = game.seat_to_move
            if seat in game.forfeited:  # three turns timed out in a row: its bot plays, as the step would
                app.execute(game_id, bot_move(game, seat, game.bot_for(seat)), expected_version=game.version)
            else:
                app.time_out_turn(game_id, seat)
    conductor.conduct_tournament(tournament_id)
    assert len(app.get_tournament(tournament_id).rounds[0].results) == 0  # the round is young: no look yet
    later = now() + timedelta(seconds=conductor.stalled_after + 1)
    conductor.conduct_tournament(tournament_id, now=later)
    tournament = app.get_tournament(tournament_id)
    assert len(tournament.rounds[0].results) == 2
    assert tournament.rounds[1].started  # the next round was due at once, so it was started
    assert sorted(inline.queued("advance_game")) == sorted((g,) for g in tournament.rounds[1].games.values())


def test_steps_naming_what_does_not_exist_do_nothing(app, inline, conductor):
    league = app.found_league("Not a tournament")
    position = app.recorder.max_notification_id()
    conductor.advance_game(uuid4())
    conductor.time_out_turn(uuid4(), 0, 3)
    conductor.conduct_tournament(uuid4())
    conductor.conduct_tournament(league)  # an id, but not a tournament's
    conductor.advance_game(league)
    assert app.recorder.max_notification_id() == position
    assert not inline.queue


def missed_mau(app: MauMau) -> UUID:
    """Ann (seat 0) and a heuristic bot; Ann plays her first card leaving one and does not say "Mau"."""
    (ann,) = players(app, 1)
    deck = deck_for({0: ["9H", "KH"], 1: ["2C", "3C"]}, starter="5H", dealer=1, hand_size=2)
    rules = {"hand_size": 2, "target_score": 500}
    game_id = app.create_game(
        [ann, "bot:heuristic"], deck=deck, first_dealer=1, options=rules, by=REFEREE
    ).game_id
    app.play(game_id, 0, "9H", by=Actor("player", str(ann)))
    assert app.get_game(game_id).state.missed is not None
    return game_id


def test_a_heuristic_bot_at_the_table_challenges_a_persons_missed_call(app, inline, conductor):
    game_id = missed_mau(app)
    conductor.advance_game(game_id)
    events = app.game_events(game_id)
    challenged = [e.fact for e in events if isinstance(getattr(e, "fact", None), MissedCallChallenged)]
    assert [(c.seat, c.offender) for c in challenged] == [(1, 0)]
    game = app.get_game(game_id)
    assert game.state.missed is None
    assert game.state.hands[0].bit_count() == 1 + game.ruleset.call_penalty  # KH and the penalty


def test_a_missed_call_challenged_first_by_the_person_is_not_challenged_again(app, inline, conductor):
    (ann,) = players(app, 1)
    (bob,) = players(app, 1)
    deck = deck_for(
        {0: ["9H", "KH"], 1: ["2C", "3C"], 2: ["4D", "6D"]}, starter="5H", seats=3, dealer=2, hand_size=2
    )
    game_id = app.create_game(
        [ann, bob, "bot:heuristic"],
        deck=deck,
        first_dealer=2,
        options={"hand_size": 2, "target_score": 500},
        by=REFEREE,
    ).game_id
    app.play(game_id, 0, "9H", by=Actor("player", str(ann)))
    app.challenge(game_id, 1, by=Actor("player", str(bob)))
    conductor.advance_game(game_id)
    challenged = [
        e.fact for e in app.game_events(game_id) if isinstance(getattr(e, "fact", None), MissedCallChallenged)
    ]
    assert [c.seat for c in challenged] == [1]  # Bob's; the bot found nothing left to challenge
    assert app.get_game(game_id).seat_to_move == 1  # and Bob, a person, is to move: the bot waits


def test_a_start_time_with_too_few_players_cancels_the_tournament_once_and_the_next_looks_do_nothing(
    app, inline, conductor
):
    tournament_id, _ = announced(app, members=1, starts_at=now() - timedelta(seconds=1), places=None)
    conductor.conduct_tournament(tournament_id)
    tournament = app.get_tournament(tournament_id)
    assert tournament.cancelled.startswith("too few players at the start time") and not tournament.started
    version = tournament.version
    for _ in range(3):
        conductor.conduct_tournament(tournament_id)
    assert app.get_tournament(tournament_id).version == version
    cancelled = [e for e in app.events.get(tournament_id) if isinstance(e, Tournament.Cancelled)]
    assert len(cancelled) == 1 and not inline.queue


def test_a_look_that_loaded_the_tournament_before_another_worker_cancelled_it_does_nothing_and_warns_not(
    app, inline, conductor, caplog
):
    # two looks at once (a tick's and one queued before it): the other cancels between this one's
    # load and its start
    tournament_id, _ = announced(app, members=1, starts_at=now() - timedelta(seconds=1), places=None)
    loaded = app.get_tournament(tournament_id)
    conductor.conduct_tournament(tournament_id)
    version = app.get_tournament(tournament_id).version
    conductor._tournament = lambda _: loaded  # type: ignore[method-assign]
    caplog.clear()  # the first look's warning: the cancellation
    with caplog.at_level("WARNING", logger="workers.conduct"):
        conductor.conduct_tournament(tournament_id)
    assert app.get_tournament(tournament_id).version == version
    assert caplog.records == [] and not inline.queue


def test_a_player_who_drops_out_mid_game_has_their_turns_played_by_the_clock_bot_and_the_round_ends(
    app, inline, conductor
):
    """No turn clock: without the drop the table would wait for Ann for ever."""
    tournament_id, (ann,) = announced(
        app, members=1, starts_at=now() - timedelta(seconds=1), table_size=2, places=4
    )
    conductor.tick([tournament_id])
    inline.run(conductor)  # the bots play until Ann is to move, and wait there
    tournament = app.get_tournament(tournament_id)
    (table,) = [t for t, entrants in enumerate(tournament.rounds[0].tables) if str(ann) in entrants]
    game_id = tournament.rounds[0].games[table]
    assert not app.get_game(game_id).over and len(tournament.rounds) == 1
    app.drop_out_of_tournament(tournament_id, ann)
    conductor.conduct_tournament(tournament_id, now=now() + timedelta(minutes=5))  # her table idles
    inline.run(conductor)
    tournament = app.get_tournament(tournament_id)
    assert tournament.finished and len(tournament.rounds) == 2
    seat = app.get_game(game_id).seat_of(str(ann))
    assert seat is not None and turns_timed_out(app, game_id)[seat] > 0
    assert all(str(ann) not in entrants for entrants in tournament.rounds[1].tables)
    assert tournament.ranking[-1] == str(ann)


# ----------------------------------------------------------------------
# a real embedded worker (threads in another process, on the filesystem broker): what `maumau serve` runs

BACKLOG = 3000  # answers to people's moves queued before the tournament's first round

BEHIND_A_BACKLOG = """
import sys, time
from pathlib import Path
from service.application import MauMau
from service.projections.runner import start_projections
from service.settings import Settings
from service.tasks import ADVANCE, configure, send
import workers.app  # registers the tasks
from workers.embedded import start_embedded

data_dir, tournament_id, game_id, backlog = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
settings = Settings(data_dir=data_dir, bot_think=0.0, tick=0.5)
configure(settings)
for _ in range(backlog):
    send(ADVANCE, game_id, 0.0)  # what the API queues after a person's move
projections = start_projections(settings)  # as the HTTP app beside them does: the tick reads them
running = start_embedded(settings)
app = MauMau(settings)
deadline = time.monotonic() + 120
while not app.get_tournament(tournament_id).finished and time.monotonic() < deadline:
    time.sleep(0.05)
waiting = len(list((data_dir / "broker").glob("*.celery.msg")))
running.stop()
projections.stop()
print(app.get_tournament(tournament_id).finished, waiting)
"""


def test_an_embedded_worker_plays_a_tournament_through_while_answers_to_peoples_moves_queued_before_it_wait(
    tmp_path,
):
    """The bots' own next steps have a queue of their own: a backlog of what the API queued (a bots'
    answer to each move of busy tables) holds up neither a round's start nor a bot's next move."""
    settings = Settings(data_dir=tmp_path / "embedded")
    app = MauMau(settings)
    try:
        league = app.found_league("Busy club")
        people = players(app, 2)
        for player in people:
            app.admit_member(league, player)
        busy = app.create_game(people, league_id=league, by=REFEREE).game_id  # its answers do nothing
        plan = Plan(format="swiss", table_size=4, rounds=2, single_round=True, places=8, starts_at=now())
        tournament_id = app.create_tournament(league, "Busy cup", plan)
        arguments = [str(settings.data_dir), str(tournament_id), str(busy), str(BACKLOG)]
        done = subprocess.run(
            [sys.executable, "-c", BEHIND_A_BACKLOG, *arguments],
            cwd=ROOT,
            env=without_settings(),
            capture_output=True,
            text=True,
            timeout=240,
        )
        assert done.returncode == 0, done.stderr
        finished, waiting = done.stdout.split()
        assert finished == "True"
        assert int(waiting) > 0  # the tournament did not wait for the backlog queued before it
        assert_tournament_agrees_with_its_games(app, tournament_id)
    finally:
        app.close()
