"""A tournament's tables played with real cards, through the workers' steps (``workers.conduct`` run
by ``workers.inline``) on the real store, and what the API queues for them (``followups``), read off a
real filesystem broker folder.

Eight people at two tables of four, both in person, matches to 30 points: nothing is ever queued
to move at such a table; the entry that ends a match is what records the table's result.
"""

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import UUID

from service.application import MauMau, followups
from service.domain.adjudication import Correct
from service.domain.roles import Actor
from service.domain.scoresheet import RoundEntry
from service.domain.tournament_plan import Plan
from service.settings import Settings
from service.tasks import configure
from tests.e2e.queued import Queued
from tests.environment import without_settings
from tests.integration.tables import players
from workers.conduct import Conductor
from workers.inline import Inline

ROOT = Path(__file__).resolve().parents[2]
ADMIN = Actor("admin", "test")
PLAN = {"format": "swiss", "table_size": 4, "rounds": 2, "target_score": 30, "in_person_tables": 2}


def in_person_cup(app: MauMau) -> tuple[UUID, list[UUID]]:
    league = app.found_league("Real tables club")
    people = players(app, 8)
    for player in people:
        app.admit_member(league, player)
    tournament = app.create_tournament(league, "Paper cup", Plan(**PLAN))  # type: ignore[arg-type]
    for player in people:
        app.join_tournament(tournament, player)
    return tournament, people


def scorer(app: MauMau, game_id: UUID) -> Actor:
    return Actor("player", app.get_game(game_id).seats[0].name)


def test_the_workers_move_nothing_at_an_in_person_table_and_record_it_once_its_last_round_is_entered(
    app: MauMau,
) -> None:
    inline = Inline()
    conductor = Conductor(app, inline)
    tournament_id, _ = in_person_cup(app)
    app.start_tournament(tournament_id)
    conductor.conduct_tournament(tournament_id)
    tournament = app.get_tournament(tournament_id)
    played = tournament.rounds[0]
    assert played.started and played.in_person == {0, 1}
    assert inline.queue == []  # no move to queue at a real table
    games = [played.games[0], played.games[1]]
    for game_id in games:
        game = app.get_game(game_id)
        assert game.in_person and game.turn_clock is None
    # a round that does not end the match: the table plays on, nothing is recorded
    app.enter_round(games[0], winner=0, points=[0, 5, 7, 12], by=scorer(app, games[0]))
    before = app.get_game(games[0]).version
    conductor.advance_game(games[0])
    assert app.get_game(games[0]).version == before
    assert app.get_tournament(tournament_id).rounds[0].results == {}
    # long after the round was due, the look for stalled tables passes over a table still entering
    later = datetime.now(UTC) + timedelta(hours=1)
    conductor.conduct_tournament(tournament_id, now=later)
    assert inline.queue == []
    # the entry that takes a seat to 30 ends the match; the step the API queues records it
    app.enter_round(games[0], winner=1, points=[30, 0, 3, 4], by=scorer(app, games[0]))
    assert app.get_game(games[0]).over
    conductor.advance_game(games[0])
    recorded = app.get_tournament(tournament_id).rounds[0]
    assert recorded.results[0].totals == (30, 5, 10, 16) and recorded.results[0].winners == (1,)
    assert recorded.finished_at is None  # the other table has no result yet
    # its task lost: the tick's look at the round records the finished table all the same
    app.enter_round(games[1], winner=None, points=[30, 2, 2, 2], by=scorer(app, games[1]))
    conductor.conduct_tournament(tournament_id, now=later + timedelta(hours=1))
    tournament = app.get_tournament(tournament_id)
    assert tournament.rounds[0].finished_at is not None and len(tournament.rounds) == 2
    # round 2 was due at once: its games are made, in person, with nothing queued for them
    conductor.conduct_tournament(tournament_id)
    assert app.get_tournament(tournament_id).rounds[1].in_person == {0, 1}
    assert inline.queue == []


def story(data_dir: str) -> None:
    """What the API queues for an in-person table, step by step, as JSON lines on stdout."""
    settings = Settings(data_dir=Path(data_dir))
    configure(settings)
    queued = Queued(settings.broker_dir)
    app = MauMau(settings)
    followups.register(app)
    tournament_id, _ = in_person_cup(app)
    app.start_tournament(tournament_id)
    queued.take_ids()  # the look at the started tournament

    def step(name: str, act) -> None:
        act()
        print(json.dumps([name, queued.take_ids()]), flush=True)

    games: list[UUID] = []
    step("the round's games made", lambda: games.extend(app.start_round(tournament_id, 1)))
    print(json.dumps(["ids", {"game": str(games[0])}]), flush=True)
    by = scorer(app, games[0])
    step("a round entered", lambda: app.enter_round(games[0], winner=0, points=[0, 5, 7, 12], by=by))
    other = Actor("player", app.get_game(games[0]).seats[1].name)
    step("a round confirmed", lambda: app.confirm_round(games[0], 1, by=other))
    step("the last round entered", lambda: app.enter_round(games[0], winner=1, points=[30, 0, 3, 4], by=by))
    print(json.dumps(["ids", {"corrected": str(games[1])}]), flush=True)
    keeper = scorer(app, games[1])
    player = Actor("player", app.get_game(games[1]).seats[2].name)
    step(
        "a round entered at the other table",
        lambda: app.enter_round(games[1], winner=1, points=[9, 0, 3, 4], by=keeper),
    )
    step(
        "that round disputed", lambda: app.raise_dispute(games[1], reason="seat 0 held three tens", by=player)
    )
    corrected = Correct(1, RoundEntry(winner=1, points=(30, 0, 3, 4)))
    step("a correction that ends the match", lambda: app.give_ruling(games[1], corrected, by=ADMIN))
    app.close()


def test_the_api_queues_the_recording_of_an_in_person_table_when_its_match_ends_and_nothing_else(
    tmp_path,
):
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"from tests.integration.test_in_person_tables import story; story({str(tmp_path)!r})",
        ],
        cwd=ROOT,
        env=without_settings(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    steps = {name: [tuple(pair) for pair in found] for name, found in lines if name != "ids"}
    ids = {key: value for name, found in lines if name == "ids" for key, value in found.items()}
    game, corrected = ids["game"], ids["corrected"]
    assert steps["the round's games made"] == []  # no bot to answer, no clock to set
    assert steps["a round entered"] == []  # the match goes on at the real table
    assert steps["a round confirmed"] == []
    assert steps["the last round entered"] == [("game", game)]  # the worker records the result
    assert steps["a round entered at the other table"] == []
    assert steps["that round disputed"] == []
    # the referee's correction takes seat 0 to 30: the same step records that table's result
    assert steps["a correction that ends the match"] == [("game", corrected)]
