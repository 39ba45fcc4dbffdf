"""``bench/load``: the other work a bench can start beside its run (``./run bench http --busy 1``)."""

import os
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
