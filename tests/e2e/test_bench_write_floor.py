"""The bench's write floor (bench/floor/app.py): the service's app plus one route that does the least a
durable move does. Checked so the floor the HTTP bench compares moves with is what it says it is:
authenticated like a move, one row committed per request, nothing written for a refused one, and
never part of the production app."""

import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from litestar.testing import TestClient
from psycopg import sql

from bench.floor.app import create_app as create_bench_app
from bench.floor.table import TABLE, TABLE_SQL
from service.app import create_app
from service.settings import Settings
from tests.e2e.club import ADMIN_TOKEN, Club, bearer, problem
from tests.schemas import own_schema


@pytest.fixture(scope="module")
def floor_schema(database_url: str) -> Iterator[str]:
    with own_schema(database_url, "maumau_floor") as schema:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(sql.SQL(TABLE_SQL).format(sql.Identifier(schema), sql.Identifier(TABLE)))
        yield schema


@pytest.fixture(scope="module")
def floor_client(database_url: str, floor_schema: str) -> Iterator[TestClient[Any]]:
    settings = Settings(
        database_url=database_url,
        database_schema=floor_schema,
        pool_size=2,
        admin_token=ADMIN_TOKEN,
        run_projections=False,
    )
    with TestClient(create_bench_app(settings)) as client:
        yield client


def rows(database_url: str, schema: str) -> list[tuple[str, str, int]]:
    with psycopg.connect(database_url) as conn:
        query = sql.SQL("select actor, kind, version from {}.{} order by floor_id")
        return conn.execute(query.format(sql.Identifier(schema), sql.Identifier(TABLE))).fetchall()


def test_a_signed_in_player_writes_one_row_and_gets_its_version_back(
    floor_client, database_url, floor_schema
):
    player_id, headers = Club(floor_client).player("Floor")
    before = rows(database_url, floor_schema)
    response = floor_client.post("/bench/floor", json={"kind": "draw", "version": 7}, headers=headers)
    assert response.status_code == 200, response.text
    assert response.json()["version"] == 7
    assert rows(database_url, floor_schema) == [*before, (player_id, "draw", 7)]


def test_without_a_token_or_with_a_bad_one_the_floor_refuses_and_writes_nothing(
    floor_client, database_url, floor_schema
):
    before = rows(database_url, floor_schema)
    problem(floor_client.post("/bench/floor", json={"kind": "draw", "version": 1}), 401, "unauthorized")
    refused = floor_client.post(
        "/bench/floor", json={"kind": "draw", "version": 1}, headers=bearer("mm_nonsense")
    )
    problem(refused, 401, "unauthorized")
    assert rows(database_url, floor_schema) == before


def test_a_body_with_an_unknown_field_is_refused_and_writes_nothing(floor_client, database_url, floor_schema):
    _, headers = Club(floor_client).player("Floor")
    before = rows(database_url, floor_schema)
    response = floor_client.post("/bench/floor", json={"kind": "draw", "version": 1, "x": 1}, headers=headers)
    assert response.status_code == 400, response.text
    assert rows(database_url, floor_schema) == before


def test_an_ordered_write_waits_for_the_table_lock_as_the_event_log_s_commits_do(
    floor_client, database_url, floor_schema
):
    player_id, headers = Club(floor_client).player("Floor")
    before = rows(database_url, floor_schema)
    answers: list[Any] = []
    table = sql.SQL("{}.{}").format(sql.Identifier(floor_schema), sql.Identifier(TABLE))
    with psycopg.connect(database_url) as holder:
        holder.execute(sql.SQL("lock table {} in exclusive mode").format(table))
        body = {"kind": "draw", "version": 3}
        path = "/bench/floor/ordered"
        writer = threading.Thread(
            target=lambda: answers.append(floor_client.post(path, json=body, headers=headers))
        )
        writer.start()
        assert waiting_for_a_lock_on(database_url, floor_schema), "the ordered write did not ask for the lock"
        assert not answers
        holder.commit()
    writer.join(10)
    assert answers[0].status_code == 200, answers[0].text
    assert rows(database_url, floor_schema) == [*before, (player_id, "draw", 3)]


def waiting_for_a_lock_on(database_url: str, schema: str) -> bool:
    query = (
        "select count(*) from pg_locks l join pg_class c on c.oid = l.relation "
        "join pg_namespace n on n.oid = c.relnamespace "
        "where not l.granted and c.relname = %s and n.nspname = %s"
    )
    with psycopg.connect(database_url, autocommit=True) as conn:
        for _ in range(100):
            if conn.execute(query, (TABLE, schema)).fetchone()[0]:
                return True
            time.sleep(0.1)
    return False


def test_the_production_app_has_no_floor_route(database_url: str, floor_schema: str):
    app = create_app(Settings(database_url=database_url, database_schema=floor_schema))
    assert not [route.path for route in app.routes if route.path.startswith("/bench")]
