"""`maumau projections ...`: run the projection, rebuild it, show how far it is.

The settings come from the click context's ``obj`` when it is a ``Settings``
(a caller that has them already), else from the ``MAUMAU_*`` environment.
``python -m service.projections.cli`` runs the group on its own.
"""

import signal
import sys
import threading

import click

from service.projections.parts import REQUIRED
from service.projections.projection import FoldFailed
from service.projections.runner import RebuildFailed, RunnerBusy, rebuild, run_projections
from service.projections.source import Source
from service.projections.store import NAME, close_views, open_views
from service.settings import Settings

PROJECTIONS = (NAME,)  # every projection there is; `rebuild` without a name rebuilds them all


def _settings(ctx: click.Context) -> Settings:
    return ctx.obj if isinstance(ctx.obj, Settings) else Settings.from_env()


@click.group("projections")
def projections() -> None:
    """The read models: keep them up to date, rebuild them, see how far they are."""


@projections.command("run")
@click.pass_context
def run_command(ctx: click.Context) -> None:
    """Keep the read models up to date until stopped (SIGTERM or Ctrl-C)."""
    stop = threading.Event()

    def stopping(signum: int, _frame: object) -> None:
        stop.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stopping)
    click.echo(f"projections: following the log ({', '.join(PROJECTIONS)})", err=True)
    run_projections(_settings(ctx), stop)


@projections.command("rebuild")
@click.argument("name", required=False, type=click.Choice(PROJECTIONS))
@click.pass_context
def rebuild_command(ctx: click.Context, name: str | None) -> None:
    """Fold the whole log into read models made anew (of projection NAME, default all) and put them in
    place of the live ones; a rebuild that cannot fold an event changes nothing and exits 1."""
    settings = _settings(ctx)
    source = Source(settings)
    try:
        last = source.last()
    finally:
        source.close()
    for projection in [name] if name else PROJECTIONS:
        with click.progressbar(length=last, label=f"rebuilding {projection}", file=sys.stderr) as bar:
            try:
                position = rebuild(settings, bar.update)
            except (RunnerBusy, RebuildFailed, FoldFailed) as error:
                raise click.ClickException(str(error)) from None
        click.echo(f"{projection}: rebuilt up to position {position}")


@projections.command("status")
@click.pass_context
def status_command(ctx: click.Context) -> None:
    """Each projection's position and lag (events in the log it has not applied yet), its runner's
    failure while it fails, and each part of its read models that is stale."""
    settings = _settings(ctx)
    source = Source(settings)
    views = open_views(settings, connections=1)
    try:
        last = source.last()
        for projection in PROJECTIONS:
            position = views.position()
            click.echo(f"{projection}  position {position}  lag {last - position}")
            failure = views.runner_failures.failure()
            if failure is not None:
                click.echo(f"{projection}  failing: {failure.reason} ({failure.failures} attempts)")
            for stale in views.stale_views():
                needed = "required for ready" if stale.view in REQUIRED else "ready without it"
                where = f"from position {stale.position}: {stale.reason}"
                click.echo(f"{projection}  stale: {stale.view} ({needed}) {where}")
    finally:
        close_views(views)
        source.close()


if __name__ == "__main__":
    projections()
