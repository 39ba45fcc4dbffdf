"""Settings: one object, read once from the ``MAUMAU_*`` environment variables.

- ``MAUMAU_HOST``, ``MAUMAU_PORT``: where ``maumau serve`` listens (default 127.0.0.1:8000).
- ``MAUMAU_DATABASE_URL``: ``postgresql://user:password@host:port/dbname`` for the
  distributed mode. Unset: the embedded default, an SQLite file in the data dir.
- ``MAUMAU_DATABASE_SCHEMA``: the PostgreSQL schema for the tables (default ``public``).
- ``MAUMAU_DATA_DIR``: where the embedded mode keeps its files (default ``./var``).
- ``MAUMAU_SNAPSHOT_INTERVAL``: a game is snapshotted every this many events (default 50).
- ``MAUMAU_POOL_SIZE``: database connections per process (default 5).
- ``MAUMAU_DATABASE_TIMEOUT``: whole seconds a process waits for PostgreSQL to connect or for a
  free connection of any of its pools (default 2). While the database is down a request then
  answers 503 ``unavailable`` within about twice this (see ``service.persistence.postgres``).
- ``MAUMAU_GAME_CACHE``: games kept in memory per process (default 1000; 0: none).
- ``MAUMAU_GROUP_COMMIT``: on PostgreSQL, save the moves of many games in one
  transaction (default yes; see ``service.persistence.group_commit``).
- ``MAUMAU_ADMIN_TOKEN``: when set, also accepted as an admin's bearer token (kept only as its hash
  once the HTTP app starts); ``maumau serve`` then creates no first admin credential.
- ``MAUMAU_RUN_PROJECTIONS``: the HTTP process keeps the read models up to date itself, in a
  background thread (default yes; say no when a separate projection runner does it).
- ``MAUMAU_PROJECTION_POLL_MS``: how often the projection runner looks for new events when
  nothing woke it (default 20; on PostgreSQL every insert's NOTIFY wakes it at once, and while it
  listens it looks again after a second at the latest; on SQLite it asks the file this often
  whether a commit changed it, and reads the log only then, or after a second).
- ``MAUMAU_PROJECTION_BATCH_MS``: after each write, the projection runner gathers new events this
  long before it writes again (default 0: as soon as it has caught up). Under a steady stream of
  moves each write then carries several moves of a game: far less work per move, the read
  models that much later (deploy/ sets 25).
- ``MAUMAU_BROKER_URL``: the Celery broker, ``redis://host:port/db`` (or ``amqp://``) for the
  distributed mode. Unset: the embedded default, kombu's filesystem transport in ``<data dir>/broker``
  (no server needed; one machine only).
- ``MAUMAU_BROKER_PREFIX``: a prefix for every key the workers keep in Redis (default none), so
  several services or test runs can share one Redis.
- ``MAUMAU_BROKER_VISIBILITY_TIMEOUT``: seconds after which Redis hands a task whose worker died
  (no acknowledgement) to another worker (default 3600; tests make it small).
- ``MAUMAU_BOT_THINK``: seconds a bot waits before each move, so people at the table can follow
  (default 0.5; 0: bots play straight through).
- ``MAUMAU_TICK``: seconds between the scheduler's ticks, which start due tournaments and rounds
  (default 2).
- ``MAUMAU_STALLED_AFTER``: seconds without an event after which a game whose bot is to move (or a
  tournament's table whose clock should have run out) counts as stalled, its task lost: the tick
  queues it again (default 30).
- ``MAUMAU_REDEEM_REFUSALS``: wrong secrets a client address may send for one invitation (or one
  sign-in link, or one league's passwords on the sign-in page) in a minute, per API process, before
  further wrong ones are answered 429 ``too_many_attempts`` (default 20; 0: no limit). A right code
  is always answered as it stands; a right password waits out the minute too.
- ``MAUMAU_SIGNIN_LINK_MINUTES``: how long a one-time sign-in link (made on the admin page or a
  player's own page) signs in before it expires (default 15).
- ``MAUMAU_SMTP_URL``: ``smtp://[user:password@]host:port[?from=club@example.org]`` (``smtps://``
  for TLS from the start; ``?starttls=yes`` to upgrade a plain connection): the admin page then
  offers to send an invitation's or a sign-in link by mail (``service.usecases.mail``). Unset
  (the default): nothing is mailed and the forms ask for no address. With it, people who chose mail
  on their page are mailed their notices too (docs/web.md, "Notifications").
- ``MAUMAU_PUBLIC_URL``: the address people reach the service at (``https://cards.example.org``; a
  path after it if a proxy serves it there): a notice's mail then ends with a link to the page it is
  about, and the admin page's invitations and sign-in links are made with it rather than with the
  address a request came to (behind a proxy that address may be an inner one). Unset (the default):
  the mails carry words only; the links take the request's address.
- ``MAUMAU_NOTIFY_MOVE_AFTER``: seconds a person's turn waits before "it is your move" is mailed to
  them (default 300): a mail only if they have not moved by then, one per turn (docs/web.md).
- ``MAUMAU_TRUSTED_PROXIES``: the addresses (or networks, ``10.0.0.0/8``) of the reverse proxies in
  front of the API, comma-separated, whose ``X-Forwarded-For`` is believed for a request's client
  address (default none: the address the connection comes from, as in ``service.auth.peer``).
- ``MAUMAU_CORS_ORIGINS``: the web origins (``https://club.example``, comma-separated; ``*``: any)
  whose pages may call the API from a browser (Cross-Origin Resource Sharing), with a bearer token:
  never with the pages' session cookie (default none: no other site's page may).
- ``MAUMAU_WEBHOOK_RETRIES``: how many times a webhook delivery whose receiver failed is tried again
  (default 5; 0: tried once) before it counts as failed.
- ``MAUMAU_WEBHOOK_BACKOFF``: seconds before the first retry; each later one waits twice as long as
  the one before (default 10: 10, 20, 40, 80, 160 s).
- ``MAUMAU_WEBHOOK_TIMEOUT``: seconds a receiver has to connect and answer a delivery (default 5).
- ``MAUMAU_WEBHOOK_DISABLE_AFTER``: a hook whose last this many deliveries all failed is disabled,
  with the reason (default 5).
- ``MAUMAU_TOKEN_CACHE_SECONDS``: how long an API process trusts a bearer token it accepted without
  looking its credential up again (default 10; 0: every request looks it up). A token revoked through
  another process is refused within this many seconds; through the same process, at once.
- ``MAUMAU_SESSION_SECRET``: the key that signs the web pages' session cookies (any text, 32
  characters or more). Unset: a random one is made on first use and kept in
  ``MAUMAU_DATA_DIR/session.secret``; processes that share no data directory need the same value.
- ``MAUMAU_SECURE_COOKIES``: ``auto`` (the default) marks the web pages' cookies ``Secure`` on a
  request that came over HTTPS, as uvicorn sees it: directly, or through a proxy it trusts
  (``--forwarded-allow-ips``, which sets the scheme from ``X-Forwarded-Proto``); ``yes`` marks them
  ``Secure`` always (behind a TLS proxy uvicorn does not trust, say).
- ``MAUMAU_LOG_LEVEL``: DEBUG, INFO, WARNING or ERROR (default INFO).
- ``MAUMAU_LOG_FORMAT``: ``json`` (one object per line, for collectors), ``text`` (for people) or
  ``auto`` (the default: text when standard error is a terminal, else json).
- ``MAUMAU_CREATE_TABLES``: each process creates the tables it needs when missing (default yes). Say
  no in the distributed mode, where ``maumau db init`` creates them once before the processes start
  (no process then needs the right to change the schema, and none races another doing so).
- ``MAUMAU_READY_MAX_LAG``, ``MAUMAU_READY_MAX_LAG_SECONDS``: ``/ready`` answers 503 when the read
  models are more than this many events behind the log (default 100) and the oldest event they lack
  was stored more than this many seconds ago (default 30; 0: at once). ``MAUMAU_READY_MAX_LAG=off``:
  the lag is reported, never refused. (A failing projection runner makes ``/ready`` refuse anyway.)
- ``MAUMAU_METRICS_PORT``: a process without an HTTP API (a worker, the beat, the projection runner)
  serves its Prometheus metrics on this port (default none: it serves none).

``get_settings()`` is cached; tests build their own with ``Settings.from_env(...)``.
"""

