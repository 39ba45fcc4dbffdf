"""Throwaway servers a fault test stops and starts at will: a PostgreSQL cluster and a Redis of its own.

Never the shared servers on 5432 and 6379: those belong to every other test and engineer. Each server
here lives in a temporary folder, listens on 127.0.0.1 on a free port, and is ended (its whole process
group) when the test is done, however it ends.

PostgreSQL refuses to run as root, and CI runs as root: then initdb, pg_ctl and postgres run as the
``postgres`` OS user, in a folder that user owns.
"""

import contextlib
import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

import psycopg
import redis

from tests.e2e.test_embedded import free_port

START_WAIT = 30.0  # seconds a server has to answer after a start


def postgres_bindir() -> Path:
    """Where initdb and pg_ctl are: ``pg_config --bindir``, else the newest /usr/lib/postgresql/*/bin."""
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        found = Path(
            subprocess.run(
                ["pg_config", "--bindir"], capture_output=True, text=True, check=True
            ).stdout.strip()
        )
        if (found / "initdb").exists() and (found / "pg_ctl").exists():
            return found
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name))
    for candidate in reversed(candidates):
        if (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    raise RuntimeError("no PostgreSQL binaries (initdb, pg_ctl) on this machine")


class ThrowawayPostgres:
    """A cluster made by ``initdb`` in a temporary folder, on a port of its own; trust on loopback."""

    def __init__(self) -> None:
        self.bindir = postgres_bindir()
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        # not under pytest's tmp_path: that is root's alone, and the postgres user must reach this folder
        self.folder = Path(tempfile.mkdtemp(prefix="maumau-faults-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"
        if self.as_root:
            shutil.chown(self.folder, "postgres", "postgres")
            self.folder.chmod(0o755)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _command(self, program: str, *args: str) -> list[str]:
        argv = [str(self.bindir / program), *args]
        return ["runuser", "-u", "postgres", "--", *argv] if self.as_root else argv

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run(
            self._command(program, *args), capture_output=True, text=True, timeout=60, cwd=self.folder
        )
        assert done.returncode == 0, f"{program} failed: {done.stdout}\n{done.stderr}"

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} -c fsync=off"
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "30", "start"
        )
        deadline = time.monotonic() + START_WAIT
        while not self.answers():
            assert time.monotonic() < deadline, f"PostgreSQL did not answer\n{self.log_tail()}"
            time.sleep(0.1)

    def stop(self, mode: str = "fast") -> None:
        """``fast``: every connection is cut at once and the server shuts down cleanly."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop")

    def answers(self) -> bool:
        try:
            with psycopg.connect(self.url, connect_timeout=2) as conn:
                conn.execute("select 1")
            return True
        except psycopg.OperationalError:
            return False

    def log_tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def close(self) -> None:
        """The server gone (whatever state the test left it in) and its folder removed."""
        pid_file = self.data / "postmaster.pid"
        if pid_file.exists():
            with contextlib.suppress(AssertionError, subprocess.TimeoutExpired):
                self.stop("immediate")
        if pid_file.exists():  # pg_ctl could not stop it: end the postmaster's group by its own pid
            with contextlib.suppress(ValueError, ProcessLookupError, OSError):
                pid = int(pid_file.read_text().split()[0])
                os.killpg(os.getpgid(pid), signal.SIGKILL)
        shutil.rmtree(self.folder, ignore_errors=True)


class ThrowawayRedis:
    """A ``redis-server`` on a port of its own, its append-only file in a temporary folder: a stop and
    a start keep what it had acknowledged, as a broker in production is set up to."""

    def __init__(self) -> None:
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="maumau-faults-redis-"))
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with (self.folder / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(
                [
                    "redis-server",
                    *("--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder)),
                    *("--appendonly", "yes", "--appendfsync", "always", "--save", ""),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + START_WAIT
        while not self.answers():
            assert self.process.poll() is None, f"redis-server exited\n{self.log_tail()}"
            assert time.monotonic() < deadline, f"redis-server did not answer\n{self.log_tail()}"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=15)
        self.process = None

    def answers(self) -> bool:
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1, socket_timeout=1)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def log_tail(self) -> str:
        try:
            return (self.folder / "redis.log").read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


Server = TypeVar("Server", ThrowawayPostgres, ThrowawayRedis)


@contextlib.contextmanager
def started(server: Server) -> Iterator[Server]:
    """The server started, and ended with its folder at the end, however the test ends."""
    try:
        server.start()
        yield server
    finally:
        server.close()


def throwaway_postgres() -> contextlib.AbstractContextManager[ThrowawayPostgres]:
    return started(ThrowawayPostgres())


def throwaway_redis() -> contextlib.AbstractContextManager[ThrowawayRedis]:
    return started(ThrowawayRedis())
