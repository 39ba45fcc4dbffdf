"""A league that plays Mao: its ruleset's name and the options a club may set for its matches.

Mao is not a preset of the card engine (``rulesets``): its games are ``MaoGame`` aggregates,
so a Mao league's options are checked here, and a card game is refused in it (``mao_league``).
"""

from collections.abc import Mapping
from typing import Any

from service.domain.errors import RuleError
from service.domain.mao.game import MAX_SEATS

MAO = "mao"
# what a club may change, with its range: the hands and the starter fit in 52 cards at 6 seats
MAO_OPTIONS: dict[str, tuple[int, int]] = {
    "hand_size": (1, (52 - 1) // MAX_SEATS),
    "rounds_to_win": (1, 9),
}


def check_mao_options(options: Mapping[str, Any]) -> None:
    for key, value in options.items():
        bounds = MAO_OPTIONS.get(key)
        if bounds is None:
            # the secret rule is none: a league's options are public, so each match's judge writes it
            raise RuleError(
                "unknown_option", why="no_option_mao", key=key, mao_options=", ".join(MAO_OPTIONS)
            )
        low, high = bounds
        if type(value) is not int or not low <= value <= high:
            raise RuleError("invalid_option", why="option_whole_number", key=key, low=low, high=high)
