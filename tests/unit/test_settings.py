"""Settings from MAUMAU_* variables, and the eventsourcing settings they lead to."""

from pathlib import Path

import pytest

from service.settings import Settings, postgres_env


def test_without_a_database_url_the_embedded_default_is_an_sqlite_file_in_the_data_dir(tmp_path):
    settings = Settings.from_env({"MAUMAU_DATA_DIR": str(tmp_path / "data")})
    assert not settings.uses_postgres
    env = settings.persistence_env()
    assert env == {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(tmp_path / "data" / "maumau.sqlite3"),
    }
    assert (tmp_path / "data").is_dir()


def test_defaults():
    settings = Settings.from_env({})
    assert settings.data_dir == Path("var")
    assert settings.database_url is None
    assert settings.snapshot_interval == 50


def test_a_database_url_gives_the_postgres_settings():
    settings = Settings.from_env(
        {
            "MAUMAU_DATABASE_URL": "postgresql://maumau:s3cret@db.example:6543/league",
            "MAUMAU_DATABASE_SCHEMA": "club",
            "MAUMAU_POOL_SIZE": "8",
        }
    )
    assert settings.persistence_env() == {
        "PERSISTENCE_MODULE": "service.persistence.postgres:Factory",
        "POSTGRES_CONNECT_TIMEOUT": "2",
        "POSTGRES_DBNAME": "league",
        "POSTGRES_HOST": "db.example",
        "POSTGRES_PORT": "6543",
        "POSTGRES_USER": "maumau",
        "POSTGRES_PASSWORD": "s3cret",
        "POSTGRES_POOL_SIZE": "8",
        "POSTGRES_SCHEMA": "club",
        "APPLICATION_RECORDER_TOPIC": "service.persistence.group_commit:GroupCommitRecorder",
    }


def test_group_commit_can_be_turned_off_and_the_game_cache_sized():
    settings = Settings.from_env(
        {
            "MAUMAU_DATABASE_URL": "postgresql://127.0.0.1/test",
            "MAUMAU_GROUP_COMMIT": "no",
            "MAUMAU_GAME_CACHE": "0",
        }
    )
    # one save per transaction, still under the log's lock rather than the table's
    assert settings.persistence_env()["APPLICATION_RECORDER_TOPIC"] == (
        "service.persistence.log_lock:LogLockedRecorder"
    )
    assert settings.game_cache == 0
    with pytest.raises(ValueError, match="MAUMAU_GROUP_COMMIT"):
        Settings.from_env({"MAUMAU_GROUP_COMMIT": "perhaps"})


def test_a_url_without_user_or_password_uses_postgres_and_an_empty_password():
    env = postgres_env("postgresql://127.0.0.1/test")
    assert env["POSTGRES_USER"] == "postgres" and env["POSTGRES_PASSWORD"] == ""
    assert env["POSTGRES_PORT"] == "5432"


@pytest.mark.parametrize(
    ("name", "value"),
    [("MAUMAU_SNAPSHOT_INTERVAL", "0"), ("MAUMAU_SNAPSHOT_INTERVAL", "often"), ("MAUMAU_POOL_SIZE", "-1")],
)
def test_bad_numbers_are_refused_with_the_variable_named(name, value):
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: value})


def test_a_database_url_without_a_database_name_is_refused():
    with pytest.raises(ValueError, match="MAUMAU_DATABASE_URL"):
        postgres_env("postgresql://127.0.0.1")


def test_host_and_port_for_serve_come_from_maumau_host_and_port():
    settings = Settings.from_env({"MAUMAU_HOST": "0.0.0.0", "MAUMAU_PORT": "9001"})
    assert (settings.host, settings.port) == ("0.0.0.0", 9001)
    assert (Settings.from_env({}).host, Settings.from_env({}).port) == ("127.0.0.1", 8000)


def test_a_port_that_is_not_a_number_is_a_clear_error():
    with pytest.raises(ValueError, match="MAUMAU_PORT"):
        Settings.from_env({"MAUMAU_PORT": "eighty"})


