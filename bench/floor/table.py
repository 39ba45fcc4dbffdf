"""The write floor's table: made by ``bench/http.py`` in its run's schema, written by its route."""

TABLE = "bench_floor"
TABLE_SQL = (  # formatted with the schema's and the table's identifiers
    "create table {}.{} (floor_id bigserial primary key, actor text not null, kind text not null, "
    "version integer not null, at timestamptz not null default now())"
)
