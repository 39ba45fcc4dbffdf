"""Operators' commands: ``maumau db init`` (to be added to ``service.cli.main``).

The settings come from the click context's ``obj`` when it is a ``Settings``,
else from the ``MAUMAU_*`` environment. ``python -m service.ops_cli db init``
runs the group on its own.
"""

import click
import psycopg
from eventsourcing.persistence import PersistenceError

from service.http.cli import where_data_lives
from service.persistence.init import init_database
from service.settings import Settings


@click.group("db")
def db() -> None:
    """The database: create its tables."""


@db.command("init")
@click.pass_context
def init_command(ctx: click.Context) -> None:
    """Create the tables the service needs, where missing (safe to run twice, or at the same time)."""
    settings = Settings.given_or_env(ctx.obj)
    click.echo(f"db init: {where_data_lives(settings)}", err=True)
    try:
        found = init_database(settings)
    except (psycopg.Error, PersistenceError) as error:
        raise click.ClickException(f"the database refused: {type(error).__name__}: {error}") from None
    click.echo(f"tables ready: {', '.join(found)}")


@click.group()
def main() -> None:
    """The operators' commands on their own."""


main.add_command(db)

if __name__ == "__main__":
    main()