def test_an_admin_token_is_read_from_maumau_admin_token_and_unset_by_default():
    assert Settings.from_env({"MAUMAU_ADMIN_TOKEN": "s3cret"}).admin_token == "s3cret"
    assert Settings.from_env({}).admin_token is None
    assert Settings.from_env({"MAUMAU_ADMIN_TOKEN": ""}).admin_token is None


def test_the_http_process_runs_the_projections_unless_told_not_to():
    assert Settings.from_env({}).run_projections
    assert not Settings.from_env({"MAUMAU_RUN_PROJECTIONS": "no"}).run_projections
    with pytest.raises(ValueError, match="MAUMAU_RUN_PROJECTIONS"):
        Settings.from_env({"MAUMAU_RUN_PROJECTIONS": "sometimes"})


def test_the_projection_poll_interval_is_read_from_maumau_projection_poll_ms():
    assert Settings.from_env({}).projection_poll_ms == 20
    assert Settings.from_env({"MAUMAU_PROJECTION_POLL_MS": "250"}).projection_poll_ms == 250
    with pytest.raises(ValueError, match="MAUMAU_PROJECTION_POLL_MS"):
        Settings.from_env({"MAUMAU_PROJECTION_POLL_MS": "0"})


def test_the_projection_runner_s_pause_after_a_write_is_read_from_maumau_projection_batch_ms():
    assert Settings.from_env({}).projection_batch_ms == 0
    assert Settings.from_env({"MAUMAU_PROJECTION_BATCH_MS": "25"}).projection_batch_ms == 25
    with pytest.raises(ValueError, match="MAUMAU_PROJECTION_BATCH_MS"):
        Settings.from_env({"MAUMAU_PROJECTION_BATCH_MS": "-1"})


def test_the_settings_repr_masks_the_admin_token_and_passwords_in_urls():
    settings = Settings(
        admin_token="hunter2-token",
        database_url="postgresql://club:s3cret@db:5432/maumau",
        broker_url="redis://:brokerpw@cache:6379/0",
    )
    shown = repr(settings)
    assert "hunter2-token" not in shown and "s3cret" not in shown and "brokerpw" not in shown
    assert "postgresql://club:***@db:5432/maumau" in shown
    assert "redis://:***@cache:6379/0" in shown


def test_logs_are_info_and_auto_by_default_and_the_names_are_read_in_any_case():
    assert (Settings.from_env({}).log_level, Settings.from_env({}).log_format) == ("INFO", "auto")
    settings = Settings.from_env({"MAUMAU_LOG_LEVEL": "debug", "MAUMAU_LOG_FORMAT": "JSON"})
    assert (settings.log_level, settings.log_format) == ("DEBUG", "json")


@pytest.mark.parametrize(("name", "value"), [("MAUMAU_LOG_LEVEL", "loud"), ("MAUMAU_LOG_FORMAT", "xml")])
def test_an_unknown_log_level_or_format_is_refused_with_the_choices_named(name, value):
    with pytest.raises(ValueError, match=f"{name} must be one of .*not '{value}'"):
        Settings.from_env({name: value})


def test_without_create_tables_the_recorders_are_told_not_to_create_any(tmp_path):
    sqlite = Settings.from_env({"MAUMAU_DATA_DIR": str(tmp_path), "MAUMAU_CREATE_TABLES": "no"})
    assert not sqlite.create_tables
    assert sqlite.persistence_env()["CREATE_TABLE"] == "no"
    postgres = Settings.from_env(
        {"MAUMAU_DATABASE_URL": "postgresql://127.0.0.1/test", "MAUMAU_CREATE_TABLES": "0"}
    )
    assert postgres.persistence_env()["CREATE_TABLE"] == "no"
    assert "CREATE_TABLE" not in Settings.from_env({"MAUMAU_DATA_DIR": str(tmp_path)}).persistence_env()


