"""``maumau demo``: a league, a player and a small all-bot tournament, to watch the service at work.

It writes through the application to the store the ``MAUMAU_*`` settings name
(the one ``maumau serve`` uses), starts the tournament and its first round at
once (rather than at the beat's next tick, so there is a game to watch when the
URLs are printed) and queues the bots' first moves for the workers. So it works
while ``maumau serve`` runs in another terminal, and before it starts (the
queued moves wait in the broker until a worker runs). ``maumau serve --demo``
does the same as it starts.

The tournament: ``--bots`` heuristic bots, Swiss, ``--rounds`` rounds at tables of
up to ``--table-size``, each game a single round of the league's ruleset, so the
first tables finish, and the standings move, within seconds at the default bot
think time, and the whole tournament in about a minute on a quiet machine (longer
on a busy one). The standings and the bracket are the tournament's (bots are no
league members, so the league's own standings stay empty).
``python -m service.demo`` runs it on its own.

The demo never talks to the server (it writes to the store), so it cannot tell
where the server listens: the links it prints are on ``--url``, by default the
``MAUMAU_HOST`` and ``MAUMAU_PORT`` that ``maumau serve`` listens on without
options. Give ``--url`` when the server was started with ``--port`` or ``--host``.
"""

from datetime import UTC, datetime
from urllib.parse import urlsplit
from uuid import UUID

import click
import msgspec

from service.application import MauMau, credentials
from service.domain.league import Player
from service.domain.tournament_plan import Plan
from service.settings import get_settings
from workers.conduct import Conductor, Dispatch

LEAGUE = "Demo league"
TOURNAMENT = "Demo cup"
PLAYER = "Newcomer"


class Demo(msgspec.Struct, frozen=True, kw_only=True):
    league_id: UUID
    tournament_id: UUID
    plan: Plan
    games: list[UUID]  # round 1's games, by table
    player_id: UUID
    player_token: str  # shown once: only its hash is stored


def demo_plan(bots: int = 8, table_size: int = 4, rounds: int = 3) -> Plan:
    return Plan(
        format="swiss",
        table_size=table_size,
        rounds=rounds,
        single_round=True,
        places=bots,
        starts_at=datetime.now(UTC),
    )


def set_up(app: MauMau, plan: Plan | None = None, dispatch: Dispatch | None = None) -> Demo:
    """The demo league, its player and its tournament, started, the bots' first moves queued (through
    Celery, to the broker the settings name, unless ``dispatch`` says otherwise)."""
    plan = plan or demo_plan()
    if dispatch is None:
        from workers.app import CeleryDispatch

        dispatch = CeleryDispatch()
    league_id = app.found_league(LEAGUE)
    player = Player.register(PLAYER)  # saved with its first token, in one transaction
    issued = credentials.issue(app, "player", str(player.id), player.name, None, player)
    app.admit_member(league_id, player.id)
    tournament_id = app.create_tournament(league_id, TOURNAMENT, plan)
    # what the beat's next tick would do: start it, create round 1's games, queue their bots
    Conductor(app, dispatch).conduct_tournament(tournament_id)
    first = app.get_tournament(tournament_id).rounds[0]
    return Demo(
        league_id=league_id,
        tournament_id=tournament_id,
        plan=plan,
        games=[first.games[table] for table in sorted(first.games)],
        player_id=player.id,
        player_token=issued.token,
    )


def describe(demo: Demo, base: str) -> str:
    """What to look at, as lines for a terminal: the pages for a person first, then the API's routes."""
    plan, tournament = demo.plan, demo.tournament_id
    game = demo.games[0] if demo.games else None
    lines = [
        f"demo: league {LEAGUE!r} {demo.league_id}; tournament {TOURNAMENT!r} {tournament}: "
        f"{plan.places} bots, swiss, {plan.rounds} rounds at tables of up to {plan.table_size}",
        "  in a browser:",
        f"    the tournament, its rounds and ranking, live:  {base}/web/tournaments/{tournament}",
    ]
    if game is not None:
        lines.append(f"    a game of round 1, live:                       {base}/web/games/{game}")
    lines += [
        "  for programs (JSON):",
        f"    the tournament, its rounds and standings:      {base}/tournaments/{tournament}",
    ]
    if game is not None:
        lines += [
            f"    a game of round 1, as it stands:               {base}/games/{game}",
            f"    the same game live (Server-Sent Events):       curl -N {base}/games/{game}/stream",
        ]
    lines.append(
        f"  {PLAYER}, a player of the league: id {demo.player_id}, token (shown once) {demo.player_token}"
    )
    return "\n".join(lines)


def _base_url(_: click.Context, __: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    parsed = urlsplit(value)
    if parsed.scheme not in ("http", "https") or not parsed.netloc or parsed.query or parsed.fragment:
        raise click.BadParameter(f"{value!r} is not the server's address, e.g. http://127.0.0.1:8000")
    return value.rstrip("/")


@click.command("demo")
@click.option("--bots", type=click.IntRange(2, 64), default=8, show_default=True, help="Entrants.")
@click.option(
    "--table-size",
    type=click.IntRange(2, 6),
    default=4,
    show_default=True,
    help="Most seats at a table (2 to 6, as tournaments allow).",
)
@click.option("--rounds", type=click.IntRange(1, 10), default=3, show_default=True)
@click.option(
    "--url",
    callback=_base_url,
    help="Where the server answers, for the links printed  [default: http://MAUMAU_HOST:MAUMAU_PORT]",
)
def demo(bots: int, table_size: int, rounds: int, url: str | None) -> None:
    """Create a demo league, a player and an all-bot tournament, started; print the URLs to watch."""
    settings = get_settings()
    app = MauMau(settings)
    try:
        made = set_up(app, demo_plan(bots, table_size, rounds))
    finally:
        app.close()
    click.echo(describe(made, url or f"http://{settings.host}:{settings.port}"))


if __name__ == "__main__":
    demo()
