"""The projection runner as a real process, killed (SIGKILL) again and again while games are played.

Each restart resumes from the tracking record; at the end the read models
equal the recomputation from the events: nothing applied twice, nothing
skipped.
"""

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest

from service.projections.reader import ReadModels
from service.projections.runner import start_projections
from service.settings import Settings
from tests.integration.test_projections import Club, assert_read_models_match

pytestmark = pytest.mark.own_store  # the runner reads the whole log: a store of the test's own

ROOT = Path(__file__).resolve().parents[2]


def start_runner(settings: Settings) -> subprocess.Popen:
    env = {**os.environ, "MAUMAU_PROJECTION_POLL_MS": "10", "MAUMAU_DATA_DIR": str(settings.data_dir)}
    if settings.database_url is not None:
        env["MAUMAU_DATABASE_URL"] = settings.database_url
        env["MAUMAU_DATABASE_SCHEMA"] = settings.database_schema
    else:
        env.pop("MAUMAU_DATABASE_URL", None)
    return subprocess.Popen(
        [sys.executable, "-m", "service.projections.cli", "run"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def test_a_runner_killed_mid_stream_and_started_again_ends_with_every_event_applied_once(app, settings):
    club = Club(app, seed=21)
    club.season(2)
    reader = ReadModels(settings)
    done = threading.Event()
    failures: list[BaseException] = []

    def write() -> None:
        try:
            while not done.is_set():
                club.season(2)
        except BaseException as error:
            failures.append(error)

    writer = threading.Thread(target=write)
    writer.start()
    rng = random.Random(3)
    behind_at_kill = []
    try:
        for _ in range(4):
            runner = start_runner(settings)
            started = reader.position()
            deadline = time.monotonic() + 60
            while reader.position() == started and time.monotonic() < deadline:
                time.sleep(0.01)  # until this runner has written something
            time.sleep(rng.uniform(0.0, 0.3))
            runner.send_signal(signal.SIGKILL)
            runner.wait(timeout=30)
            behind_at_kill.append(app.recorder.max_notification_id() - reader.position())
    finally:
        done.set()
        writer.join()
    assert not failures
    runner = start_runner(settings)
    try:
        last = app.recorder.max_notification_id()
        assert reader.wait_for(last, timeout=60) == last
    finally:
        runner.send_signal(signal.SIGTERM)
        assert runner.wait(timeout=30) == 0, runner.stderr.read().decode() if runner.stderr else ""
    assert any(behind > 0 for behind in behind_at_kill)  # some kills came with events still to apply
    assert_read_models_match(app, club, reader)
    reader.close()


@pytest.mark.parametrize("store_kind", ["postgres"], indirect=True)
def test_a_runner_whose_connections_are_cut_takes_them_anew_and_goes_on(app, settings):
    club = Club(app, seed=8)
    club.season(2)
    reader = ReadModels(settings)
    running = start_projections(settings)
    try:
        last = app.recorder.max_notification_id()
        assert reader.wait_for(last, timeout=30) == last
        names = [f"maumau:{settings.database_schema}:{what}" for what in ("views", "listen")]
        with psycopg.connect(settings.database_url, autocommit=True) as conn:
            # the listener connects once the runner has caught up and waits for news: a moment
            # after the reader sees the last position
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and connected(conn, names) < 2:
                time.sleep(0.05)
            cut = conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ANY(%s)",
                (names,),
            ).fetchall()
            assert len(cut) == 2  # the lock's connection and the listener's
            club.season(2)
            last = app.recorder.max_notification_id()
            assert reader.wait_for(last, timeout=30) == last
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not held_by(conn, names[0]):
                time.sleep(0.05)
            assert held_by(conn, names[0])  # the lock is taken again, on a new connection
    finally:
        running.stop()
    assert_read_models_match(app, club, reader)
    reader.close()


def connected(conn: psycopg.Connection, names: list[str]) -> int:
    row = conn.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = ANY(%s)", (names,)
    ).fetchone()
    return row[0] if row else 0


def held_by(conn: psycopg.Connection, name: str) -> bool:
    row = conn.execute(
        "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
        "WHERE l.locktype = 'advisory' AND l.granted AND a.application_name = %s",
        (name,),
    ).fetchone()
    return bool(row and row[0])
