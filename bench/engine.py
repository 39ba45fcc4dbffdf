"""Engine speed: 4-player `club` matches with random bots against OpenSpiel's crazy_eights.

Both games are driven from Python the same way: ask for the legal actions,
pick one uniformly at random, apply it; chance (deals, recycles) is settled
from outside and not counted. Every command goes through our real decider
path (decide -> events -> evolve, events kept). A decision is any choice a
seat makes (play, draw, keep, name a suit, call), so a jack played with a
named suit is two decisions (OpenSpiel's crazy_eights plays an 8 and then
nominates the suit as two actions) and a play said with "Mau" is two; the
commands per second are printed too. The two engines run in alternating
slices so machine noise hits both alike.

    ./run bench engine [--seconds 20] [--presets] [--modifier quick] [--modifier blind]

With ``--presets``, each other preset is then timed the same way in slices alternating with club's,
and its decisions per second are printed beside club's (goal: every preset at least half of club's).
Each ``--modifier`` times every preset, club included, once more with that modifier on, against
club without it: figures only, the issue sets no goal for them.
"""

import argparse
import random
import statistics
import time
from collections.abc import Callable

import pyspiel

from service.domain.bots import RandomBot
from service.domain.commands import PlayCard
from service.domain.engine import decide
from service.domain.events import Event
from service.domain.presets import PRESETS
from service.domain.rulebook import NO_CALL
from service.domain.ruleset_options import ruleset
from service.domain.rulesets import MODIFIERS
from service.domain.state import DEAL, NAMING_SUIT, OVER, RECYCLE
from service.domain.table import Table

Slice = Callable[[float], tuple[int, int, float]]


def ours(
    seconds: float, seed: int = 0, name: str = "club", modifier: str = ""
) -> tuple[int, int, int, float]:
    """(decisions, commands, rounds, elapsed) of matches of preset ``name`` (with ``modifier`` on,
    when given) played for about ``seconds``."""
    rules = ruleset(name, **({modifier: True} if modifier else {}))
    rng = random.Random(seed)
    bots = [RandomBot(rng) for _ in range(4)]
    commands = rounds = extra_choices = 0
    match = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        table = Table(rules, 4, f"{seed}:{match}")
        s, shuffler = table.state, table.shuffler
        log: list[Event] = table.events
        while s.phase != OVER:
            phase = s.phase
            if phase == DEAL or phase == RECYCLE:
                events = decide(s, shuffler.outcome(s))
                rounds += phase == DEAL
            else:
                seat = s.dealer if phase == NAMING_SUIT else s.turn
                command = bots[seat].choose(s, seat)
                events = decide(s, command)
                commands += 1
                if type(command) is PlayCard:
                    extra_choices += (command.suit >= 0) + (command.call != NO_CALL)
            for event in events:
                event.apply(s)
            log += events
        match += 1
    return commands + extra_choices, commands, rounds, time.perf_counter() - start


def openspiel(seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """(decisions, games, elapsed) of crazy_eights games played for about ``seconds``."""
    game = pyspiel.load_game("crazy_eights", {"players": 4})
    rand = random.Random(seed).random
    decisions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(rand() * len(actions))])
                decisions += 1
        games += 1
    return decisions, games, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20.0, help="total measuring time")
    parser.add_argument("--slices", type=int, default=10)
    parser.add_argument("--presets", action="store_true", help="also time every other preset against club")
    parser.add_argument(
        "--modifier",
        action="append",
        choices=MODIFIERS,
        default=[],
        help="also time every preset with this modifier on against plain club (repeatable)",
    )
    args = parser.parse_args()
    per_slice = args.seconds / (2 * args.slices)
    ours(0.3)
    openspiel(0.3)
    ratios, command_ratios, our_rates, command_rates, their_rates, round_rates = [], [], [], [], [], []
    for _ in range(args.slices):
        decisions, commands, rounds, elapsed = ours(per_slice)
        their_decisions, _, their_elapsed = openspiel(per_slice)
        our_rate, their_rate = decisions / elapsed, their_decisions / their_elapsed
        our_rates.append(our_rate)
        command_rates.append(commands / elapsed)
        their_rates.append(their_rate)
        round_rates.append(rounds / elapsed)
        ratios.append(our_rate / their_rate)
        command_ratios.append(commands / elapsed / their_rate)
    ratio = statistics.median(ratios)
    median = statistics.median
    print(
        f"club 4 players, random bots: {median(our_rates):,.0f} decisions/s "
        f"({median(command_rates):,.0f} commands/s), {median(round_rates):,.0f} rounds/s"
    )
    print(f"openspiel crazy_eights 4 players, random: {median(their_rates):,.0f} decisions/s")
    print(f"ratio per slice: {', '.join(f'{r:.2f}' for r in ratios)}")
    print(f"commands-only ratio (a jack's suit and a call not counted): {median(command_ratios):.2f}")
    verdict = "met" if ratio >= 1.0 else "missed"
    targets = [f"target engine_vs_openspiel measured={ratio:.2f} goal=>=1.0 {verdict}"]
    if args.presets:
        slowest = presets(per_slice, args.slices)
        verdict = "met" if slowest >= 0.5 else "missed"
        targets.append(f"target engine_slowest_preset_vs_club measured={slowest:.2f} goal=>=0.5 {verdict}")
    for modifier in args.modifier:
        slowest = presets(per_slice, args.slices, modifier)
        print(f"slowest preset with {modifier}: {slowest:.2f} of plain club's (no goal)")
    print("\n".join(targets))


def presets(per_slice: float, slices: int, modifier: str = "") -> float:
    """Each preset's decisions per second beside club's, in alternating slices; the slowest's share.

    Without ``modifier`` the presets other than club; with one, every preset with it on."""
    slowest = float("inf")
    for name in sorted(PRESETS):
        if name == "club" and not modifier:
            continue
        rates, ratios = [], []
        for _ in range(max(1, slices // 2)):
            decisions, _, _, elapsed = ours(per_slice, name=name, modifier=modifier)
            club_decisions, _, _, club_elapsed = ours(per_slice)
            rates.append(decisions / elapsed)
            ratios.append(decisions / elapsed / (club_decisions / club_elapsed))
        ratio = statistics.median(ratios)
        label = f"{name}+{modifier}" if modifier else name
        print(f"{label}: {statistics.median(rates):,.0f} decisions/s, {ratio:.2f} of club's")
        slowest = min(slowest, ratio)
    return slowest


if __name__ == "__main__":
    main()
