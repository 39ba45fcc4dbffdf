"""Running a test's coroutine to its end from synchronous test code."""

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any


def run_apart(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """``asyncio.run(main())`` in a thread of its own: the browser tests' Playwright keeps an event
    loop running in the main thread for the whole session, where ``asyncio.run`` refuses to start."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(main())
        except BaseException as error:  # handed to the test's thread, which raises it
            failed.append(error)

    thread = threading.Thread(target=run, name="test-loop")
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
