"""The simulator: whole matches played by bots, tallied into a summary.

Pure and deterministic: every random stream (each match's shuffles and each
seat's bot) is derived from one seed, so the same arguments give the same
summary. Nothing here prints; ``service.cli`` shows the summary.
"""

import random
from collections.abc import Callable, Sequence
from fractions import Fraction

import msgspec

from service.domain.bots import BOTS, HeuristicBot, RandomBot
from service.domain.commands import Challenge, StartMatch
from service.domain.engine import decide
from service.domain.errors import RuleError
from service.domain.events import CardPlayed, MatchEnded, MissedCallChallenged, RoundEnded
from service.domain.ruleset_options import ruleset
from service.domain.rulesets import MODIFIERS, Ruleset
from service.domain.state import DRAWN, NAMING_SUIT, PLAY, State
from service.domain.table import Table

# A match that has not ended after this many decisions means a bug, not a long game.
MAX_DECISIONS_PER_MATCH = 200_000


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str
    modifiers: tuple[str, ...] = ()  # the modifiers turned on (``rulesets.MODIFIERS``)
    players: int
    bot: str  # the first seat's bot, and every seat's unless ``against`` names another
    against: str | None  # the bot of every other seat
    forgetfulness: float
    vigilance: float
    seed: int
    matches: int
    rounds: int
    turns: int  # decisions made by seats: plays, draws, keeps, suits named, challenges
    win_shares: tuple[float, ...]  # matches won per seat; a shared win counts 1/len(winners)
    rounds_exhausted: int  # rounds stopped because the stock ran out, with no winner
    rounds_stalled: int  # rounds stopped with no winner because their cards only went round
    calls_missed: int  # plays that owed "Mau" or "Mau Mau" and did not say it
    calls_challenged: int  # missed calls challenged in their window
    wins_by_missed_mau_mau: int  # rounds won by an unchallenged missed "Mau Mau"

    @property
    def rounds_per_match(self) -> float:
        return self.rounds / self.matches

    @property
    def turns_per_match(self) -> float:
        return self.turns / self.matches


class MatchTally(msgspec.Struct, frozen=True, kw_only=True):
    rounds: int
    turns: int
    winners: tuple[int, ...]
    rounds_exhausted: int
    rounds_stalled: int
    calls_missed: int
    calls_challenged: int
    wins_by_missed_mau_mau: int


def check_setup(
    ruleset_name: str, players: int, bot: str, against: str | None = None, modifiers: Sequence[str] = ()
) -> Ruleset:
    """The ruleset to play with ``modifiers`` on, or a ``RuleError`` (unknown ruleset or modifier,
    wrong player count)."""
    unknown = sorted(set(modifiers) - set(MODIFIERS))
    if unknown:
        known = ", ".join(MODIFIERS)
        raise RuleError("unknown_option", why="no_modifier_modifiers", unknown=unknown[0], known=known)
    rules = ruleset(ruleset_name, **dict.fromkeys(modifiers, True))
    # the engine's own check of a match start, so the message is the engine's
    decide(State(), StartMatch(rules, players, 0))
    for name in (bot, against or bot):
        if name not in BOTS:
            raise ValueError(f"no bot {name!r}; known: {', '.join(sorted(BOTS))}")
    return rules


