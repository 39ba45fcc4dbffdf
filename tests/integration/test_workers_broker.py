"""Queuing the workers' tasks on a real Redis broker, as the API's follow-ups do after a move."""

import json
import subprocess
import sys
import uuid
from pathlib import Path

import redis

from tests.environment import without_settings

ROOT = Path(__file__).resolve().parents[2]


def queued_messages(broker_url: str, prefix: str) -> dict[str, list[dict]]:
    """The messages in each of the three queues, then every key of the test removed."""
    client = redis.Redis.from_url(broker_url)
    try:
        queues = ("celery", "maumau.schedule", "maumau.play")
        raw = {queue: client.lrange(f"{prefix}{queue}", 0, -1) for queue in queues}
        for key in client.scan_iter(f"{prefix}*"):
            client.delete(key)
    finally:
        client.close()
    return {queue: [json.loads(message) for message in messages] for queue, messages in raw.items()}


def test_after_a_move_the_game_is_queued_for_its_bots_after_the_think_delay(broker_url):
    """In a process of its own whose environment names no broker: ``configure`` points the app at one."""
    prefix = f"maumau-test-{uuid.uuid4().hex[:8]}:"
    game_id = uuid.uuid4()
    script = "\n".join(
        [
            "import sys, uuid",
            "from service.application import followups",
            "from service.domain.game import Game",
            "from service.domain.history import Cause",
            "from service.domain.seats import Seat",
            "from service.domain.roles import SYSTEM",
            "from service.domain.ruleset_options import ruleset",
            "from service.settings import Settings",
            "from service.tasks import configure",
            "configure(Settings(broker_url=sys.argv[1], broker_prefix=sys.argv[2], bot_think=1.5))",
            "seats = (Seat.parse(str(uuid.uuid4())), Seat.parse('bot:random'))",
            "cause = Cause(SYSTEM, 'CreateGame')",
            "game = Game.create(ruleset=ruleset('club'), seats=seats, seed='s', cause=cause,",
            "                   game_id=uuid.UUID(sys.argv[3]))",
            "followups.after_game_saved(game, Cause(SYSTEM, 'PlayCard'))",
            "followups.after_tournament_started(uuid.UUID(sys.argv[3]))",
        ]
    )
    env = without_settings()
    subprocess.run(
        [sys.executable, "-c", script, broker_url, prefix, str(game_id)],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=60,
    )
    queues = queued_messages(broker_url, prefix)
    # a bots' move in the default queue; a tournament step in the scheduler's own, where no
    # backlog of bots' moves holds it up
    [after_move] = queues["celery"]
    [tournament] = queues["maumau.schedule"]
    assert after_move["headers"]["task"] == "maumau.advance_game"
    assert after_move["headers"]["argsrepr"] == repr((str(game_id),))
    assert after_move["headers"]["eta"] is not None  # the bots wait the think delay
    assert tournament["headers"]["task"] == "maumau.conduct_tournament"
    assert tournament["headers"]["eta"] is None
    assert queues["maumau.play"] == []


def test_the_workers_own_next_steps_queue_apart_from_the_answers_the_api_queued(broker_url):
    """A bot's next move and a turn clock go to a queue of their own, where no backlog of answers to
    people's moves holds them up."""
    prefix = f"maumau-test-{uuid.uuid4().hex[:8]}:"
    game_id = uuid.uuid4()
    script = (
        "import sys; from service.settings import Settings; "
        "from service.tasks import configure; from workers.app import CeleryDispatch; "
        "configure(Settings(broker_url=sys.argv[1], broker_prefix=sys.argv[2])); "
        "CeleryDispatch().advance_game(sys.argv[3], countdown=0.5); "
        "CeleryDispatch().time_out_turn(sys.argv[3], 1, 7, countdown=30.0)"
    )
    subprocess.run(
        [sys.executable, "-c", script, broker_url, prefix, str(game_id)],
        cwd=ROOT,
        env=without_settings(),
        check=True,
        timeout=60,
    )
    queues = queued_messages(broker_url, prefix)
    assert queues["celery"] == queues["maumau.schedule"] == []
    queued = {message["headers"]["task"]: message["headers"] for message in queues["maumau.play"]}
    assert len(queues["maumau.play"]) == len(queued) == 2
    assert queued["maumau.advance_game"]["argsrepr"] == repr((str(game_id),))
    assert queued["maumau.time_out_turn"]["argsrepr"] == repr((str(game_id), 1, 7))


def test_a_process_configured_again_queues_on_the_broker_it_names_now(broker_url):
    """The tasks queued after each ``configure``, by a follow-up and by a worker's own step, go to the
    broker it names (here: the same Redis under two key prefixes), not to one named before, where no
    worker would take them; the first broker named again takes them again."""
    first, second = (f"maumau-test-{uuid.uuid4().hex[:8]}:" for _ in range(2))
    games = [str(uuid.uuid4()) for _ in range(3)]
    script = (
        "import sys; from service.settings import Settings; "
        "from service.tasks import ADVANCE, configure, send; from workers.app import CeleryDispatch; "
        "url, first, second, *games = sys.argv[1:]\n"
        "for prefix, game in zip((first, second, first), games):\n"
        "    configure(Settings(broker_url=url, broker_prefix=prefix))\n"
        "    assert send(ADVANCE, game, 0.0)\n"
        "    CeleryDispatch().advance_game(game)"
    )
    subprocess.run(
        [sys.executable, "-c", script, broker_url, first, second, *games],
        cwd=ROOT,
        env=without_settings(),
        check=True,
        timeout=60,
    )

    def queued_games(prefix: str) -> list[str]:
        queues = queued_messages(broker_url, prefix)
        return sorted(m["headers"]["argsrepr"] for q in ("celery", "maumau.play") for m in queues[q])

    assert queued_games(first) == sorted([repr((games[0],)), repr((games[2],))] * 2)
    assert queued_games(second) == [repr((games[1],))] * 2


def test_queuing_with_no_broker_answering_says_so_and_raises_nothing():
    script = (
        "import sys; from service.settings import Settings; "
        "from service.tasks import ADVANCE, configure, send; "
        "configure(Settings(broker_url='redis://127.0.0.1:1/0')); "
        "print(send(ADVANCE, sys.argv[1], 0.5))"
    )
    env = without_settings()
    done = subprocess.run(
        [sys.executable, "-c", script, str(uuid.uuid4())],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False"]
    assert "could not queue maumau.advance_game" in done.stderr
