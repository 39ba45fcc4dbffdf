"""The distributed mode as separate real processes on this machine, as deploy/ runs it: ``maumau db init``
once, then two API processes (``maumau serve`` with ``MAUMAU_RUN_PROJECTIONS=no``), two Celery workers,
one beat and the projection runner, on PostgreSQL (a schema of the test's own) and Redis (a key prefix
of its own). A small all-bot tournament is announced through one API process, started by the beat's
tick and played by the workers to the end, and both API processes answer the same bracket, standings
and tables.

Bots think for no time and the beat ticks five times a second, so the tournament takes seconds; the
processes' start takes a few more. Every process is its own process group, ended at the end.
"""

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from service.settings import Settings
from tests.e2e.club import bearer
from tests.e2e.test_embedded import free_port
from tests.environment import without_settings

MAUMAU = str(Path(sys.executable).parent / "maumau")
ADMIN_TOKEN = "distributed-admin-" + uuid.uuid4().hex
WAIT = 45.0  # seconds for the processes to be ready, and for the tournament to finish


class Processes:
    """The service's processes, each in a process group of its own, its output in a log file."""

    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.env = env
        self.logs = logs
        self.running: dict[str, subprocess.Popen[bytes]] = {}
        self.argv: dict[str, tuple[str, ...]] = {}
        self.restarted: list[str] = []  # the names ``restart_exited`` started again, in order

    def run(self, *argv: str) -> str:
        done = subprocess.run([MAUMAU, *argv], env=self.env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def start(self, name: str, *argv: str) -> None:
        self.argv[name] = argv
        with (self.logs / f"{name}.log").open("ab") as log:  # a restart goes on writing the same log
            self.running[name] = subprocess.Popen(
                [MAUMAU, *argv],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: a worker's pool goes with it
            )

    def wait_for(self, what: str, done: Callable[[], Any]) -> Any:
        deadline = time.monotonic() + WAIT
        while not (found := done()):
            for name, process in self.running.items():
                if process.poll() is not None:
                    pytest.fail(f"{name} exited with {process.returncode}\n{self.log_tails()}")
            if time.monotonic() > deadline:
                pytest.fail(f"no {what} after {WAIT:.0f} s\n{self.log_tails()}")
            time.sleep(0.1)
        return found

    def kill(self, name: str) -> None:
        """``kill -9`` of the process and its group (a worker's pool with it), as a crash or the OOM
        killer ends it; ``start_again`` brings it back, as its supervisor does."""
        process = self.running[name]
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def start_again(self, name: str) -> None:
        self.start(name, *self.argv[name])

    def restart_exited(self) -> list[str]:
        """Every process that has exited started again, as deploy/'s ``restart: unless-stopped`` does;
        their names."""
        exited = [name for name, process in self.running.items() if process.poll() is not None]
        for name in exited:
            self.start_again(name)
        self.restarted += exited
        return exited

    @contextlib.contextmanager
    def supervised(self, every: float = 0.5) -> Iterator[None]:
        """``restart_exited`` every ``every`` seconds until the end of the block, as deploy/'s restart
        policy watches the processes for as long as they run, not at a few moments the test chose."""
        stop = threading.Event()

        def watch() -> None:
            while not stop.wait(every):
                self.restart_exited()

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            yield
        finally:
            stop.set()
            watcher.join(timeout=10)

    def stop(self) -> None:
        for process in self.running.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.running.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        for process in self.running.values():  # a worker's pool processes, should any outlive their parent
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)

    def log_tails(self) -> str:
        restarted = f"--- restarted: {', '.join(self.restarted) or 'none'}\n"
        return restarted + "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}"
            for path in sorted(self.logs.iterdir())
        )


def distributed_env(settings: Settings, broker_url: str, prefix: str, **more: str) -> dict[str, str]:
    """The settings every process of the distributed mode gets, as deploy/ gives them, and ``more``
    (which may change them)."""
    settings_given = {
        "MAUMAU_DATABASE_URL": settings.database_url or "",
        "MAUMAU_DATABASE_SCHEMA": settings.database_schema,
        "MAUMAU_DATA_DIR": str(settings.data_dir),
        "MAUMAU_CREATE_TABLES": "no",
        "MAUMAU_RUN_PROJECTIONS": "no",
        "MAUMAU_POOL_SIZE": "2",
        "MAUMAU_BROKER_URL": broker_url,
        "MAUMAU_BROKER_PREFIX": prefix,
        "MAUMAU_ADMIN_TOKEN": ADMIN_TOKEN,
        "MAUMAU_BOT_THINK": "0",
        "MAUMAU_TICK": "0.2",
        "MAUMAU_PROJECTION_POLL_MS": "10",
        "MAUMAU_LOG_FORMAT": "json",
    }
    return without_settings(**(settings_given | more))


