"""`maumau db init`: the tables, made explicitly; twice, or four at once, changes and loses nothing."""

import contextlib
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgspec
import psycopg
from click.testing import CliRunner
from eventsourcing.persistence import Tracking
from psycopg import sql

from service.application import MauMau
from service.ops_cli import db
from service.persistence.init import init_database, tables
from service.projections.reader import ReadModels
from service.projections.runner import start_projections
from service.projections.store import Views, close_views, open_views
from service.projections.views.base import APPLICATION, Changes
from service.settings import Settings
from tests.schemas import own_schema

POSTGRES_TABLES = [
    "maumau_events",
    "maumau_snapshots",
    "views_attempts",
    "views_bot_turns",
    "views_deliveries",
    "views_disputes",
    "views_game_list",
    "views_games",
    "views_history",
    "views_league_people",
    "views_leagues",
    "views_mao_bot_turns",
    "views_mao_list",
    "views_notice_prefs",
    "views_notices",
    "views_players",
    "views_rating_history",
    "views_ratings",
    "views_referees",
    "views_runner",
    "views_seats",
    "views_sessions",
    "views_stale",
    "views_standings",
    "views_token_use",
    "views_tournaments",
    "views_tracking",
    "views_webhooks",
    "views_written",
]
SQLITE_TABLES = [
    "stored_events",
    "stored_snapshots",
    "tracking",
    "views_attempts",
    "views_bot_turns",
    "views_deliveries",
    "views_disputes",
    "views_game_list",
    "views_games",
    "views_history",
    "views_league_people",
    "views_leagues",
    "views_mao_bot_turns",
    "views_mao_list",
    "views_notice_prefs",
    "views_notices",
    "views_players",
    "views_rating_history",
    "views_ratings",
    "views_referees",
    "views_runner",
    "views_seats",
    "views_sessions",
    "views_stale",
    "views_standings",
    "views_token_use",
    "views_tournaments",
    "views_webhooks",
    "views_written",
]


def expected(settings: Settings) -> list[str]:
    return POSTGRES_TABLES if settings.uses_postgres else SQLITE_TABLES


def test_init_makes_every_table_and_a_second_run_keeps_what_was_stored(fresh_settings):
    assert tables(fresh_settings) == []
    assert init_database(fresh_settings) == expected(fresh_settings)
    # processes that may not create tables work on what init made
    settings = msgspec.structs.replace(fresh_settings, create_tables=False)
    app = MauMau(settings)
    try:
        player_id = app.register_player("Ada")
        assert init_database(fresh_settings) == expected(fresh_settings)
        assert app.get_player(player_id).name == "Ada"
        assert app.recorder.max_notification_id() == 1
    finally:
        app.close()
    running = start_projections(settings)
    reader = ReadModels(settings)
    try:
        assert reader.wait_for(1, timeout=30) == 1
    finally:
        reader.close()
        running.stop()


def test_four_inits_at_once_all_succeed_and_make_the_tables_once(fresh_settings):
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: init_database(fresh_settings), range(4)))
    assert results == [expected(fresh_settings)] * 4


def test_six_applications_starting_at_once_on_an_empty_schema_all_start(fresh_settings):
    """A worker's pool processes start together, each making the tables (``MAUMAU_CREATE_TABLES``)."""
    settings = msgspec.structs.replace(fresh_settings, create_tables=True, pool_size=1)
    start = threading.Barrier(6)

    def started(_: int) -> int:
        start.wait()
        app = MauMau(settings)
        app.close()
        return 1

    with ThreadPoolExecutor(max_workers=6) as pool:
        assert sum(pool.map(started, range(6))) == 6
    assert ("maumau_events" if settings.uses_postgres else "stored_events") in tables(settings)


def test_init_creates_the_postgres_schema_when_it_is_missing(database_url):
    schema = f"maumau_init_{uuid.uuid4().hex[:12]}"
    settings = Settings(database_url=database_url, database_schema=schema, pool_size=1)
    try:
        assert init_database(settings) == POSTGRES_TABLES
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(sql.SQL("drop schema if exists {} cascade").format(sql.Identifier(schema)))