def test_the_readiness_lag_bounds_default_to_100_events_for_30_seconds_and_off_turns_them_off():
    default = Settings.from_env({})
    assert (default.ready_max_lag, default.ready_max_lag_seconds) == (100, 30.0)
    given = Settings.from_env({"MAUMAU_READY_MAX_LAG": "0", "MAUMAU_READY_MAX_LAG_SECONDS": "2.5"})
    assert (given.ready_max_lag, given.ready_max_lag_seconds) == (0, 2.5)
    assert Settings.from_env({"MAUMAU_READY_MAX_LAG": "off"}).ready_max_lag is None
    with pytest.raises(ValueError, match="MAUMAU_READY_MAX_LAG"):
        Settings.from_env({"MAUMAU_READY_MAX_LAG": "-1"})
    with pytest.raises(ValueError, match="MAUMAU_READY_MAX_LAG_SECONDS"):
        Settings.from_env({"MAUMAU_READY_MAX_LAG_SECONDS": "-1"})


def test_the_metrics_port_is_unset_unless_given():
    assert Settings.from_env({}).metrics_port is None
    assert Settings.from_env({"MAUMAU_METRICS_PORT": "9100"}).metrics_port == 9100
    with pytest.raises(ValueError, match="MAUMAU_METRICS_PORT"):
        Settings.from_env({"MAUMAU_METRICS_PORT": "0"})


def test_the_database_timeout_bounds_every_wait_for_postgresql():
    settings = Settings.from_env(
        {"MAUMAU_DATABASE_URL": "postgresql://127.0.0.1/test", "MAUMAU_DATABASE_TIMEOUT": "5"}
    )
    assert settings.persistence_env()["POSTGRES_CONNECT_TIMEOUT"] == "5"
    assert Settings.from_env({}).database_timeout == 2
    with pytest.raises(ValueError, match="MAUMAU_DATABASE_TIMEOUT"):
        Settings.from_env({"MAUMAU_DATABASE_TIMEOUT": "0"})


def test_webhook_retries_back_off_timeout_and_disabling_come_from_maumau_webhook_settings():
    defaults = Settings.from_env({})
    assert (defaults.webhook_retries, defaults.webhook_backoff) == (5, 10.0)
    assert (defaults.webhook_timeout, defaults.webhook_disable_after) == (5.0, 5)
    given = Settings.from_env(
        {
            "MAUMAU_WEBHOOK_RETRIES": "0",
            "MAUMAU_WEBHOOK_BACKOFF": "0.25",
            "MAUMAU_WEBHOOK_TIMEOUT": "2",
            "MAUMAU_WEBHOOK_DISABLE_AFTER": "3",
        }
    )
    assert (given.webhook_retries, given.webhook_backoff) == (0, 0.25)
    assert (given.webhook_timeout, given.webhook_disable_after) == (2.0, 3)
    with pytest.raises(ValueError, match="MAUMAU_WEBHOOK_DISABLE_AFTER"):
        Settings.from_env({"MAUMAU_WEBHOOK_DISABLE_AFTER": "0"})


def test_the_token_cache_lasts_maumau_token_cache_seconds_ten_by_default_and_never_less_than_zero():
    assert Settings.from_env({}).token_cache_seconds == 10.0
    assert Settings.from_env({"MAUMAU_TOKEN_CACHE_SECONDS": "0"}).token_cache_seconds == 0.0
    assert Settings.from_env({"MAUMAU_TOKEN_CACHE_SECONDS": "2.5"}).token_cache_seconds == 2.5
    for bad in ("-1", "soon", "nan"):
        with pytest.raises(ValueError, match="MAUMAU_TOKEN_CACHE_SECONDS"):
            Settings.from_env({"MAUMAU_TOKEN_CACHE_SECONDS": bad})


