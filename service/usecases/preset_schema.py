"""The ruleset and options a league or game is created with, as the OpenAPI document states them.

The document names every preset and every option with its type and range; the rules still check
each value (``service.domain.rulesets.ruleset``), so a name or value outside them is refused with
its code and stores nothing.
"""

from typing import Annotated, Any

import msgspec

from service.domain.cards import MAX_DECKS
from service.domain.mao.league import MAO_OPTIONS
from service.domain.presets import PRESETS, SWITCHES
from service.domain.ruleset_checks import cards_in_deck
from service.domain.rulesets import OPTION_BOUNDS, OPTIONS

# the most cards a hand may hold in any preset: the largest deck less a starter and a card to draw,
# shared out at the smallest table (a game's table is checked when its seats are known)
MOST_CARDS = max(
    (cards_in_deck(msgspec.structs.replace(rules, decks=MAX_DECKS)) - 2) // rules.min_players
    for rules in PRESETS.values()
)
_OPTION_SCHEMAS: dict[str, dict[str, object]] = {
    name: {"type": "boolean"} if kind is bool else {"type": "integer", "minimum": 1, "maximum": MOST_CARDS}
    for name, kind in OPTIONS.items()
}
for _name, (_low, _high) in OPTION_BOUNDS.items():
    _OPTION_SCHEMAS[_name] = {"type": "integer", "minimum": _low, "maximum": _high}
for _name, (_low, _high) in MAO_OPTIONS.items():  # a Mao league's (422 unknown_option on another)
    _OPTION_SCHEMAS.setdefault(_name, {"type": "integer", "minimum": _low, "maximum": _high})
for _switches in SWITCHES.values():
    _OPTION_SCHEMAS.update({key: {"type": "boolean"} for key in _switches})


def _owners() -> str:
    """Each preset's own switches, as a sentence of the document."""
    owned: dict[str, list[str]] = {}
    for preset, switches in SWITCHES.items():
        for key in switches:
            owned.setdefault(key, []).append(preset)
    return "; ".join(f"{key} ({', '.join(presets)})" for key, presets in owned.items())


Options = Annotated[
    dict[str, int | bool],
    msgspec.Meta(
        description="the ruleset's options a club may change. Every preset takes target_score (1-1000), "
        "single_round, hand_size (as the deck and the players allow), voluntary_draw, call_penalty (0-10) "
        "and decks (1-2), and the modifiers quick and blind (on/off, docs/rules/modifiers.md). "
        f"On/off switches belong to their presets only: {_owners()}. "
        "422 unknown_option for a name no preset knows; 422 invalid_option for a switch of another "
        "preset, a value of the wrong type (true for a number, a number for a switch) or one out of "
        "range; 400 malformed_request for a value that is neither a number nor true/false "
        "(docs/rules/README.md; each ruleset's page lists its switches in section 10). A Mao league "
        "takes hand_size and rounds_to_win only (docs/rules/mao.md)",
        examples=[{"target_score": 150}],
        extra_json_schema={"extra": {"properties": _OPTION_SCHEMAS, "additionalProperties": False}},
    ),
]
RULESET_NAMES = tuple(PRESETS)


def _ruleset_name(names: tuple[str, ...], also: str) -> Any:
    """A ruleset's name, one of ``names`` (the document lists them); ``also``: what else it may name."""
    return Annotated[
        str,
        msgspec.Meta(
            examples=["club"],
            description=f"a preset: {', '.join(RULESET_NAMES)} (a page each in docs/rules/){also}; "
            "422 unknown_ruleset for any other name",
            extra_json_schema={"extra": {"enum": list(names)}},
        ),
    ]


RulesetName = _ruleset_name(RULESET_NAMES, "")
# a league may also be founded on Mao, whose matches are played under /mao-games
LEAGUE_RULESET_NAMES = (*RULESET_NAMES, "mao")
LeagueRulesetName = _ruleset_name(
    LEAGUE_RULESET_NAMES, ", or mao, whose matches are played under /mao-games (docs/rules/mao.md)"
)
