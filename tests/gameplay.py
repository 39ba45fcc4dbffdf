"""Random but legal play, for tests that drive whole games (aggregate or application)."""

import random
from collections.abc import Sequence
from typing import Any

from service.domain.adjudication import Void
from service.domain.bots import RandomBot
from service.domain.commands import Challenge, Command
from service.domain.events import CardPlayed
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.roles import SYSTEM, Actor
from service.domain.state import DRAWN, NAMING_SUIT, PLAY, State

# Every game mixes its seed with entropy it draws (``Game.create``), so a seed alone deals
# differently each run; a test whose seed must deal the same cards every run gives this entropy.
SAME_ENTROPY = "0" * 64


def next_command(s: State, rng: random.Random, challenge_rate: float = 0.3) -> Command:
    """A legal command for whoever may act: mostly the seat to move, sometimes a challenge."""
    if s.missed is not None and (s.phase == PLAY or s.phase == DRAWN) and rng.random() < challenge_rate:
        offender = s.missed[0]
        others = [seat for seat in range(s.seats) if seat != offender]
        return Challenge(rng.choice(others))
    seat = s.dealer if s.phase == NAMING_SUIT else s.turn
    # forgetful, so that calls are missed and challenges happen
    return RandomBot(rng, forgetfulness=0.3).choose(s, seat)


def acting_seat(command: Command) -> int:
    return command.seat  # type: ignore[attr-defined]


def game_after(stored: Sequence[Any], number: int) -> Game:
    """The game right after event ``number``, replayed from its stored events (the first first)."""
    game = None
    for event in stored[:number]:
        game = event.mutate(game)
    assert isinstance(game, Game)
    return game


def voided_into_a_revealed_round(game: Game, rng: random.Random, referee: Actor) -> tuple[list[Any], int]:
    """Play ``game`` (none of its events taken yet) until its first round is over and revealed, then
    void that round's last play: the events stored before the ruling, and the voided event's number."""
    stored = list(game.collect_events())
    while not any(isinstance(event, Game.DeckRevealed) for event in stored):
        game.execute(next_command(game.state, rng, challenge_rate=0), Cause(SYSTEM, "test"))
        stored += game.collect_events()
    last_play = max(
        event.originator_version
        for event in stored
        if isinstance(event, Game.Fact) and isinstance(event.fact, CardPlayed)
    )
    game.raise_dispute(Cause(referee, "RaiseDispute"))
    stored += game.collect_events()
    game.give_ruling(
        Void(last_play), Cause(referee, "GiveRuling"), game_after=lambda n: game_after(stored, n)
    )
    return stored, last_play