def start_service(processes: Processes, apis: int = 2, workers: int = 2) -> list[str]:
    """``maumau db init``, then the API processes, the workers, the beat and the projection runner,
    until every API process is ready; the API processes' base URLs."""
    assert "tables ready" in processes.run("db", "init")
    bases = [f"http://127.0.0.1:{free_port()}" for _ in range(apis)]
    for number, base in enumerate(bases, 1):
        processes.start(f"api-{number}", "serve", "--port", base.rsplit(":", 1)[1])
    for number in range(1, workers + 1):
        processes.start(f"worker-{number}", *worker_argv(number))
    processes.start("beat", "beat")
    processes.start("projections", "projections", "run")
    processes.wait_for("ready API processes", lambda: all(ready(base) for base in bases))
    return bases


def worker_argv(number: int) -> list[str]:
    return [
        *("worker", "--concurrency", "2", "--loglevel", "INFO", f"--hostname=worker{number}@%h"),
        *("--without-mingle", "--without-gossip"),  # celery's own options: it starts sooner
    ]


def forget_prefix(broker_url: str, prefix: str) -> None:
    """The broker's keys under ``prefix`` deleted: what a test's processes queued there."""
    client = redis.Redis.from_url(broker_url)
    try:
        keys = list(client.scan_iter(f"{prefix}*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.fixture
def processes(settings: Settings, broker_url: str, tmp_path: Path) -> Iterator[Processes]:
    prefix = f"maumau-test-{uuid.uuid4().hex[:8]}:"
    logs = tmp_path / "logs"
    logs.mkdir()
    running = Processes(distributed_env(settings, broker_url, prefix), logs)
    yield running
    running.stop()
    forget_prefix(broker_url, prefix)


def ready(base: str) -> bool:
    try:
        return httpx.get(f"{base}/ready", timeout=5).status_code == 200
    except httpx.TransportError:
        return False


def test_two_apis_two_workers_a_beat_and_the_projections_run_a_tournament_and_answer_alike(processes):
    bases = start_service(processes)
    with (processes.logs / "api-1.log").open() as log:
        assert "workers: none in this process (MAUMAU_BROKER_URL is set)" in log.read()

    admin = bearer(ADMIN_TOKEN)
    api = httpx.Client(base_url=bases[0], headers=admin, timeout=10)
    league = api.post("/leagues", json={"name": "Distributed club"})
    assert league.status_code == 201, league.text
    league_id = league.json()["league_id"]
    # all bots: eight places nobody takes; due now, so the beat's next tick starts it on a worker
    plan = {"format": "swiss", "table_size": 4, "rounds": 2, "single_round": True, "places": 8}
    created = api.post(
        f"/leagues/{league_id}/tournaments",
        json={"name": "Distributed cup", **plan, "starts_at": datetime.now(UTC).isoformat()},
    )
    assert created.status_code == 201, created.text
    tournament_id = created.json()["tournament_id"]
    other = httpx.Client(base_url=bases[1], timeout=10)

    def finished() -> dict[str, Any] | None:
        found = other.get(f"/tournaments/{tournament_id}")
        return found.json() if found.status_code == 200 and found.json()["status"] == "finished" else None

    position = processes.wait_for("finished tournament", finished)["position"]

    after = {"after": position}
    clients = [api, other]
    brackets = [client.get(f"/tournaments/{tournament_id}", params=after).json() for client in clients]
    assert brackets[0] == brackets[1]
    bracket = brackets[0]
    assert [len(played["tables"]) for played in bracket["rounds"]] == [2, 2]
    assert sorted(placing["entrant"] for placing in bracket["ranking"]) == [
        f"bot:heuristic#{n}" for n in range(1, 9)
    ]
    assert all(placing["tables"] == 2 for placing in bracket["ranking"])
    standings = [client.get(f"/leagues/{league_id}/standings", params=after).json() for client in clients]
    assert standings[0] == standings[1]
    # every table's game, as each API process shows it, ended as the bracket says
    for played in bracket["rounds"]:
        for table in played["tables"]:
            shown = [client.get(f"/games/{table['game_id']}", params=after).json() for client in clients]
            assert shown[0] == shown[1]
            assert shown[0]["phase"] == "over" and shown[0]["totals"] == table["totals"]
