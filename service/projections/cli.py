"""`maumau projections ...`: run the projection, rebuild it, show how far it is.

The settings come from the click context's ``obj`` when it is a ``Settings``
(a caller that has them already), else from the ``MAUMAU_*`` environment.
``python -m service.projections.cli`` runs the group on its own.
"""

import signal
import sys
import threading

import click

from service.projections.parts import PARTS, REQUIRED, mending, rebuilt_with
from service.projections.projection import FoldFailed
from service.projections.runner import RebuildFailed, RebuildRefused, RunnerBusy, rebuild, run_projections
from service.projections.source import Source
from service.projections.store import NAME, close_views, open_views
from service.settings import Settings

PROJECTIONS = (NAME,)  # every projection there is; `rebuild` without a name rebuilds them all


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
    run_projections(Settings.given_or_env(ctx.obj), stop)


@projections.command("rebuild")
@click.argument("name", required=False, type=click.Choice(PROJECTIONS))
@click.option(
    "--part",
    "parts",
    multiple=True,
    type=click.Choice(PARTS),
    help="Rebuild only this part of the read models (and the parts fed by it); repeatable.",
)
@click.pass_context
def rebuild_command(ctx: click.Context, name: str | None, parts: tuple[str, ...]) -> None:
    """Fold the whole log into read models made anew (of projection NAME, default all) and put them in
    place of the live ones; a rebuild that cannot fold an event changes nothing and exits 1.

    With --part, only that part's tables are made anew (the repair of a stale part once its fault
    is mended), folded up to where the live read models are; the others are not touched. Either
    way the runner must be stopped: a rebuild refuses while one runs.
    """
    settings = Settings.given_or_env(ctx.obj)
    source = Source(settings)
    try:
        last = source.last()
    finally:
        source.close()
    rebuilt = rebuilt_with(parts)
    for projection in [name] if name else PROJECTIONS:
        label = f"rebuilding {projection}" + (f" ({', '.join(rebuilt)})" if rebuilt else "")
        with click.progressbar(length=last, label=label, file=sys.stderr) as bar:
            try:
                position = rebuild(settings, bar.update, parts)
            except (RunnerBusy, RebuildRefused, RebuildFailed, FoldFailed) as error:
                raise click.ClickException(str(error)) from None
        what = f"{projection} ({', '.join(rebuilt)})" if rebuilt else projection
        click.echo(f"{what}: rebuilt up to position {position}")


@projections.command("status")
@click.pass_context
def status_command(ctx: click.Context) -> None:
    """Each projection's position and lag (events in the log it has not applied yet), its runner's
    failure while it fails, and each part of its read models that is stale (with the rebuild that
    mends it)."""
    settings = Settings.given_or_env(ctx.obj)
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
            stale = views.stale_views()
            for found in stale:
                needed = "required for ready" if found.view in REQUIRED else "ready without it"
                where = f"from position {found.position}: {found.reason}"
                click.echo(f"{projection}  stale: {found.view} ({needed}) {where}")
            if stale:
                command = mending({found.view for found in stale})
                click.echo(
                    f"{projection}  to mend, once the fault is fixed, stop the runner and run: {command}"
                )
    finally:
        close_views(views)
        source.close()


if __name__ == "__main__":
    projections()
