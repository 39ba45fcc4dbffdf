"""Whether a store still holds a text anywhere: every table of it, every column, read raw.

Shared by the erasure tests (``docs/privacy.md``): after a player is erased, their names must be
found nowhere in the store, events, snapshots, read models and side tables alike.
"""

import sqlite3
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from service.settings import Settings


def _holds(value: Any, needle: bytes) -> bool:
    if value is None:
        return False
    if isinstance(value, bytes | bytearray | memoryview):
        return needle in bytes(value)
    return needle in str(value).encode()


def tables_holding(settings: Settings, text: str) -> list[str]:
    """The tables of the store ``settings`` name (its PostgreSQL schema, or every SQLite file in its data
    dir) with a row holding ``text``'s UTF-8 bytes in any column."""
    needle = text.encode()
    found: list[str] = []
    if settings.database_url:
        schema = settings.database_schema or "public"
        with psycopg.connect(settings.database_url) as conn:
            tables = [
                row[0]
                for row in conn.execute(
                    "SELECT table_name FROM information_schema.tables "
                    "WHERE table_schema = %s AND table_type = 'BASE TABLE'",
                    (schema,),
                )
            ]
            assert tables, f"no tables in {schema}"
            for table in tables:
                query = sql.SQL("SELECT * FROM {}.{}").format(sql.Identifier(schema), sql.Identifier(table))
                if any(_holds(value, needle) for row in conn.execute(query) for value in row):
                    found.append(table)
        return found
    files = sorted(Path(settings.data_dir).rglob("*.sqlite3"))
    assert files, f"no SQLite files in {settings.data_dir}"
    for path in files:
        conn = sqlite3.connect(path)
        try:
            tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            for table in tables:
                rows = conn.execute(f'SELECT * FROM "{table}"')
                if any(_holds(value, needle) for row in rows for value in row):
                    found.append(f"{path.name}:{table}")
        finally:
            conn.close()
    return found
