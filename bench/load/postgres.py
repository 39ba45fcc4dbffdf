"""A bench's own PostgreSQL database, and the CPU spent on its behalf: ``database`` makes one afresh
(and drops it after), ``Postgres.pids`` are its backends and the server's own background processes,
so a bench counts neither another bench's backends nor other work on the same server."""

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo


class Postgres:
    """The processes of one database's backends and of the server's own background processes (the
    WAL writer, the checkpointer, autovacuum), read through a connection to another database."""

    def __init__(self, url: str, database: str) -> None:
        self.database = database
        self.conn = psycopg.connect(url, autocommit=True)

    def pids(self) -> list[int]:
        rows = self.conn.execute(
            "select pid from pg_stat_activity where datname = %s or datname is null", (self.database,)
        ).fetchall()
        return [row[0] for row in rows]

    def close(self) -> None:
        self.conn.close()


@contextmanager
def database(url: str, name: str) -> Iterator[str]:
    """A database of its own, made afresh on the server of ``url``; its URL."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
    try:
        yield make_conninfo(url, dbname=name)
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name)))
