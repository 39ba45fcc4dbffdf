"""The workers inside another process, for the embedded mode (``maumau serve`` with no configuration):
a Celery worker with a pool of threads and the beat, both as threads, on the broker the settings name
(by default kombu's filesystem transport in the data dir, so no server is needed).

    running = start_embedded(settings)
    ...
    running.stop()

``maumau serve`` on one process runs ``create_app`` (the API with them beside it).

The tasks share one ``workers.runtime.Services`` (its MauMau is thread-safe). Celery's
app is module-wide: this configures it with ``settings`` (``service.tasks.configure``), so
start the workers before anything in the process queues a task.
"""

import logging
import threading
from typing import Any

import click
from celery.beat import EmbeddedService
from celery.worker.worker import WorkController

from service.settings import Settings, get_settings
from service.tasks import configure
from workers.app import celery_app
from workers.runtime import close_services


class Embedded:
    """A running embedded worker and beat."""

    def __init__(self, worker: WorkController, thread: threading.Thread, beat: threading.Thread) -> None:
        self.worker = worker
        self.thread = thread
        self.beat = beat

    @property
    def running(self) -> bool:
        return self.thread.is_alive()

    def stop(self, timeout: float = 15.0) -> None:
        """Stop the beat, then the worker (tasks under way finish first); wait for its thread, then close
        the services its tasks built (their database connections)."""
        self.beat.stop()  # type: ignore[attr-defined]  # a celery.beat._Threaded: celery has no types
        self.worker.stop()
        self.thread.join(timeout)
        if not self.thread.is_alive():  # a task still running keeps what it uses
            close_services()


def start_embedded(settings: Settings, concurrency: int = 2) -> Embedded:
    configure(settings)
    # celery logs two lines per task (a bot's every move) at INFO: they would drown the server's own
    logging.getLogger("celery").setLevel(logging.WARNING)
    worker = WorkController(
        app=celery_app,
        pool_cls="threads",
        concurrency=concurrency,
        # alone in this process: no other workers to sync with or to watch
        without_mingle=True,
        without_gossip=True,
        without_heartbeat=True,
        loglevel="WARNING",
    )
    thread = threading.Thread(target=worker.start, name="maumau-worker", daemon=True)
    thread.start()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    beat = EmbeddedService(
        celery_app, thread=True, schedule_filename=str(settings.data_dir / "celerybeat-schedule")
    )
    beat.start()
    return Embedded(worker, thread, beat)


def create_app() -> Any:
    """uvicorn's factory for a single-process serve: ``create_app``, with the worker and the beat
    started after the app's services and stopped after them."""
    import anyio.to_thread

    from service.app import create_app as create_service_app

    settings = get_settings()
    app = create_service_app(settings)
    running: list[Embedded] = []

    async def start_workers() -> None:
        running.append(await anyio.to_thread.run_sync(start_embedded, settings))

    async def stop_workers() -> None:
        while running:
            await anyio.to_thread.run_sync(running.pop().stop)
        click.echo("maumau: the worker and the beat stopped")

    app.on_startup.append(start_workers)
    app.on_shutdown.append(stop_workers)  # run after the lifespan closed the app's services
    return app
