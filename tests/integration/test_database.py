"""The database fixture reaches a real PostgreSQL."""

import psycopg


def test_the_test_database_answers_a_query(database_url):
    with psycopg.connect(database_url, connect_timeout=10) as conn:
        assert conn.execute("select 1").fetchone() == (1,)
        assert conn.info.server_version >= 120000