def test_the_command_prints_the_tables_and_where_and_can_be_run_again(fresh_settings):
    runner = CliRunner()
    for _ in range(2):
        result = runner.invoke(db, ["init"], obj=fresh_settings)
        assert result.exit_code == 0, result.output
        assert result.stdout.strip() == f"tables ready: {', '.join(expected(fresh_settings))}"
    assert ("PostgreSQL" if fresh_settings.uses_postgres else "SQLite") in result.stderr


def test_the_command_fails_with_a_message_when_the_database_does_not_answer():
    settings = Settings(database_url="postgresql://maumau:s3cret@127.0.0.1:1/maumau")
    result = CliRunner().invoke(db, ["init"], obj=settings)
    assert result.exit_code == 1
    assert "the database refused: OperationalError" in result.stderr
    assert "s3cret" not in result.output + result.stderr


def as_made_before(settings: Settings, name: str, columns: str, row: tuple[Any, ...]) -> None:
    """The read models' table ``name`` as an earlier version made it (``columns``), holding ``row``
    (ids as UUIDs: SQLite's are bound as their text, as the store binds them)."""
    init_database(settings)
    views = open_views(settings, connections=1)
    table, ph = views._table(name), views._ph
    try:
        with views.datastore.transaction(commit=True) as curs:  # type: ignore[attr-defined]
            curs.execute(f"DROP TABLE {table}")
            curs.execute(f"CREATE TABLE {table} ({columns})")
            curs.execute(f"INSERT INTO {table} VALUES ({', '.join([ph] * len(row))})", row)
    finally:
        close_views(views)


@contextlib.contextmanager
def initialised_twice(settings: Settings) -> Iterator[Views]:
    """``maumau db init`` run twice (the second finds everything done and changes nothing), then the
    read models' store it left, closed after."""
    for _ in range(2):
        assert init_database(settings) == expected(settings)
    views = open_views(settings, connections=1)
    try:
        yield views
    finally:
        close_views(views)


def column_types(settings: Settings) -> tuple[str, str, str]:
    """The read models' types of an id, a real and an integer on the settings' store."""
    return ("uuid", "double precision", "bigint") if settings.uses_postgres else ("text", "real", "integer")


def test_init_gives_a_players_read_model_made_before_the_folded_names_its_folded_names(fresh_settings):
    """Read models built by an earlier version: the player search still finds every name in any case."""
    yuriy = uuid.uuid4()
    postgres = fresh_settings.uses_postgres
    # as an earlier version made it: no folded name
    columns = f"player_id {'uuid' if postgres else 'text'} PRIMARY KEY, name text NOT NULL"
    as_made_before(fresh_settings, "players", columns, (yuriy, "ЮРІЙ Straße"))
    with initialised_twice(fresh_settings) as views:
        for search in ("юр", "Юрій", "STRASSE"):
            assert [(str(found), name) for found, name in views.player_page(search, None, 10)] == [
                (str(yuriy), "ЮРІЙ Straße")
            ]


def test_init_gives_a_notices_table_made_before_retries_its_attempts_column(fresh_settings):
    """A notices' table an earlier version made (no ``attempts``): init adds the column, keeping its
    rows, which count no attempt yet; a second run changes nothing."""
    notice_id = uuid.uuid4()
    uuid_type, real, integer = column_types(fresh_settings)
    columns = (
        f"notice_id {uuid_type} PRIMARY KEY, player_id text NOT NULL, kind text NOT NULL, "
        f"payload text NOT NULL, created {real} NOT NULL, position {integer} NOT NULL, "
        f"mail text NOT NULL, due {real} NOT NULL, queued_at {real} NOT NULL DEFAULT 0"
    )
    row = (notice_id, "ada", "your_move", "{}", 1.0, 7, "pending", 1.0, 0.0)
    as_made_before(fresh_settings, "notices", columns, row)
    with initialised_twice(fresh_settings) as views:
        (found,) = views.query("notices_after", ("ada", 0, 0.0))
        assert str(found[0]) == str(notice_id) and found[-1] == 0  # its attempts


