"""`maumau worker` and `maumau beat`: celery's own commands, on the app the ``MAUMAU_*`` settings make.

The settings come from the click context's ``obj`` when it is a ``Settings`` (a
caller that has them already), else from the environment. Anything after the
options goes to celery as it is (``maumau worker -- --pool solo``).
``python -m workers.cli worker ...`` runs them on their own.
"""

import click

from service.settings import Settings


def worker_argv(concurrency: int | None, loglevel: str, extra: tuple[str, ...]) -> list[str]:
    argv = ["worker", "--loglevel", loglevel]
    if concurrency is not None:
        argv += ["--concurrency", str(concurrency)]
    return [*argv, *extra]


def beat_argv(settings: Settings, loglevel: str, extra: tuple[str, ...]) -> list[str]:
    # beat keeps when each entry last ran in a file: beside the embedded store, not in the cwd
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    schedule = settings.data_dir / "celerybeat-schedule"
    return ["beat", "--loglevel", loglevel, "--schedule", str(schedule), *extra]


def _settings(ctx: click.Context) -> Settings:
    return ctx.obj if isinstance(ctx.obj, Settings) else Settings.from_env()


def _start(settings: Settings, argv: list[str]) -> None:
    from service.tasks import configure
    from workers.app import celery_app  # builds the app and its tasks: only when a command runs

    configure(settings)  # before the pool processes fork: they inherit it
    code = celery_app.start(argv)  # celery's own command line, on this app
    if code:
        raise SystemExit(code)


_LOGLEVEL = click.option(
    "--loglevel", default="INFO", show_default=True, type=click.Choice(["DEBUG", "INFO", "WARNING", "ERROR"])
)


@click.command("worker", context_settings={"ignore_unknown_options": True})
@click.option("--concurrency", type=click.IntRange(min=1), help="Worker processes (default: one per core).")
@_LOGLEVEL
@click.argument("extra", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def worker(ctx: click.Context, concurrency: int | None, loglevel: str, extra: tuple[str, ...]) -> None:
    """Run a Celery worker: bots' moves, turn clocks, tournament rounds."""
    _start(_settings(ctx), worker_argv(concurrency, loglevel, extra))


@click.command("beat", context_settings={"ignore_unknown_options": True})
@_LOGLEVEL
@click.argument("extra", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def beat(ctx: click.Context, loglevel: str, extra: tuple[str, ...]) -> None:
    """Run the scheduler: a tick every MAUMAU_TICK seconds starts the tournaments and rounds due (run one)."""
    settings = _settings(ctx)
    _start(settings, beat_argv(settings, loglevel, extra))


@click.group()
def main() -> None:
    """The maumau workers on their own."""


main.add_command(worker)
main.add_command(beat)

if __name__ == "__main__":
    main()
