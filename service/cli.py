"""The `maumau` command: serve, admin, db, demo, projections, worker, beat, simulate."""

import sys
from collections.abc import Callable

import click
from click.decorators import FC

from service.demo import demo
from service.domain.bots import BOTS
from service.domain.errors import RuleError
from service.domain.rulesets import MODIFIERS
from service.http.cli import admin_group, serve_command
from service.ops_cli import db
from service.projections.cli import projections
from service.simulation import Summary, check_setup, simulate
from workers.cli import beat, worker

# The option each setup refusal is about, so the error names it.
_PARAM_OF_CODE = {"unknown_ruleset": "--ruleset", "player_count": "--players"}


@click.group()
def main() -> None:
    """maumau: the Mau-Mau club service."""


main.add_command(serve_command)
main.add_command(admin_group)
main.add_command(db)
main.add_command(demo)
main.add_command(projections)
main.add_command(worker)
main.add_command(beat)


def _chance(flag: str, default: float, help: str) -> Callable[[FC], FC]:
    """An option that is a probability (0 to 1)."""
    return click.option(flag, type=click.FloatRange(0.0, 1.0), default=default, show_default=True, help=help)


@main.command("simulate")
@click.option("--ruleset", "ruleset_name", default="club", show_default=True, help="Preset to play.")
@click.option("--players", type=int, default=4, show_default=True, help="Seats at each table.")
@click.option("--matches", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option(
    "--seed", type=int, default=7, show_default=True, help="Every shuffle and bot choice follows it."
)
@click.option("--bot", type=click.Choice(sorted(BOTS)), default="heuristic", show_default=True)
@click.option(
    "--against",
    type=click.Choice(sorted(BOTS)),
    default=None,
    help="The other seats' bot; seat 0 plays --bot. Default: every seat plays --bot.",
)
@click.option(
    "--modifier",
    "modifiers",
    type=click.Choice(MODIFIERS),
    multiple=True,
    help="Play the preset with this modifier (repeat for several).",
)
@_chance("--forgetfulness", 0.1, "Chance a bot misses a call it owes.")
@_chance("--vigilance", 0.5, "Chance a bot challenges a missed call it is offered.")
def simulate_command(
    ruleset_name: str,
    players: int,
    matches: int,
    seed: int,
    bot: str,
    against: str | None,
    forgetfulness: float,
    vigilance: float,
    modifiers: tuple[str, ...],
) -> None:
    """Play whole matches with bots and print a summary (the same seed, the same output)."""
    try:
        check_setup(ruleset_name, players, bot, against, modifiers)
    except RuleError as error:
        param = _PARAM_OF_CODE.get(error.code)
        if param is None:
            raise click.UsageError(error.message) from None
        raise click.BadParameter(error.message, param_hint=f"'{param}'") from None
    with click.progressbar(length=matches, label="simulating", file=sys.stderr) as bar:
        summary = simulate(
            ruleset_name,
            players,
            matches,
            seed,
            bot,
            forgetfulness,
            vigilance,
            on_match=lambda _match: bar.update(1),
            against=against,
            modifiers=modifiers,
        )
    click.echo(format_summary(summary))


def format_summary(s: Summary) -> str:
    def share(part: float, whole: float) -> str:
        return f"{100 * part / whole:.1f}%" if whole else "-"

    seats = "  ".join(
        f"{seat}: {wins:.2f} ({share(wins, s.matches)})" for seat, wins in enumerate(s.win_shares)
    )
    # a row only where rounds stalled: club and mau-mau-150 never stall, and their summary stays as it was
    stalled = (
        [("rounds ended stalled", f"{s.rounds_stalled} ({share(s.rounds_stalled, s.rounds)})")]
        if s.rounds_stalled
        else []
    )
    rows = [
        ("matches", f"{s.matches}"),
        ("rounds", f"{s.rounds}"),
        ("turns (decisions by seats)", f"{s.turns}"),
        ("average match length", f"{s.rounds_per_match:.2f} rounds, {s.turns_per_match:.1f} turns"),
        ("win share by seat", seats),
        ("rounds ended by exhaustion", f"{s.rounds_exhausted} ({share(s.rounds_exhausted, s.rounds)})"),
        *stalled,
        ("calls missed", f"{s.calls_missed}"),
        ("missed calls challenged", f"{s.calls_challenged} ({share(s.calls_challenged, s.calls_missed)})"),
        ("rounds won by unchallenged Mau Mau", f"{s.wins_by_missed_mau_mau}"),
    ]
    if s.against is None:
        bots = f"{s.bot} bots"
    else:
        bots = f"a {s.bot} bot in seat 0 against {s.against} bots"
        fair = f"{share(s.win_shares[0], s.matches)} (fair share {share(1, s.players)})"
        rows.append(("seat 0's win share", fair))
    played = " + ".join([s.ruleset, *s.modifiers])
    head = (
        f"{played}, {s.players} players, {bots} "
        f"(forgetfulness {s.forgetfulness:g}, vigilance {s.vigilance:g}), seed {s.seed}"
    )
    width = max(len(label) for label, _ in rows)
    return "\n".join([head, *(f"{label:<{width}}  {value}" for label, value in rows)])