import ipaddress
import os
import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

import msgspec

N = TypeVar("N", int, float)  # a number read from the environment

SQLITE_FILE_NAME = "maumau.sqlite3"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
LOG_FORMATS = ("auto", "json", "text")
SECURE_COOKIES = ("auto", "yes")


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    host: str = "127.0.0.1"  # where `maumau serve` listens
    port: int = 8000
    database_url: str | None = None
    database_schema: str = ""
    data_dir: Path = Path("var")
    snapshot_interval: int = 50
    pool_size: int = 5
    database_timeout: int = 2  # seconds: a connect, a pool checkout
    game_cache: int = 1000  # games kept in memory per process; 0: load every game for every command
    group_commit: bool = True  # PostgreSQL: moves of many games share a transaction
    admin_token: str | None = None  # also accepted as an admin's bearer token
    run_projections: bool = True  # the HTTP process runs the projections in a thread
    projection_poll_ms: int = 20  # the projection runner looks for new events at least this often
    projection_batch_ms: int = 0  # the projection runner's pause after a write, to gather a batch
    broker_url: str | None = None  # None: the embedded filesystem broker under data_dir
    broker_prefix: str = ""  # Redis: a prefix for every key
    broker_visibility_timeout: int = 3600  # Redis: seconds before an unacknowledged task is redelivered
    bot_think: float = 0.5  # seconds a bot waits before each move
    tick: float = 2.0  # seconds between the scheduler's ticks
    stalled_after: float = 30.0  # seconds without an event before the tick queues a bot's turn again
    log_level: str = "INFO"
    log_format: str = "auto"  # json, text, or auto (text on a terminal)
    create_tables: bool = True  # False: only `maumau db init` creates tables
    ready_max_lag: int | None = 100  # events; None: lag never makes /ready refuse
    ready_max_lag_seconds: float = 30.0  # ... for longer than this (the oldest event's age)
    metrics_port: int | None = None  # processes without the HTTP API serve /metrics here
    redeem_refusals: int = 20  # wrong secrets a minute per invitation, client address and API process; 0: any
    signin_link_minutes: int = 15  # how long a one-time sign-in link works
    smtp_url: str | None = None  # where links are mailed from; None: no mail
    public_url: str | None = None  # where people reach the service, no trailing slash; None: not known
    notify_move_after: float = 300.0  # seconds a turn waits before "your move" is mailed
    trusted_proxies: tuple[str, ...] = ()  # addresses or networks whose X-Forwarded-For is believed
    cors_origins: tuple[str, ...] = ()  # web origins whose pages may call the API; ("*",): any
    webhook_retries: int = 5  # tries after a delivery's first
    webhook_backoff: float = 10.0  # seconds before the first retry, doubling after each
    webhook_timeout: float = 5.0  # seconds a receiver has to answer
    webhook_disable_after: int = 5  # failed deliveries in a row that disable a hook
    token_cache_seconds: float = 10.0  # how long an accepted token is trusted without a lookup
    session_secret: str | None = None  # signs the web pages' session cookie; None: one kept in data_dir
    secure_cookies: str = "auto"  # the pages' cookies Secure: auto (over HTTPS) or yes (always)

    def __repr__(self) -> str:
        """Every setting, the secrets masked: settings end up in logs and tracebacks."""
        shown = {name: getattr(self, name) for name in self.__struct_fields__}
        for secret in ("admin_token", "session_secret"):
            if shown[secret] is not None:
                shown[secret] = "***"
        for name in ("database_url", "broker_url", "smtp_url"):
            if shown.get(name):
                shown[name] = _masked_url(shown[name])
        return f"Settings({', '.join(f'{name}={value!r}' for name, value in shown.items())})"

    @classmethod
    def given_or_env(cls, given: object) -> "Settings":
        """``given`` when it is settings (a command line's caller that has them), else the environment's."""
        return given if isinstance(given, Settings) else cls.from_env()

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "Settings":
        env = os.environ if environ is None else environ
        return cls(
            host=env.get("MAUMAU_HOST") or "127.0.0.1",
            port=_int(env, "MAUMAU_PORT", 8000),
            database_url=env.get("MAUMAU_DATABASE_URL") or None,
            database_schema=env.get("MAUMAU_DATABASE_SCHEMA", ""),
            data_dir=Path(env.get("MAUMAU_DATA_DIR") or "var"),
            snapshot_interval=_int(env, "MAUMAU_SNAPSHOT_INTERVAL", 50),
            pool_size=_int(env, "MAUMAU_POOL_SIZE", 5),
            database_timeout=_int(env, "MAUMAU_DATABASE_TIMEOUT", 2),
            game_cache=_int(env, "MAUMAU_GAME_CACHE", 1000, least=0),
            group_commit=_flag(env, "MAUMAU_GROUP_COMMIT", True),
            admin_token=env.get("MAUMAU_ADMIN_TOKEN") or None,
            run_projections=_flag(env, "MAUMAU_RUN_PROJECTIONS", True),
            projection_poll_ms=_int(env, "MAUMAU_PROJECTION_POLL_MS", 20),
            projection_batch_ms=_int(env, "MAUMAU_PROJECTION_BATCH_MS", 0, least=0),
            broker_url=env.get("MAUMAU_BROKER_URL") or None,
            broker_prefix=env.get("MAUMAU_BROKER_PREFIX", ""),
            broker_visibility_timeout=_int(env, "MAUMAU_BROKER_VISIBILITY_TIMEOUT", 3600),
            bot_think=_seconds(env, "MAUMAU_BOT_THINK", 0.5, least=0.0),
            tick=_seconds(env, "MAUMAU_TICK", 2.0, least=0.05),
            stalled_after=_seconds(env, "MAUMAU_STALLED_AFTER", 30.0, least=0.1),
            redeem_refusals=_int(env, "MAUMAU_REDEEM_REFUSALS", 20, least=0),
            signin_link_minutes=_int(env, "MAUMAU_SIGNIN_LINK_MINUTES", 15, least=1),
            smtp_url=_smtp_url(env, "MAUMAU_SMTP_URL"),
            public_url=_public_url(env, "MAUMAU_PUBLIC_URL"),
            notify_move_after=_seconds(env, "MAUMAU_NOTIFY_MOVE_AFTER", 300.0, least=0.0),
            trusted_proxies=_networks(env, "MAUMAU_TRUSTED_PROXIES"),
            cors_origins=_origins(env, "MAUMAU_CORS_ORIGINS"),
            log_level=_choice(env, "MAUMAU_LOG_LEVEL", LOG_LEVELS, "INFO"),
            log_format=_choice(env, "MAUMAU_LOG_FORMAT", LOG_FORMATS, "auto"),
            create_tables=_flag(env, "MAUMAU_CREATE_TABLES", True),
            ready_max_lag=_limit(env, "MAUMAU_READY_MAX_LAG", 100),
            ready_max_lag_seconds=_seconds(env, "MAUMAU_READY_MAX_LAG_SECONDS", 30.0, least=0.0),
            metrics_port=_optional_int(env, "MAUMAU_METRICS_PORT", least=1),
            webhook_retries=_int(env, "MAUMAU_WEBHOOK_RETRIES", 5, least=0),
            webhook_backoff=_seconds(env, "MAUMAU_WEBHOOK_BACKOFF", 10.0, least=0.0),
            webhook_timeout=_seconds(env, "MAUMAU_WEBHOOK_TIMEOUT", 5.0, least=0.1),
            webhook_disable_after=_int(env, "MAUMAU_WEBHOOK_DISABLE_AFTER", 5),
            token_cache_seconds=_seconds(env, "MAUMAU_TOKEN_CACHE_SECONDS", 10.0, least=0.0),
            session_secret=env.get("MAUMAU_SESSION_SECRET") or None,
            secure_cookies=_choice(env, "MAUMAU_SECURE_COOKIES", SECURE_COOKIES, "auto"),
        )

    @property
    def uses_postgres(self) -> bool:
        return self.database_url is not None

    @property
    def sqlite_path(self) -> Path:
        return self.data_dir / SQLITE_FILE_NAME

    @property
    def broker_dir(self) -> Path:
        """Where the embedded filesystem broker keeps its messages."""
        return self.data_dir / "broker"

    def persistence_env(self) -> dict[str, str]:
        """The eventsourcing settings (``PERSISTENCE_MODULE``, ``POSTGRES_*`` or ``SQLITE_*``)."""
        if self.database_url is None:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            return {
                "PERSISTENCE_MODULE": "eventsourcing.sqlite",
                "SQLITE_DBNAME": str(self.sqlite_path),
                **self._create_table_env(),
            }
        env = {
            # eventsourcing's PostgreSQL factory, every wait for the database bounded
            "PERSISTENCE_MODULE": "service.persistence.postgres:Factory",
            "POSTGRES_POOL_SIZE": str(self.pool_size),
            "POSTGRES_CONNECT_TIMEOUT": str(self.database_timeout),
            **postgres_env(self.database_url),
            **self._create_table_env(),
        }
        if self.database_schema:
            env["POSTGRES_SCHEMA"] = self.database_schema
        # either way the log's writers take its advisory lock, not the table's (``persistence.log_lock``)
        env["APPLICATION_RECORDER_TOPIC"] = (
            "service.persistence.group_commit:GroupCommitRecorder"
            if self.group_commit
            else "service.persistence.log_lock:LogLockedRecorder"
        )
        return env

    def _create_table_env(self) -> dict[str, str]:
        # eventsourcing's recorders create their tables on construction unless CREATE_TABLE says no
        return {} if self.create_tables else {"CREATE_TABLE": "no"}