def simulate(
    ruleset_name: str = "club",
    players: int = 4,
    matches: int = 1000,
    seed: int = 7,
    bot: str = "heuristic",
    forgetfulness: float = 0.1,
    vigilance: float = 0.5,
    on_match: Callable[[int], None] | None = None,
    against: str | None = None,
    modifiers: Sequence[str] = (),
) -> Summary:
    """Play ``matches`` whole matches with bots and tally them.

    Seat 0 plays ``bot``; the others too, unless ``against`` names their bot (one
    heuristic bot against random ones measures what its play is worth).
    ``on_match(index)`` is called after each match (for a progress bar).
    """
    rules = check_setup(ruleset_name, players, bot, against, modifiers)
    if matches < 1:
        raise ValueError("matches must be at least 1")
    for name, rate in (("forgetfulness", forgetfulness), ("vigilance", vigilance)):
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"{name} must be between 0 and 1")
    shares = [Fraction(0)] * players
    totals = dict.fromkeys(
        (
            "rounds",
            "turns",
            "rounds_exhausted",
            "rounds_stalled",
            "calls_missed",
            "calls_challenged",
            "wins_by_missed_mau_mau",
        ),
        0,
    )
    for match in range(matches):
        tally = play_match(rules, players, f"{seed}:{match}", bot, forgetfulness, vigilance, against)
        for key in totals:
            totals[key] += getattr(tally, key)
        for seat in tally.winners:
            shares[seat] += Fraction(1, len(tally.winners))
        if on_match is not None:
            on_match(match)
    return Summary(
        ruleset=rules.name,
        modifiers=tuple(sorted(set(modifiers))),
        players=players,
        bot=bot,
        against=against,
        forgetfulness=forgetfulness,
        vigilance=vigilance,
        seed=seed,
        matches=matches,
        win_shares=tuple(float(share) for share in shares),
        **totals,
    )


def play_match(
    rules: Ruleset,
    players: int,
    match_seed: str,
    bot: str = "heuristic",
    forgetfulness: float = 0.1,
    vigilance: float = 0.5,
    against: str | None = None,
) -> MatchTally:
    """One whole match; the table's shuffles and every seat's bot come from ``match_seed``.

    Seat 0 plays ``bot``, the others ``against`` (``bot`` when None).
    """
    rng = random.Random(match_seed)
    table = Table(rules, players, rng.getrandbits(64))
    kinds = [BOTS[bot], *[BOTS[against or bot]] * (players - 1)]
    bots = [kind(random.Random(rng.getrandbits(64)), forgetfulness, vigilance) for kind in kinds]
    turns = 0
    table.settle_chance()
    while not table.over:
        s = table.state
        seat = s.dealer if s.phase == NAMING_SUIT else s.turn
        events = table.execute(bots[seat].choose(s, seat))
        turns += 1
        table.settle_chance()
        # each missed call is offered to the others once, right after it was missed
        missed_now = any(type(event) is CardPlayed and event.missed for event in events)
        if missed_now and not table.over and _challenged(table, bots):
            turns += 1
            table.settle_chance()
        if turns > MAX_DECISIONS_PER_MATCH:
            raise RuntimeError(f"match {match_seed} has not ended after {turns} decisions")
    return _tally(table, turns)


def _challenged(table: Table, bots: list[RandomBot | HeuristicBot]) -> bool:
    """Offer an open missed call to the other seats in turn order; the first to want it challenges."""
    s = table.state
    if s.missed is None or (s.phase != PLAY and s.phase != DRAWN):
        return False
    offender = s.missed[0]
    for step in range(1, s.seats):
        seat = (offender + step * s.direction) % s.seats
        if bots[seat].challenges(s, seat):
            table.execute(Challenge(seat))
            return True
    return False


def _tally(table: Table, turns: int) -> MatchTally:
    rounds = exhausted = stalled = missed = challenged = window_closed = 0
    winners: tuple[int, ...] = ()
    for event in table.events:
        if type(event) is CardPlayed:
            if event.missed:
                missed += 1
        elif type(event) is MissedCallChallenged:
            challenged += 1
        elif type(event) is RoundEnded:
            rounds += 1
            if event.reason == "stock_exhausted":
                exhausted += 1
            elif event.reason == "stalled":
                stalled += 1
            elif event.reason == "window_closed":
                window_closed += 1
        elif type(event) is MatchEnded:
            winners = event.winners
    return MatchTally(
        rounds=rounds,
        turns=turns,
        winners=winners,
        rounds_exhausted=exhausted,
        rounds_stalled=stalled,
        calls_missed=missed,
        calls_challenged=challenged,
        wins_by_missed_mau_mau=window_closed,
    )
