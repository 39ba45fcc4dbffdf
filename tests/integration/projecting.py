"""Helpers of the projection tests."""

import threading

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


def stopped_after_a_batch(settings: Settings, page_size: int) -> int:
    """A new runner started, stopped as soon as it has folded a page of ``page_size`` events (it then
    folds on to the end of a change), and closed; the position written."""
    stop = threading.Event()
    runner = Runner(settings)
    try:
        runner.catch_up(progress=lambda _: stop.set(), stop=stop, page_size=page_size, batch=1)
        return runner.position
    finally:
        runner.close()


def stopped_after_each_batch(settings: Settings, page_size: int, until: int) -> int:
    """The log folded by one such runner after another until one has written ``until`` or beyond; the
    position written last."""
    while (written := stopped_after_a_batch(settings, page_size)) < until:
        pass
    return written
