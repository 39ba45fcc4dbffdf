"""Several processes, one sum: prometheus_client's multiprocess mode under PROMETHEUS_MULTIPROC_DIR.

Real processes: the mode is chosen when prometheus_client is first imported,
so it cannot be switched on inside the test process.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.e2e.test_metrics import free_port, parse, value


def python(code: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def multiprocess_env(folder: Path, **more: str) -> dict[str, str]:
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder), **more}
    env.pop("MAUMAU_DATABASE_URL", None)
    return env


def test_task_runs_counted_in_separate_processes_are_added_up_by_a_scrape(tmp_path):
    env = multiprocess_env(tmp_path / "prometheus")
    count = "from service.observability import metrics; metrics.task_ran('maumau.tick', 'success', 0.5)"
    python(count, env)
    python(count, env)
    text = python("from service.observability import metrics; print(metrics.exposition()[0].decode())", env)
    found = parse(text)
    assert value(found, "maumau_task_runs_total", task="maumau.tick", outcome="success") == 2
    assert value(found, "maumau_task_duration_seconds_sum", task="maumau.tick") == 1.0


def test_uvicorn_workers_answer_one_sum_of_the_requests_all_of_them_served(tmp_path):
    port = free_port()
    env = multiprocess_env(tmp_path / "prometheus", MAUMAU_DATA_DIR=str(tmp_path / "var"))
    command = [sys.executable, "-m", "uvicorn", "--factory", "service.app:create_app"]
    command += ["--workers", "2", "--port", str(port), "--no-access-log"]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(400):
            try:
                if httpx.get(f"{base}/ready").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
        else:
            raise AssertionError("uvicorn did not answer")
        for _ in range(20):
            assert httpx.get(f"{base}/health").status_code == 200  # a new connection each
        scrapes = [parse(httpx.get(f"{base}/metrics").text) for _ in range(4)]
    finally:
        server.terminate()
        server.wait(timeout=30)
    health = {"route": "/health", "method": "GET", "status": "200"}
    # whichever worker answers a scrape, it counts every worker's requests (which worker took
    # which request is the kernel's choice: the sum is what must not depend on it)
    assert [value(found, "maumau_http_requests_total", **health) for found in scrapes] == [20] * 4
