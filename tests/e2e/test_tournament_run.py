"""Tournaments run by a real Celery worker and a real beat (``python -m workers.cli worker|beat``, as
``maumau worker|beat``) against a real Redis broker and PostgreSQL, nobody else touching them.

Each test has a PostgreSQL schema and a Redis key prefix of its own. Bots think
for no time (or very little) and the beat ticks every half second, so a whole
tournament takes seconds. The Redis visibility timeout is two seconds, so a task
whose worker was killed is delivered again soon.
"""

import os
import random
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID

import msgspec
import pytest
import redis
from eventsourcing.utils import get_topic

from service import tasks
from service.application import MauMau
from service.domain.game import Game
from service.domain.seats import Seat
from service.domain.tournament import Tournament
from service.domain.tournament_plan import Plan
from service.settings import Settings
from tests.e2e.club import ADMIN_TOKEN
from tests.environment import without_settings
from tests.gameplay import next_command
from tests.integration.tables import players
from tests.integration.test_workers import assert_tournament_agrees_with_its_games, turns_timed_out
from tests.schemas import own_schema
from workers.app import TICK

ROOT = Path(__file__).resolve().parents[2]
SWISS_OF_16 = Plan(format="swiss", table_size=4, rounds=3, single_round=True, places=16)
WAIT = 150.0  # seconds a tournament may take before the test gives up (it takes a few)


