"""A PostgreSQL schema of a test's own: made for the caller alone, dropped with everything in it after."""

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import sql


@contextmanager
def own_schema(database_url: str, prefix: str = "maumau_test") -> Iterator[str]:
    """A new schema named ``<prefix>_<12 hex digits>`` (the prefix tells whose it is in the database)."""
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(sql.SQL("create schema {}").format(sql.Identifier(schema)))
    try:
        yield schema
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(sql.SQL("drop schema if exists {} cascade").format(sql.Identifier(schema)))