def postgres_env(url: str) -> dict[str, str]:
    """``POSTGRES_DBNAME``, ``_HOST``, ``_PORT``, ``_USER``, ``_PASSWORD`` from a database URL."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        params = conninfo_to_dict(url)
    except Exception as error:  # psycopg.ProgrammingError: not a URL or conninfo string
        raise ValueError(f"MAUMAU_DATABASE_URL is not a PostgreSQL URL: {error}") from None
    missing = [key for key in ("dbname", "host") if not params.get(key)]
    if missing:
        raise ValueError(f"MAUMAU_DATABASE_URL names no {' or '.join(missing)}")
    return {
        "POSTGRES_DBNAME": str(params["dbname"]),
        "POSTGRES_HOST": str(params["host"]),
        "POSTGRES_PORT": str(params.get("port") or 5432),
        "POSTGRES_USER": str(params.get("user") or "postgres"),
        "POSTGRES_PASSWORD": str(params.get("password") or ""),
    }


def _smtp_url(env: Mapping[str, str], name: str) -> str | None:
    text = env.get(name, "").strip()
    if not text:
        return None
    scheme, separator, rest = text.partition("://")
    if scheme not in ("smtp", "smtps") or not separator or not rest.split("?")[0].rpartition("@")[2]:
        raise ValueError(f"{name} must read smtp://[user:password@]host:port, not {_masked_url(text)!r}")
    return text


def _public_url(env: Mapping[str, str], name: str) -> str | None:
    """An absolute http(s) URL, without its trailing slash: links are made by appending a path to it
    (so no query, fragment or credentials, which would end up inside every link)."""
    text = env.get(name, "").strip()
    if not text:
        return None
    if not _absolute_url(text):
        raise ValueError(
            f"{name} must be an address such as https://cards.example.org (http or https, a host, "
            f"maybe a path; no query, fragment or password), not {text!r}"
        )
    return text.rstrip("/")


def _absolute_url(text: str) -> bool:
    """``http(s)://host[:port][/path]``, nothing else: no query, fragment, credentials or spaces."""
    if any(character in text for character in "?#@") or any(character.isspace() for character in text):
        return False
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018  # read for its check: a port that is no number raises
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def _masked_url(url: str) -> str:
    """``scheme://user:***@host/...``: the URL without its password (its query kept as it is: an
    address there, ``?from=club@example.org``, is no password)."""
    url, mark, query = url.partition("?")
    scheme, separator, rest = url.partition("://")
    credentials, at, place = rest.rpartition("@")
    if not separator or not at or ":" not in credentials:
        return url + mark + query
    return f"{scheme}://{credentials.split(':', 1)[0]}:***@{place}{mark}{query}"


