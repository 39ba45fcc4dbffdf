"""``maumau serve`` and ``maumau admin token`` (wired into ``service.cli.main``)."""

import click

from service.application import MauMau
from service.http import credentials
from service.settings import Settings, get_settings, postgres_env


def where_data_lives(settings: Settings) -> str:
    if settings.database_url is None:
        return f"SQLite file {settings.sqlite_path.resolve()}"
    env = postgres_env(settings.database_url)  # the password is left out
    schema = settings.database_schema or "public"
    address = f"{env['POSTGRES_HOST']}:{env['POSTGRES_PORT']}/{env['POSTGRES_DBNAME']}"
    return f"PostgreSQL {env['POSTGRES_USER']}@{address}, schema {schema}"


@click.command("serve")
@click.option("--host", default=None, help="Default: MAUMAU_HOST, else 127.0.0.1.")
@click.option("--port", type=click.IntRange(0, 65535), default=None, help="Default: MAUMAU_PORT, else 8000.")
@click.option(
    "--workers",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Server processes (uvicorn workers); one per core on PostgreSQL, with MAUMAU_RUN_PROJECTIONS=no "
    "and one `maumau projections run`. The embedded SQLite mode wants 1.",
)
def serve_command(host: str | None, port: int | None, workers: int) -> None:
    """Start the HTTP service (with the projections), on SQLite under MAUMAU_DATA_DIR unless configured."""
    import uvicorn

    settings = get_settings()
    host = host or settings.host
    port = settings.port if port is None else port
    if settings.admin_token is None:
        app = MauMau(settings)
        try:
            first = credentials.first_admin(app)
        finally:
            app.close()
        if first is not None:
            click.echo(f"first admin token (shown once, keep it): {first.token}")
    click.echo(f"maumau serving on http://{host}:{port}  (API docs: http://{host}:{port}/schema/swagger)")
    click.echo(f"data: {where_data_lives(settings)}")
    uvicorn.run(
        "service.http.app:create_app", factory=True, host=host, port=port, workers=workers, log_level="info"
    )


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
