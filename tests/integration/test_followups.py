"""The API's follow-ups: which stored changes queue a task for the workers, read off a real
(filesystem) broker folder.

Celery's app is module-wide (``configure`` sets it for the whole process), so the story runs in a
process of its own, on an SQLite store and a broker folder in the test's directory.
"""

import json
import random
import subprocess
import sys
from pathlib import Path
from uuid import UUID

from service.application import MauMau, followups
from service.domain.adjudication import Resume
from service.domain.mao.commands import Say
from service.domain.roles import Actor
from service.domain.tournament_plan import Plan
from service.settings import Settings
from service.tasks import configure
from tests.e2e.queued import Queued
from tests.environment import without_settings
from tests.gameplay import next_command

ROOT = Path(__file__).resolve().parents[2]


def story(data_dir: str) -> None:
    """Each step's name and what it queued, as JSON lines on stdout."""
    settings = Settings(data_dir=Path(data_dir))
    configure(settings)
    queued = Queued(settings.broker_dir)
    app = MauMau(settings)
    followups.register(app)
    worker_app = MauMau(settings)  # a worker's: its steps queue what follows themselves

    def step(name: str, act) -> None:
        act()
        print(json.dumps([name, queued.take_ids()]), flush=True)

    ada, bob = app.register_player("Ada"), app.register_player("Bob")
    league = app.found_league("Tuesday club")
    for player in (ada, bob):
        app.admit_member(league, player)
    game_id = app.create_game([str(ada), "bot:random"], seed="s").game_id
    print(json.dumps(["ids", {"game": str(game_id)}]), flush=True)
    print(json.dumps(["a game with a bot seat is created", queued.take_ids()]), flush=True)
    game = app.get_game(game_id)
    move = next_command(game.state, random.Random(7), challenge_rate=0.0)

    def moved() -> None:
        app.execute(game_id, move, expected_version=game.version, key="first move")

    step("a move", moved)
    step("the same move sent again", moved)
    step("a dispute raised", lambda: app.raise_dispute(game_id, reason="look"))
    step("a ruling given", lambda: app.give_ruling(game_id, Resume(), by=Actor("referee", "Rita")))
    step("a game of two players, no league", lambda: app.create_game([str(ada), str(bob)]))
    step("a league game of two players", lambda: app.create_game([str(ada), str(bob)], league_id=league))
    clocked = app.found_league("Clocked club", turn_clock=60)
    for player in (ada, bob):
        app.admit_member(clocked, player)
    step("a clocked league's game", lambda: app.create_game([str(ada), str(bob)], league_id=clocked))
    real = []
    step(
        "a clocked league's game played in person",
        lambda: real.append(app.create_game([str(ada), str(bob)], league_id=clocked, in_person=True).game_id),
    )
    step(
        "a round entered at it",
        lambda: app.enter_round(real[0], winner=0, points=[0, 9], by=Actor("player", str(ada))),
    )
    tournament = app.create_tournament(league, "Cup", Plan(format="swiss", table_size=2, rounds=1))
    app.join_tournament(tournament, ada)
    app.join_tournament(tournament, bob)
    step("a tournament started", lambda: app.start_tournament(tournament))
    step("a worker's app creates a bot game", lambda: worker_app.create_game([str(ada), "bot:random"]))
    mao = app.found_league("Mao night", "mao", {"hand_size": 4})
    app.admit_member(mao, ada)
    led: list[UUID] = []
    bots = ["bot:random", "bot:random"]
    step(
        "a Mao match whose bot leads",
        lambda: led.append(app.create_mao_game(mao, [str(ada), *bots], "server", first_dealer=0).id),
    )
    print(json.dumps(["ids", {"mao": str(led[0])}]), flush=True)
    step("a Mao match Ada leads", lambda: app.create_mao_game(mao, [str(ada), *bots], "server", 2))
    turn = led[0]  # its bot moves in a worker, which queues nothing: its step goes on by itself
    step("a Mao bot's turn", lambda: worker_app.mao_bot_turn(turn, worker_app.get_mao_game(turn).version))
    talk = Say(0, "hello")  # table talk while a bot is to move: a penalty card, stored
    step("Ada's act at the Mao table", lambda: app.mao_do(turn, lambda *_: talk, Actor("player", str(ada))))
    app.close()
    worker_app.close()


def test_the_api_queues_the_bots_after_a_new_game_a_move_or_a_ruling_and_a_look_at_a_started_tournament(
    tmp_path,
):
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"from tests.integration.test_followups import story; story({str(tmp_path)!r})",
        ],
        cwd=ROOT,
        env=without_settings(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    ids = {name: value for kind, found in lines if kind == "ids" for name, value in found.items()}
    steps = dict((name, [tuple(pair) for pair in found]) for name, found in lines if name != "ids")
    game = ("game", ids["game"])
    assert steps["a game with a bot seat is created"] == [game]
    assert steps["a move"] == [game]
    # nothing was stored the second time: the bots were told the first
    assert steps["the same move sent again"] == []
    assert steps["a dispute raised"] == []  # the game is paused: nobody answers
    assert steps["a ruling given"] == [game]
    assert steps["a game of two players, no league"] == []  # nobody to answer, no clock
    # no tournament's table: no clock to set, no result to record, nobody to answer
    assert steps["a league game of two players"] == []
    [(kind, _)] = steps["a clocked league's game"]
    assert kind == "game"  # its clock is set
    # a real table: no bot, no clock, no tournament: nothing to answer or time
    assert steps["a clocked league's game played in person"] == []
    assert steps["a round entered at it"] == []
    [(kind, _)] = steps["a tournament started"]
    assert kind == "tournament"
    assert steps["a worker's app creates a bot game"] == []
    mao = ("game", ids["mao"])  # a Mao match's bots: the same task
    assert steps["a Mao match whose bot leads"] == [mao]
    assert steps["a Mao match Ada leads"] == []
    assert steps["a Mao bot's turn"] == []
    assert steps["Ada's act at the Mao table"] == [mao]  # a bot is still to move
