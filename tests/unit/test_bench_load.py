"""``bench/load``: the other work a bench can start beside its run (``./run bench http --busy 1``)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.load import busy


def test_each_busy_core_is_a_process_that_spins_until_the_block_ends():
    with busy(1) as spinners:
        (spinner,) = spinners
        time.sleep(0.5)
        # /proc/PID/stat's utime and stime, in clock ticks (Linux, as the benches' machines)
        fields = Path(f"/proc/{spinner.pid}/stat").read_text().rsplit(")", 1)[1].split()
        used = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        assert used > 0.1  # it works, it does not sleep
    assert spinner.poll() is not None  # gone with the block


def test_no_busy_core_starts_nothing_and_a_negative_count_is_refused():
    with busy(0) as spinners:
        assert spinners == []
    with pytest.raises(ValueError, match="0 or more"), busy(-1):
        pass


def test_a_sigterm_ends_a_bench_through_its_finally_so_the_processes_it_started_stop_too():
    """``timeout`` and supervisors send SIGTERM: a bench's servers run in sessions of their own and
    would run on without it."""
    script = (
        "import subprocess, sys, time\n"
        "from bench.load import stop_on_sigterm\n"
        "stop_on_sigterm()\n"
        "sleeper = [sys.executable, '-c', 'import time; time.sleep(60)']\n"
        "child = subprocess.Popen(sleeper, start_new_session=True)\n"
        "try:\n"
        "    print(child.pid, flush=True)\n"
        "    time.sleep(60)\n"
        "finally:\n"
        "    child.kill()\n"
        "    child.wait()\n"
    )
    root = Path(__file__).resolve().parents[2]
    bench = subprocess.Popen([sys.executable, "-c", script], cwd=root, stdout=subprocess.PIPE, text=True)
    assert bench.stdout is not None
    child = int(bench.stdout.readline())
    bench.send_signal(signal.SIGTERM)
    assert bench.wait(timeout=30) == 128 + signal.SIGTERM
    assert not Path(f"/proc/{child}").exists()  # stopped and reaped by the bench's finally
