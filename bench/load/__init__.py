"""Other work on the machine, started by a bench itself: ``busy(cores)`` keeps that many cores busy
while the bench measures, so a figure stated "on a loaded machine" can be repeated by anyone
(``./run bench http --busy 1``: one core of two taken, as another process on a shared machine would).
And ``stop_on_sigterm``, for every bench that starts processes."""

import signal
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


def stop_on_sigterm() -> None:
    """A SIGTERM (``timeout``, a supervisor) ends the bench as Ctrl-C does, through its ``finally``
    blocks, which stop the processes it started: they run in sessions of their own, out of reach of
    the signals its terminal sends, and would run on (a server, a projection runner) without."""
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