def test_trusted_proxies_are_read_as_addresses_and_networks_and_none_by_default():
    assert Settings.from_env({}).trusted_proxies == ()
    settings = Settings.from_env({"MAUMAU_TRUSTED_PROXIES": " 10.0.0.0/8, 192.0.2.10 ,,2001:db8::1"})
    assert settings.trusted_proxies == ("10.0.0.0/8", "192.0.2.10/32", "2001:db8::1/128")


@pytest.mark.parametrize("value", ["proxy.local", "10.0.0.0/33", "10.0.0.1;10.0.0.2"])
def test_a_trusted_proxy_that_is_no_address_is_refused_with_the_variable_named(value):
    with pytest.raises(ValueError, match="MAUMAU_TRUSTED_PROXIES"):
        Settings.from_env({"MAUMAU_TRUSTED_PROXIES": value})


def test_cors_origins_are_none_by_default_and_read_as_the_browser_sends_them():
    assert Settings.from_env({}).cors_origins == ()
    named = Settings.from_env({"MAUMAU_CORS_ORIGINS": " https://club.example, http://localhost:3000 ,,"})
    assert named.cors_origins == ("https://club.example", "http://localhost:3000")
    assert Settings.from_env({"MAUMAU_CORS_ORIGINS": "*"}).cors_origins == ("*",)


@pytest.mark.parametrize(
    "value",
    ["club.example", "https://club.example/", "https://club.example/standings", "*, https://a.example"],
)
def test_a_cors_origin_that_is_no_origin_is_refused_with_the_variable_named(value):
    with pytest.raises(ValueError, match="MAUMAU_CORS_ORIGINS"):
        Settings.from_env({"MAUMAU_CORS_ORIGINS": value})


def test_a_mail_server_and_a_sign_in_links_life_are_read_and_the_mail_password_never_shown():
    assert Settings.from_env({}).smtp_url is None and Settings.from_env({}).signin_link_minutes == 15
    url = "smtp://club:s3cret@mail.example.org:587?from=club@example.org&starttls=yes"
    settings = Settings.from_env({"MAUMAU_SMTP_URL": url, "MAUMAU_SIGNIN_LINK_MINUTES": "30"})
    assert settings.smtp_url == url and settings.signin_link_minutes == 30
    shown = repr(settings)
    assert "s3cret" not in shown
    assert "smtp://club:***@mail.example.org:587?from=club@example.org&starttls=yes" in shown
    for wrong in ("mail.example.org:25", "http://mail.example.org", "smtp://"):
        with pytest.raises(ValueError, match="MAUMAU_SMTP_URL"):
            Settings.from_env({"MAUMAU_SMTP_URL": wrong})
    with pytest.raises(ValueError, match="MAUMAU_SIGNIN_LINK_MINUTES"):
        Settings.from_env({"MAUMAU_SIGNIN_LINK_MINUTES": "0"})


def test_the_public_url_is_none_by_default_and_read_without_its_trailing_slash():
    assert Settings.from_env({}).public_url is None
    assert Settings.from_env({"MAUMAU_PUBLIC_URL": ""}).public_url is None
    for given, read in [
        ("https://cards.example.org", "https://cards.example.org"),
        (" https://cards.example.org/ ", "https://cards.example.org"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("https://example.org/cards/", "https://example.org/cards"),
    ]:
        assert Settings.from_env({"MAUMAU_PUBLIC_URL": given}).public_url == read


@pytest.mark.parametrize(
    "value",
    [
        "cards.example.org",  # no scheme
        "ftp://cards.example.org",
        "https://",  # no host
        "https://cards.example.org?club=1",
        "https://cards.example.org/#top",
        "https://club:s3cret@cards.example.org",
        "https://cards.example.org:port",
        "https://cards example.org",
    ],
)
def test_a_public_url_that_is_no_absolute_http_address_is_refused_with_the_variable_named(value):
    with pytest.raises(ValueError, match="MAUMAU_PUBLIC_URL must be an address such as https://"):
        Settings.from_env({"MAUMAU_PUBLIC_URL": value})
