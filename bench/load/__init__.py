"""Other work on the machine, started by a bench itself: ``busy(cores)`` keeps that many cores busy
while the bench measures, so a figure stated "on a loaded machine" can be repeated by anyone
(``./run bench http --busy 1``: one core of two taken, as another process on a shared machine would)."""

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

# a tight loop in a process of its own: a core's worth of work whatever the bench's processes do
SPIN = "while True:\n    pass\n"


@contextmanager
def busy(cores: int) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``cores`` processes that spin until the block ends (none for 0)."""
    if cores < 0:
        raise ValueError(f"busy cores are 0 or more, not {cores}")
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(cores)]
    try:
        yield spinners
    finally:
        for spinner in spinners:
            spinner.kill()
        for spinner in spinners:
            spinner.wait(timeout=10)