def _parsed(env: Mapping[str, str], name: str, parse: Callable[[str], N], kind: str) -> N | None:
    """``name``'s value read by ``parse``; None when it is unset or empty. ``kind``: what it must be."""
    text = env.get(name)
    if not text:
        return None
    try:
        return parse(text)
    except ValueError:
        raise ValueError(f"{name} {kind}, not {text!r}") from None


def _int(env: Mapping[str, str], name: str, default: int, least: int = 1) -> int:
    value = _parsed(env, name, int, "must be a whole number")
    if value is None:
        return default
    if value < least:
        raise ValueError(f"{name} must be at least {least}")
    return value


def _seconds(env: Mapping[str, str], name: str, default: float, least: float) -> float:
    value = _parsed(env, name, float, "is a number of seconds")
    if value is None:
        return default
    if not value >= least or value == float("inf"):  # `not >=` also refuses NaN
        raise ValueError(f"{name} must be at least {least} seconds")
    return value


def _optional_int(env: Mapping[str, str], name: str, least: int) -> int | None:
    return _int(env, name, 0, least) if env.get(name) else None


def _limit(env: Mapping[str, str], name: str, default: int) -> int | None:
    """A bound of at least 0, or ``off`` (None: no bound)."""
    if env.get(name, "").strip().lower() in ("off", "none"):
        return None
    return _int(env, name, default, least=0)


