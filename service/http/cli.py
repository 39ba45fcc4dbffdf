"""``maumau serve`` and ``maumau admin token`` (wired into ``service.cli.main``).

With no ``MAUMAU_BROKER_URL`` and one server process, ``serve`` is the embedded
default: the API, the projections (a thread, unless ``MAUMAU_RUN_PROJECTIONS=no``)
and a Celery worker and its beat (threads, ``workers.embedded``) in one process,
on the SQLite file and kombu's filesystem broker under ``MAUMAU_DATA_DIR`` (or on
``MAUMAU_DATABASE_URL``). The workers start and stop with the app's lifespan, so
SIGINT or SIGTERM stops the server, then the beat, then the worker once its tasks
under way are done. With a broker URL (the distributed mode) or ``--workers`` > 1
(one beat per server process would tick twice) the process runs no workers:
``maumau worker`` and one ``maumau beat`` do.
"""

import contextlib

import click

from service.application import MauMau, credentials
from service.settings import Settings, get_settings, postgres_env

# seconds the server waits for open connections (a live stream, say) before it closes them at a stop
GRACEFUL_SHUTDOWN = 5


def where_data_lives(settings: Settings) -> str:
    if settings.database_url is None:
        return f"SQLite file {settings.sqlite_path.resolve()}"
    env = postgres_env(settings.database_url)  # the password is left out
    schema = settings.database_schema or "public"
    address = f"{env['POSTGRES_HOST']}:{env['POSTGRES_PORT']}/{env['POSTGRES_DBNAME']}"
    return f"PostgreSQL {env['POSTGRES_USER']}@{address}, schema {schema}"


def runs_workers(settings: Settings, workers: int) -> bool:
    """Whether ``serve`` runs the worker and the beat itself: the embedded broker, one server process."""
    return settings.broker_url is None and workers == 1


@click.command("serve")
@click.option("--host", default=None, help="Default: MAUMAU_HOST, else 127.0.0.1.")
@click.option("--port", type=click.IntRange(0, 65535), default=None, help="Default: MAUMAU_PORT, else 8000.")
@click.option(
    "--workers",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Server processes (uvicorn workers); on PostgreSQL about one per two cores (deploy/README.md), "
    "with MAUMAU_RUN_PROJECTIONS=no and one `maumau projections run`. The embedded SQLite mode wants 1; "
    "with more, this process runs no Celery worker or beat.",
)
@click.option(
    "--demo", is_flag=True, help="First create a demo league and an all-bot tournament (`maumau demo`)."
)
def serve_command(host: str | None, port: int | None, workers: int, demo: bool) -> None:
    """Start the HTTP service, the projections and (embedded) the Celery worker and beat, on SQLite
    under MAUMAU_DATA_DIR unless configured."""
    import uvicorn

    settings = get_settings()
    host = host or settings.host
    port = settings.port if port is None else port
    base = f"http://{host}:{port}"
    if settings.admin_token is None or demo:
        app = MauMau(settings)
        try:
            first = credentials.first_admin(app) if settings.admin_token is None else None
            if first is not None:
                click.echo(f"first admin token (shown once, keep it): {first.token}")
            if demo:
                from service.demo import describe, set_up

                click.echo(describe(set_up(app), base))
        finally:
            app.close()
    click.echo(f"maumau serving on {base}  (API docs: {base}/schema/swagger)")
    click.echo(f"data: {where_data_lives(settings)}")
    embedded = runs_workers(settings, workers)
    click.echo(f"workers: {workers_line(settings, embedded)}")
    # uvicorn stops on Ctrl-C, then raises it again: the service stopped, it was not aborted
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.run(
            "workers.embedded:create_app" if embedded else "service.app:create_app",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level="info",
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN,
            # the play socket's frames uncompressed: deflating every view was most of the socket's own
            # CPU (docs/speed.md), and a view is a few hundred bytes
            ws_per_message_deflate=False,
        )


def workers_line(settings: Settings, embedded: bool) -> str:
    if embedded:
        return f"a Celery worker and its beat in this process; tasks queue in {settings.broker_dir.resolve()}"
    if settings.broker_url is None:
        return "none in this process (several server processes): run `maumau worker` and one `maumau beat`"
    return "none in this process (MAUMAU_BROKER_URL is set): run `maumau worker`s and one `maumau beat`"


@click.group("admin")
def admin_group() -> None:
    """Administration from the command line."""


@admin_group.command("token")
@click.option("--name", default="admin", show_default=True, help="Whose token this is (for the record).")
def admin_token_command(name: str) -> None:
    """Create an admin credential and print its token (shown once; only its hash is stored)."""
    app = MauMau(get_settings())
    try:
        issued = credentials.admin(app, name)
    finally:
        app.close()
    click.echo(issued.token)


@admin_group.command("keyrings")
def admin_keyrings_command() -> None:
    """List the tokens made before keyrings existed with their holders' tokens (once, after the upgrade
    that brought keyrings; safe to repeat), so GET /players/{id}/tokens and revoking all find them."""
    app = MauMau(get_settings())
    try:
        added = credentials.fill_keyrings(app)
    finally:
        app.close()
    click.echo(f"{added} tokens added to their holders' keyrings")
