"""Rulesets for the round and match structure tests: club's effects, with the structure of a preset
(``round_rules.ROUND_RULES``) laid over it, so each feature is tested before the presets exist."""

import msgspec

from service.domain.round_rules import ROUND_RULES
from service.domain.rulesets import CLUB, Ruleset

# 101's deck: 6 ... A
RANKS_36 = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")


def club_with(preset: str, **changes: object) -> Ruleset:
    """``club`` with ``preset``'s round and match fields (and ``changes``) laid over it."""
    fields = {**ROUND_RULES[preset], **changes}
    if "card_points" in fields and "ranks" not in fields:
        fields["ranks"] = tuple(fields["card_points"])  # type: ignore[arg-type]
    return msgspec.structs.replace(CLUB, name=f"club-as-{preset}", **fields)  # type: ignore[arg-type]


def club_101(**changes: object) -> Ruleset:
    return club_with("101", **{"hand_size": 3, **changes})


def club_faraon(**changes: object) -> Ruleset:
    return club_with("faraon", **{"hand_size": 2, **changes})


def club_classic(**changes: object) -> Ruleset:
    return club_with("classic", **{"hand_size": 3, **changes})
