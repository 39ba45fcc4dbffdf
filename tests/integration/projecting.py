"""Helpers of the projection tests."""

from service.projections.runner import Runner
from service.settings import Settings


def catch_up(settings: Settings) -> int:
    """A new runner (nothing in memory) applies the log to its end; the position it reached."""
    runner = Runner(settings)
    try:
        runner.catch_up()
        return runner.position
    finally:
        runner.close()