def test_init_keys_a_rating_history_made_before_by_player_and_position_and_keeps_its_rows(fresh_settings):
    """A history table an earlier version keyed by league, player and game (new rows went to random
    places): init keys it by player and log position, its rows kept; a second run changes nothing."""
    league, ada, first, second = (uuid.uuid4() for _ in range(4))
    uuid_type, real, integer = column_types(fresh_settings)
    columns = (
        f"league_id {uuid_type} NOT NULL, player_id {uuid_type} NOT NULL, game_id {uuid_type} NOT NULL, "
        f"position {integer} NOT NULL, mu {real} NOT NULL, sigma {real} NOT NULL, place {integer} NOT NULL, "
        f"clock_played {integer} NOT NULL, PRIMARY KEY (league_id, player_id, game_id)"
    )
    as_made_before(fresh_settings, "rating_history", columns, (league, ada, first, 7, 26.5, 7.9, 1, 0))
    with initialised_twice(fresh_settings) as views:
        assert views.rating_history(ada) == [(league, first, 7, 26.5, 7.9, 1, 0)]
        # the new key: another row at the same position is the same row (the first stays); the same
        # game at another position is another row (the old key refused it)
        changes = Changes(position=9)
        changes.to("rating_history").extend(
            [
                (str(league), str(ada), str(second), 7, 20.0, 8.0, 2, 0),
                (str(league), str(ada), str(first), 9, 27.0, 7.5, 1, 0),
            ]
        )
        views.write(changes, Tracking(APPLICATION, 9))
        assert views.rating_history(ada) == [
            (league, first, 9, 27.0, 7.5, 1, 0),
            (league, first, 7, 26.5, 7.9, 1, 0),
        ]


def test_init_compresses_the_read_models_documents_with_lz4_when_the_server_has_it(database_url):
    """Each batch rewrites a changed document whole (a tournament's is about 190 kB): lz4 costs the
    server a third of pglz's CPU. A table an earlier version made gets it too, with its rows kept."""
    with own_schema(database_url) as schema:
        settings = Settings(database_url=database_url, database_schema=schema, pool_size=1)
        columns = (
            "tournament_id uuid PRIMARY KEY, league_id uuid, created bigint, status text, "
            "state bytea, doc bytea"
        )
        kept = (uuid.uuid4(), uuid.uuid4(), 1, "running", b"s", b"d")
        as_made_before(settings, "tournaments", columns, kept)
        with initialised_twice(settings) as views, psycopg.connect(database_url) as conn:
            (lz4,) = conn.execute(
                "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
            ).fetchone() or (False,)
            methods = conn.execute(
                "SELECT c.relname, a.attname, a.attcompression FROM pg_attribute a "
                "JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = %s AND c.relkind = 'r' AND c.relname LIKE 'views%%' "
                "AND a.atttypid = 'bytea'::regtype AND NOT a.attisdropped",
                (schema,),
            ).fetchall()
            assert ("views_tournaments", "doc", "l" if lz4 else "") in methods
            assert {method for _, _, method in methods} == ({"l"} if lz4 else {""})
            # a large document written now is stored compressed by it
            big = b"".join(b"entrant %d points %d; " % (n, n % 7) for n in range(20_000))
            with views.datastore.transaction(commit=True) as curs:  # type: ignore[attr-defined]
                curs.execute(f"UPDATE {views._table('tournaments')} SET doc = %s", (big,))
            stored = conn.execute(
                sql.SQL("SELECT pg_column_compression(doc), length(doc), tournament_id FROM {}.{}").format(
                    sql.Identifier(schema), sql.Identifier("views_tournaments")
                )
            ).fetchone()
            assert stored == ("lz4" if lz4 else "pglz", len(big), kept[0])