class Stack:
    """The worker, the beat (and, once the tick reads a read model, the projection runner) as processes."""

    def __init__(
        self, settings: Settings, broker_url: str | None, prefix: str, logs: Path, think: float
    ) -> None:
        self.settings = settings
        self.broker_url = broker_url
        self.prefix = prefix
        self.logs = logs
        self.env = {
            **os.environ,
            "MAUMAU_DATABASE_URL": settings.database_url or "",
            "MAUMAU_DATABASE_SCHEMA": settings.database_schema,
            "MAUMAU_DATA_DIR": str(settings.data_dir),
            "MAUMAU_POOL_SIZE": "2",
            "MAUMAU_BROKER_URL": broker_url or "",  # none: the embedded filesystem broker
            "MAUMAU_BROKER_PREFIX": prefix,
            "MAUMAU_BROKER_VISIBILITY_TIMEOUT": "2",
            "MAUMAU_BOT_THINK": str(think),
            "MAUMAU_TICK": "0.5",
            "MAUMAU_PROJECTION_POLL_MS": "10",
        }
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.started = 0

    def start(self, name: str, *argv: str) -> subprocess.Popen[bytes]:
        self.started += 1
        log = (self.logs / f"{name}-{self.started}.log").open("wb")
        process = subprocess.Popen(
            [sys.executable, "-m", *argv],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: a kill takes the pool processes with it
        )
        self.processes[name] = process
        return process

    def start_worker(self) -> subprocess.Popen[bytes]:
        return self.start(
            "worker",
            *("workers.cli", "worker", "--concurrency", "2", "--loglevel", "INFO"),
            *("--without-mingle", "--without-gossip"),  # celery's own options, passed through: starts sooner
        )

    def kill_worker(self) -> None:
        worker = self.processes.pop("worker")
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=30)

    def kill_worker_holding_tasks(self, timeout: float = 30) -> None:
        """Kill the worker at a moment it holds delivered tasks: frozen first (a frozen worker
        acknowledges nothing), then killed, or thawed and frozen again a moment later when it
        happened to hold none (between one bot's move and the next)."""
        worker = self.processes["worker"]
        deadline = time.monotonic() + timeout
        while True:
            os.killpg(worker.pid, signal.SIGSTOP)
            if self.unacknowledged() > 0 or time.monotonic() > deadline:
                break
            os.killpg(worker.pid, signal.SIGCONT)
            time.sleep(0.01)
        self.kill_worker()

    def unacknowledged(self) -> int:
        """Tasks delivered to a worker and not acknowledged yet (kombu's Redis transport keeps them)."""
        assert self.broker_url is not None
        client = redis.Redis.from_url(self.broker_url)
        try:
            return int(client.hlen(f"{self.prefix}unacked"))
        finally:
            client.close()

    def stop(self) -> None:
        # the test has asserted what it wanted: no shutdown to wait for (a warm one takes seconds)
        for process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
        self.processes.clear()
        if self.broker_url is None:
            return
        client = redis.Redis.from_url(self.broker_url)
        try:
            keys = list(client.scan_iter(f"{self.prefix}*"))
            if keys:
                client.delete(*keys)
        finally:
            client.close()

    def log_tails(self) -> str:
        return "\n".join(
            f"--- {path.name}\n" + path.read_text(errors="replace")[-3000:]
            for path in sorted(self.logs.iterdir())
        )

    def wait_for(self, what: str, done: Callable[[], bool], timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            for name, process in self.processes.items():
                if process.poll() is not None:
                    pytest.fail(f"the {name} exited with {process.returncode}\n{self.log_tails()}")
            if time.monotonic() > deadline:
                pytest.fail(f"no {what} after {timeout:.0f} s\n{self.log_tails()}")
            time.sleep(0.02)


@contextmanager
def worker_stack(
    database_url: str, broker_url: str, folder: Path, name: str, env: dict[str, str]
) -> Iterator[tuple[Settings, Stack]]:
    """A schema of its own and the settings an in-process API shares with a real worker and beat
    (``tasks`` configured by them, so what the API queues goes to that worker); the worker and beat
    are started by the caller once its API runs. Everything is undone after."""
    prefix = f"maumau-{name}-{uuid.uuid4().hex[:8]}:"
    with own_schema(database_url, f"maumau_{name}") as schema:
        settings = Settings(
            database_url=database_url,
            database_schema=schema,
            data_dir=folder / "var",
            pool_size=3,
            admin_token=ADMIN_TOKEN,
            broker_url=broker_url,
            broker_prefix=prefix,
            bot_think=0.0,
            projection_poll_ms=10,
        )
        before = tasks.settings
        tasks.configure(settings)
        logs = folder / "logs"
        logs.mkdir()
        stack = Stack(settings, broker_url, prefix, logs, think=0.0)
        stack.env.update(env)
        try:
            yield settings, stack
        finally:
            stack.stop()
            tasks.configure(before)


@pytest.fixture
def app(settings: Settings) -> Iterator[MauMau]:
    application = MauMau(settings)
    yield application
    application.close()


@pytest.fixture
def make_stack(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[..., Stack]]:
    made: list[Stack] = []

    def make(
        think: float = 0.0, embedded: Settings | None = None, env: dict[str, str] | None = None
    ) -> Stack:
        """The processes on the test's PostgreSQL and Redis, or on ``embedded`` settings (no servers);
        ``env``: more settings for them."""
        logs = tmp_path / "logs"
        logs.mkdir(exist_ok=True)
        settings = embedded or request.getfixturevalue("settings")
        broker_url = None if embedded else request.getfixturevalue("broker_url")
        stack = Stack(settings, broker_url, f"maumau-test-{uuid.uuid4().hex[:8]}:", logs, think)
        stack.env.update(env or {})
        made.append(stack)
        stack.start("projections", "service.projections.cli", "run")  # the tick reads the open tournaments
        stack.start_worker()
        stack.start("beat", "workers.cli", "beat", "--loglevel", "INFO")
        return stack

    yield make
    for stack in made:
        stack.stop()


def due_tournament(app: MauMau, plan: Plan, members: int = 0) -> tuple[UUID, list[UUID]]:
    """A tournament of a new league whose start time is now, joined by ``members`` new members."""
    league = app.found_league("Friday club")
    joined = players(app, members)
    for player in joined:
        app.admit_member(league, player)
    tournament_id = app.create_tournament(
        league, "Winter cup", msgspec.structs.replace(plan, starts_at=datetime.now(UTC))
    )
    for player in joined:
        app.join_tournament(tournament_id, player)
    return tournament_id, joined


def finished(app: MauMau, tournament_id: UUID) -> Callable[[], bool]:
    return lambda: app.get_tournament(tournament_id).finished


def games_created(app: MauMau) -> list[UUID]:
    """Every game created in this test's store, from the notification log."""
    topic = get_topic(Game.Created)
    found = app.recorder.select_notifications(start=None, limit=100_000, topics=(topic,))
    return [notification.originator_id for notification in found]


def assert_played_once(app: MauMau, tournament_id: UUID) -> Tournament:
    """Every round paired and started once, one game per table, no game made but the tables'."""
    tournament = app.get_tournament(tournament_id)
    events = list(app.events.get(tournament_id))
    paired = Counter(e.round_no for e in events if isinstance(e, Tournament.RoundPaired))
    attached = Counter((e.round_no, e.table) for e in events if isinstance(e, Tournament.TableGameCreated))
    recorded = Counter((e.round_no, e.table) for e in events if isinstance(e, Tournament.TableFinished))
    tables = {(played.round_no, t) for played in tournament.rounds for t in range(len(played.tables))}
    assert paired == dict.fromkeys(range(1, len(tournament.rounds) + 1), 1)
    assert attached == dict.fromkeys(tables, 1) == recorded
    table_games = [game for played in tournament.rounds for game in played.games.values()]
    assert sorted(games_created(app)) == sorted(table_games)
    return tournament


def test_a_worker_and_a_beat_run_a_swiss_tournament_of_sixteen_bots_to_the_end(app, make_stack):
    tournament_id, _ = due_tournament(app, SWISS_OF_16)
    stack = make_stack()
    stack.wait_for("finished tournament", finished(app, tournament_id))
    tournament = assert_tournament_agrees_with_its_games(app, tournament_id)
    assert [len(played.tables) for played in tournament.rounds] == [4, 4, 4]
    assert all(len(table) == 4 for played in tournament.rounds for table in played.tables)
    assert all(entrant.startswith("bot:heuristic#") for entrant in tournament.order)
    assert_played_once(app, tournament_id)


def test_a_tournament_finishes_when_its_worker_is_killed_mid_round_and_another_starts(app, make_stack):
    tournament_id, _ = due_tournament(app, SWISS_OF_16)
    stack = make_stack(think=0.02)  # one task per bot move: there is always work in flight

    def second_round_under_way() -> bool:
        rounds = app.get_tournament(tournament_id).rounds
        return len(rounds) >= 2 and rounds[1].started

    stack.wait_for("second round", second_round_under_way)
    time.sleep(0.1)  # into the round: its bots' moves are being played, one task each
    stack.kill_worker_holding_tasks()
    assert not app.get_tournament(tournament_id).finished
    assert stack.unacknowledged() > 0  # the dead worker held tasks: only a redelivery finishes them
    stack.start_worker()
    stack.wait_for("finished tournament", finished(app, tournament_id))
    assert_tournament_agrees_with_its_games(app, tournament_id)
    tournament = assert_played_once(app, tournament_id)
    assert len(tournament.rounds) == 3


def test_a_person_who_never_moves_is_played_by_the_clock_bot_and_the_events_say_so(app, make_stack):
    plan = Plan(format="swiss", table_size=4, rounds=1, single_round=True, places=4, turn_clock=1)
    tournament_id, (ann,) = due_tournament(app, plan, members=1)
    stack = make_stack()
    stack.wait_for("finished tournament", finished(app, tournament_id))
    tournament = assert_tournament_agrees_with_its_games(app, tournament_id)
    (game_id,) = tournament.rounds[0].games.values()
    game = app.get_game(game_id)
    seat = game.seat_of(str(ann))
    assert seat is not None
    timed_out = turns_timed_out(app, game_id)
    assert timed_out[seat] > 0 and sum(timed_out) == timed_out[seat]
    events = app.game_events(game_id)
    # nobody moved for Ann: every command at the table came from the service (bots and her clock)
    causes = [event.cause for event in events if getattr(event, "cause", None) is not None]
    assert {cause.actor.role for cause in causes} == {"system"}
    assert Counter(cause.command for cause in causes)["TimeOutTurn"] == timed_out[seat]
    placing = next(p for p in tournament.standings() if p.entrant == str(ann))
    assert placing.bot_turns == timed_out[seat]


def test_a_bot_whose_answer_to_a_persons_move_was_never_queued_is_moved_by_the_tick(app, make_stack):
    """The person's moves are stored through the application, which queues nothing (as when the API
    process died between storing a move and queueing the bot's answer): only the tick's look for
    stalled games makes the bot move."""
    (ann,) = players(app, 1)
    game_id = app.create_game([ann, "bot:heuristic"], seed=5).game_id
    stack = make_stack(env={"MAUMAU_STALLED_AFTER": "1"})
    rng = random.Random(5)
    answered = 0
    while answered < 3:
        game = app.get_game(game_id)
        if game.over:
            break
        if game.seats[game.seat_to_move].kind != "bot":
            app.execute(game_id, next_command(game.state, rng, challenge_rate=0))
            continue  # until the bot is to move, and nothing has told it

        def bot_answered(after: int = game.version) -> bool:
            game = app.get_game(game_id)
            return game.version > after and (game.over or game.seats[game.seat_to_move].kind != "bot")

        stack.wait_for("bot's move", bot_answered, timeout=60)
        answered += 1
    assert answered == 3 or app.get_game(game_id).over
    worker_log = "".join(path.read_text(errors="replace") for path in stack.logs.glob("worker-*.log"))
    assert f"game {game_id} stalled with a bot to move: queued again" in worker_log


def test_the_embedded_default_runs_a_tournament_with_no_database_or_broker_server(make_stack, tmp_path):
    """An SQLite file and kombu's filesystem broker, both in the data dir: what `maumau serve` uses."""
    settings = Settings(data_dir=tmp_path / "embedded")
    app = MauMau(settings)
    try:
        plan = Plan(format="swiss", table_size=4, rounds=2, single_round=True, places=8)
        tournament_id, _ = due_tournament(app, plan)
        stack = make_stack(embedded=settings)
        stack.wait_for("finished tournament", finished(app, tournament_id))
        assert_tournament_agrees_with_its_games(app, tournament_id)
        assert_played_once(app, tournament_id)
        assert (tmp_path / "embedded" / "broker").is_dir()
    finally:
        app.close()


EMBEDDED = """
import sys, time
from pathlib import Path
from service.application import MauMau
from service.projections.runner import start_projections
from service.settings import Settings
from workers.embedded import start_embedded

settings = Settings(data_dir=Path(sys.argv[1]), bot_think=0.0, tick=0.5)
projections = start_projections(settings)  # as the HTTP app beside them does: the tick reads them
running = start_embedded(settings)
app = MauMau(settings)
deadline = time.monotonic() + 120
while not app.get_tournament(sys.argv[2]).finished and time.monotonic() < deadline:
    time.sleep(0.05)
running.stop()
projections.stop()
print("stopped" if not running.running else "still running")
"""


def test_the_embedded_workers_run_a_tournament_as_threads_of_another_process(tmp_path):
    """What `maumau serve` runs in its own process: a worker with a pool of threads and the beat."""
    settings = Settings(data_dir=tmp_path / "embedded")
    app = MauMau(settings)
    try:
        plan = Plan(format="swiss", table_size=4, rounds=2, single_round=True, places=8)
        tournament_id, _ = due_tournament(app, plan)
        env = without_settings()
        done = subprocess.run(
            [sys.executable, "-c", EMBEDDED, str(settings.data_dir), str(tournament_id)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["stopped"]
        assert_tournament_agrees_with_its_games(app, tournament_id)
        assert_played_once(app, tournament_id)
    finally:
        app.close()


def ticks_done(stack: Stack) -> int:
    """The beat's ticks the worker has run, from its log."""
    return sum(
        path.read_text(errors="replace").count(f"Task {TICK}[") for path in stack.logs.glob("worker-*.log")
    )


def test_a_start_time_that_comes_with_too_few_players_cancels_the_tournament_once_with_the_reason(
    app, make_stack
):
    plan = Plan(format="swiss", table_size=2, rounds=1, single_round=True)  # no places for bots to fill
    tournament_id, _ = due_tournament(app, plan, members=1)
    stack = make_stack()
    stack.wait_for("cancellation", lambda: bool(app.get_tournament(tournament_id).cancelled), timeout=60)
    seen = ticks_done(stack)
    stack.wait_for("four more ticks", lambda: ticks_done(stack) >= seen + 4, timeout=60)
    events = list(app.events.get(tournament_id))
    cancelled = [event for event in events if isinstance(event, Tournament.Cancelled)]
    assert len(cancelled) == 1 and cancelled[0].reason.startswith("too few players at the start time")
    assert events[-1] is cancelled[0]  # nothing was recorded after it
    assert app.get_tournament(tournament_id).cancelled == cancelled[0].reason
    worker_log = "".join(path.read_text(errors="replace") for path in stack.logs.glob("worker-*.log"))
    assert worker_log.count(f"tournament {tournament_id} cancelled at its start time") == 1
    assert f"tournament {tournament_id} cannot start" not in worker_log  # the old warning, every tick


def test_at_the_start_time_an_entrant_who_did_not_check_in_is_dropped_and_a_bot_takes_the_place(
    app, make_stack
):
    plan = Plan(
        format="swiss", table_size=2, rounds=1, single_round=True, places=2, turn_clock=1, check_in_minutes=10
    )
    tournament_id, (ann, bob) = due_tournament(app, plan, members=2)
    app.check_in_tournament(tournament_id, ann)  # the window opened ten minutes before the start: now
    stack = make_stack()
    stack.wait_for("finished tournament", finished(app, tournament_id))
    tournament = assert_tournament_agrees_with_its_games(app, tournament_id)
    dropped = [event for event in app.events.get(tournament_id) if isinstance(event, Tournament.Dropped)]
    assert [(event.entrant, event.reason) for event in dropped] == [(str(bob), "no_show")]
    assert sorted(tournament.order) == sorted([str(ann), "bot:heuristic#1"])
    (game_id,) = tournament.rounds[0].games.values()
    seats = app.get_game(game_id).seats
    assert Seat("player", str(bob)) not in seats and Seat("bot", "heuristic") in seats
    last = tournament.standings()[-1]  # listed, after everyone who played: dropped, no result
    assert (last.entrant, last.dropped, last.played) == (str(bob), True, False)
    assert tournament.ranking[-1] == str(bob) and tournament.winners != (str(bob),)


@pytest.mark.parametrize(
    ("ruleset", "fill_bot"),
    [
        ("haft-khabis", "heuristic"),  # a player chosen to draw, a card covered by its player
        ("pesten", "random"),  # jokers, cards that play again, no effect card ends a hand
    ],
)
def test_a_bracket_round_of_another_preset_is_played_to_its_end_by_bots(app, make_stack, ruleset, fill_bot):
    league = app.found_league(f"{ruleset} club", ruleset)
    plan = Plan(
        format="swiss", table_size=4, rounds=1, places=8, fill_bot=fill_bot, starts_at=datetime.now(UTC)
    )
    tournament_id = app.create_tournament(league, "Preset cup", plan)
    stack = make_stack()
    stack.wait_for("finished tournament", finished(app, tournament_id))
    tournament = assert_tournament_agrees_with_its_games(app, tournament_id)
    assert [len(table) for table in tournament.rounds[0].tables] == [4, 4]
    assert all(entrant.startswith(f"bot:{fill_bot}#") for entrant in tournament.order)
    for game_id in tournament.rounds[0].games.values():
        game = app.get_game(game_id)
        assert game.ruleset.name == ruleset
