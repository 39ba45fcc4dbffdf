"""Bots play every preset: whole matches to their end with legal moves only, the heuristic bot ahead."""

import random
from collections import Counter

import pytest

from service.domain.actions import CHALLENGE, CHOOSE, DRAW, KEEP, NAME_SUIT, play_action
from service.domain.bots import BOTS, Bot
from service.domain.cards import JOKER_SUIT, suit_of
from service.domain.commands import Challenge, ChoosePlayer, Command, DrawCard, KeepCard, NameSuit, PlayCard
from service.domain.events import CardPlayed, PlayerEliminated
from service.domain.legal import legal_actions
from service.domain.presets import PRESETS, SWITCHES
from service.domain.ruleset_options import ruleset
from service.domain.state import CHOOSING, DRAWN, NAMING_SUIT, OVER, PLAY
from service.domain.table import Table
from service.simulation import simulate
from tests.properties.invariants import every_switch_that_fits

MATCHES_PER_PRESET = 4


def action_of(command: Command) -> int:
    """The action a bot's command takes, as ``legal_actions`` lists it."""
    if isinstance(command, PlayCard):
        return play_action(command.card, command.suit)
    if isinstance(command, DrawCard):
        return DRAW
    if isinstance(command, KeepCard):
        return KEEP
    if isinstance(command, NameSuit):
        return NAME_SUIT + command.suit
    if isinstance(command, ChoosePlayer):
        return CHOOSE + command.chosen
    assert isinstance(command, Challenge)
    return CHALLENGE


def play_to_the_end(name: str, kind: str, seed: int, seen: Counter, switched: bool = False) -> Table:
    """One whole match of bots of ``kind``; every command must be among the seat's legal actions.

    ``switched``: with every one of the preset's own switches on (of two that contradict, the first).
    """
    rules = ruleset(name, **every_switch_that_fits(name, list(SWITCHES.get(name, {}))) if switched else {})
    rng = random.Random(seed)
    players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
    table = Table(rules, players, rng.getrandbits(64))
    bots: list[Bot] = [BOTS[kind](random.Random(rng.getrandbits(64)), 0.2, 0.5) for _ in range(players)]
    table.settle_chance()
    while not table.over:
        s = table.state
        seat = s.dealer if s.phase == NAMING_SUIT else s.turn
        command = bots[seat].choose(s, seat)
        if s.missed is not None and s.phase in (PLAY, DRAWN, CHOOSING):
            # the others in the match may challenge a missed call before the next move
            offender = s.missed[0]
            others = (other for other in range(players) if other != offender and not s.out >> other & 1)
            challenger = next((other for other in others if bots[other].challenges(s, other)), None)
            if challenger is not None:
                seat, command = challenger, Challenge(challenger)
        assert action_of(command) in legal_actions(s, seat), f"{name}: {command!r} is not legal"
        for event in table.execute(command):
            seen[type(event).__name__] += 1
            if isinstance(event, CardPlayed) and suit_of(event.card) == JOKER_SUIT:
                seen["joker played"] += 1
        seen[type(command).__name__] += 1
        table.settle_chance()
        assert len(table.events) < 200_000, f"{name} seed {seed} does not end"
    return table


@pytest.mark.parametrize("kind", sorted(BOTS))
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_bots_play_whole_matches_of_every_preset_with_legal_moves_only(name, kind):
    seen: Counter = Counter()
    for seed in range(MATCHES_PER_PRESET):
        table = play_to_the_end(name, kind, seed, seen)
        assert table.state.phase == OVER
        assert table.state.winners
    assert seen["PlayCard"] and seen["DrawCard"]


@pytest.mark.parametrize("kind", sorted(BOTS))
@pytest.mark.parametrize("name", sorted(SWITCHES))
def test_bots_play_whole_matches_with_every_switch_of_a_preset_on(name, kind):
    seen: Counter = Counter()
    for seed in range(MATCHES_PER_PRESET):
        table = play_to_the_end(name, kind, seed, seen, switched=True)
        assert table.state.phase == OVER
        assert table.state.winners
    assert seen["PlayCard"] and seen["DrawCard"]


def test_the_bots_meet_every_kind_of_move_the_presets_offer():
    seen: Counter = Counter()
    for name in ("haft-khabis", "101", "pesten", "neuner", "faraon", "classic"):
        for kind in sorted(BOTS):
            for seed in range(MATCHES_PER_PRESET):
                play_to_the_end(name, kind, seed, seen)
    # a player chosen to draw, a drawn card kept, a suit named for a wild starter, a missed
    # call challenged, players put out of the match, jokers played
    moves = ("ChoosePlayer", "KeepCard", "NameSuit", "Challenge", PlayerEliminated.__name__, "joker played")
    for move in moves:
        assert seen[move] > 0, f"no {move} in the sample"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_one_heuristic_bot_wins_well_over_its_fair_share_against_three_random_bots(name):
    summary = simulate(name, 4, matches=150, seed=17, bot="heuristic", against="random")
    share = summary.win_shares[0] / summary.matches
    assert share > 1.5 * (1 / 4), f"{name}: the heuristic bot won {share:.0%} of matches"
