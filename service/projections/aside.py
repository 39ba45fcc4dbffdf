"""A rebuild's own store, and the swap that puts it in the live store's place.

A rebuild never folds into the live read models: it fills a store aside (a schema of its own on
PostgreSQL, ``<schema>_rebuild``; a file of its own beside the live one on SQLite), and only when
the whole log folded with every view sound does one transaction put the rebuilt tables in place of
the live ones. Until that commit every reader sees the old read models; a rebuild that fails
leaves them as they were and throws the aside store away.

What is no read model stays: token use and last writes are never in the aside store's place, and
of the webhook deliveries the live ones are kept, with those the rebuilt fold made that the live
fold did not (a hook whose fold had stopped) added, so their sending is never forgotten.

A rebuild of some parts only (``parts``) swaps only their tables (``tables_of``: their views', and
those of another part's they write into, ``parts.SHARES``) and clears only their stale marks; every
other table, the tracking record among them, is not touched.
"""

import contextlib
import sqlite3
from collections.abc import Collection
from pathlib import Path

import psycopg
from psycopg import sql

from service.projections.parts import SHARES, WEBHOOKS
from service.projections.store import ASIDE_FILE_NAME, NAME, SQLITE_FILE_NAME, TABLES, aside_schema
from service.projections.views import VIEWS
from service.settings import Settings

KEPT_AND_ADDED = "deliveries"  # the table whose live rows stay and whose new rebuilt rows are added


def tables_of(parts: Collection[str]) -> tuple[str, ...]:
    """The short names of the tables a rebuild of these parts replaces."""
    own = [table for view in VIEWS if view.fold.part in parts for table in view.tables]
    shared = [table for part in parts for table in SHARES.get(part, ())]
    return tuple(dict.fromkeys([*own, *shared]))


def writers(tables: Collection[str]) -> set[str]:
    """The parts whose folds write rows into these tables: each must fold soundly for them to be swapped."""
    owners = {view.fold.part for view in VIEWS if set(view.tables) & set(tables)}
    sharers = {part for part, shared in SHARES.items() if set(shared) & set(tables)}
    return {part for part in owners | sharers if part is not None}


def _swapped(postgres: bool, parts: Collection[str]) -> list[str]:
    """The tables the swap replaces: those of ``parts``; none given, every read model and the
    tracking record."""
    if parts:
        return [f"{NAME}_{name}" for name in tables_of(parts)]
    tracking = f"{NAME}_tracking" if postgres else "tracking"
    return [*(f"{NAME}_{name}" for name in TABLES), tracking]


def prepare(settings: Settings) -> None:
    """An empty aside store (whatever an earlier rebuild that stopped half way left is dropped)."""
    discard(settings)
    if settings.uses_postgres:
        with psycopg.connect(settings.database_url or "", autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(aside_schema(settings))))


def discard(settings: Settings) -> None:
    """Drop the aside store, if there is one."""
    if settings.uses_postgres:
        with psycopg.connect(settings.database_url or "", autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(aside_schema(settings)))
            )
        return
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            (settings.data_dir / f"{ASIDE_FILE_NAME}{suffix}").unlink()


def swap(settings: Settings, parts: Collection[str] = ()) -> None:
    """Put the aside store's read models (of ``parts``; none given, all) in place of the live ones, in
    one transaction, clearing those parts' stale marks; drop the aside store.

    The live store's tables exist (the caller opened it): a rebuild of a store never made swaps too.
    """
    if settings.uses_postgres:
        _swap_postgres(settings, parts)
    else:
        _swap_sqlite(settings.data_dir / SQLITE_FILE_NAME, settings.data_dir / ASIDE_FILE_NAME, parts)
    discard(settings)


def _swap_postgres(settings: Settings, parts: Collection[str]) -> None:
    live = sql.Identifier(settings.database_schema or "public")
    aside = sql.Identifier(aside_schema(settings))
    with psycopg.connect(settings.database_url or "") as conn, conn.transaction():
        for name in _swapped(True, parts):
            table = sql.Identifier(name)
            conn.execute(sql.SQL("DROP TABLE IF EXISTS {}.{}").format(live, table))
            # its indexes go with it; a moment's lock, not a copy
            conn.execute(sql.SQL("ALTER TABLE {}.{} SET SCHEMA {}").format(aside, table, live))
        if parts:
            stale = sql.Identifier(f"{NAME}_stale")
            conn.execute(
                sql.SQL("DELETE FROM {}.{} WHERE view = ANY(%s)").format(live, stale), (list(parts),)
            )
        if not parts or WEBHOOKS in parts:
            deliveries = sql.Identifier(f"{NAME}_{KEPT_AND_ADDED}")
            conn.execute(
                sql.SQL("INSERT INTO {}.{} SELECT * FROM {}.{} ON CONFLICT DO NOTHING").format(
                    live, deliveries, aside, deliveries
                )
            )


def _swap_sqlite(live: Path, aside: Path, parts: Collection[str]) -> None:
    # autocommit mode: ATTACH cannot run inside a transaction, so the one transaction begins after it
    conn = sqlite3.connect(live, isolation_level=None, timeout=30)
    try:
        conn.execute("ATTACH DATABASE ? AS aside", (str(aside),))
        conn.execute("BEGIN IMMEDIATE")
        try:
            for name in _swapped(False, parts):
                made = conn.execute(
                    "SELECT sql FROM aside.sqlite_master WHERE type = 'table' AND name = ?", (name,)
                ).fetchone()
                indexes = conn.execute(
                    "SELECT sql FROM aside.sqlite_master WHERE type = 'index' AND tbl_name = ? "
                    "AND sql IS NOT NULL",
                    (name,),
                ).fetchall()
                conn.execute(f'DROP TABLE IF EXISTS main."{name}"')
                conn.execute(made[0])  # unqualified: made in main
                conn.execute(f'INSERT INTO main."{name}" SELECT * FROM aside."{name}"')
                for (statement,) in indexes:
                    conn.execute(statement)
            if parts:
                marks = ", ".join("?" * len(parts))
                conn.execute(f'DELETE FROM main."{NAME}_stale" WHERE view IN ({marks})', tuple(parts))
            if not parts or WEBHOOKS in parts:
                deliveries = f"{NAME}_{KEPT_AND_ADDED}"
                conn.execute(f'INSERT OR IGNORE INTO main."{deliveries}" SELECT * FROM aside."{deliveries}"')
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("DETACH DATABASE aside")
    finally:
        conn.close()
