"""Mao bots: they see a ``PlayerView`` only, and say the base rules' calls after a play.

``RandomBot`` plays a random card that matches the top card by suit or rank (it knows no
secret rule), else draws. ``learning.LearningBot`` also learns the rule from what it sees.
``StandIn`` plays a forfeited seat: it only draws, so it never goes out.
"""

import random
from typing import Protocol

from service.domain.cards import parse_card
from service.domain.mao.commands import Command, DrawCard, PlayCard
from service.domain.mao.judge import matching
from service.domain.mao.speech import public_calls
from service.domain.mao.views import PlayerView


class Bot(Protocol):
    def choose(self, view: PlayerView) -> Command:
        """The command of the seat on turn."""
        ...

    def observe(self, entry: dict) -> None:
        """One event as the public sees it (``redaction.PUBLIC``)."""
        ...


def playable(view: PlayerView) -> list[int]:
    """The cards in hand that match the top card by suit or rank."""
    assert view.top is not None
    fits = matching(parse_card(view.top))
    return [card for card in map(parse_card, view.hand) if fits >> card & 1]


def calls_after(card: int, view: PlayerView) -> tuple[str, ...]:
    """What a bot says after its play of ``card`` was accepted (``view`` is from after it)."""
    return public_calls(card, len(view.hand))


class RandomBot:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: PlayerView) -> Command:
        cards = playable(view)
        if not cards:
            return DrawCard(view.seat)
        return PlayCard(view.seat, self.rng.choice(cards))

    def observe(self, entry: dict) -> None:
        pass


class StandIn:
    """The seat of an erased player (``MaoGame.forfeit_seat``): it draws at each turn and says
    nothing, so the seat never wins a round by going out."""

    def choose(self, view: PlayerView) -> Command:
        return DrawCard(view.seat)

    def observe(self, entry: dict) -> None:
        pass
