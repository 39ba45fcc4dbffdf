"""A bench's own PostgreSQL database, and the CPU spent on its behalf: ``database`` makes one afresh
(and drops it after); its ``Postgres`` gives the database's URL and, as ``pids``, its backends and
the server's own background processes, so a bench counts neither another bench's backends nor other
work on the same server."""

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo


class Postgres:
    """A database of its own (``url``), and the processes of its backends and of the server's own
    background processes (the WAL writer, the checkpointer, autovacuum), read through a connection
    to another database."""

    def __init__(self, server_url: str, database: str) -> None:
        self.database = database
        self.url = make_conninfo(server_url, dbname=database)
        self.conn = psycopg.connect(server_url, autocommit=True)

    def pids(self) -> list[int]:
        rows = self.conn.execute(
            "select pid from pg_stat_activity where datname = %s or datname is null", (self.database,)
        ).fetchall()
        return [row[0] for row in rows]


@contextmanager
def database(url: str, name: str) -> Iterator[Postgres]:
    """A database of its own, made afresh on the server of ``url``, dropped at the end."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
    postgres = Postgres(url, name)
    try:
        yield postgres
    finally:
        postgres.conn.close()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name)))