def _networks(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """Comma-separated IP addresses or networks, each as ``ipaddress`` writes it (an address: a /32 or
    /128 network)."""
    found: list[str] = []
    for text in env.get(name, "").split(","):
        if not text.strip():
            continue
        try:
            found.append(str(ipaddress.ip_network(text.strip(), strict=False)))
        except ValueError:
            raise ValueError(f"{name} holds {text.strip()!r}, not an IP address or network") from None
    return tuple(found)


ORIGIN = re.compile(r"https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?")


def _origins(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """Comma-separated web origins (a scheme, a host and maybe a port: what a browser sends as
    ``Origin``, without a path or a trailing slash), or ``*`` alone."""
    found = tuple(text.strip() for text in env.get(name, "").split(",") if text.strip())
    if found == ("*",):
        return found
    for origin in found:
        if not ORIGIN.fullmatch(origin):
            raise ValueError(
                f"{name} holds {origin!r}, not an origin such as https://club.example (or * alone)"
            )
    return found


def _choice(env: Mapping[str, str], name: str, choices: tuple[str, ...], default: str) -> str:
    text = env.get(name, "").strip()
    if not text:
        return default
    for choice in choices:
        if text.lower() == choice.lower():
            return choice
    raise ValueError(f"{name} must be one of {', '.join(choices)}, not {text!r}")


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    text = env.get(name, "").strip().lower()
    if not text:
        return default
    if text in ("1", "y", "yes", "true", "on"):
        return True
    if text in ("0", "n", "no", "false", "off"):
        return False
    raise ValueError(f"{name} must be yes or no, not {text!r}")


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings.from_env()
