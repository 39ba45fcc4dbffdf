"""Rulesets for the round and match structure tests: club's effects, with the round and match
structure of a preset laid over it, so each feature is tested apart from the preset's effects."""

import msgspec

from service.domain.cards import RANKS
from service.domain.presets import CLUB, PRESETS
from service.domain.rulesets import Ruleset

# 101's deck: 6 ... A
RANKS_36 = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")

# the fields of a ruleset that say how a round is scored and started and how a match ends
ROUND_FIELDS = (
    "card_points",
    "call_penalty",
    "out_multiplier",
    "out_points",
    "only_points",
    "reset_totals",
    "winning_total",
    "elimination_total",
    "shrinking_hands",
    "first_player",
    "redeal_four_of_a_kind",
    "call_words",
)


def club_with(preset: str, **changes: object) -> Ruleset:
    """``club`` with ``preset``'s round and match fields (and ``changes``) laid over it."""
    preset_rules = PRESETS[preset]
    structure = {
        field: getattr(preset_rules, field)
        for field in ROUND_FIELDS
        if getattr(preset_rules, field) != getattr(CLUB, field)
    }
    points = {rank: value for rank, value in preset_rules.card_points.items() if rank in RANKS}
    if all(CLUB.card_points[rank] == value for rank, value in points.items()):
        structure.pop("card_points", None)  # the deck alone differs (a short deck, a joker): keep club's
    else:
        structure["card_points"] = points  # 101's values, and its deck
    fields = {**structure, **changes}
    if "card_points" in fields and "ranks" not in fields:
        fields["ranks"] = tuple(fields["card_points"])  # type: ignore[arg-type]
    return msgspec.structs.replace(CLUB, name=f"club-as-{preset}", **fields)  # type: ignore[arg-type]


def club_101(**changes: object) -> Ruleset:
    return club_with("101", **{"hand_size": 3, **changes})


def club_faraon(**changes: object) -> Ruleset:
    return club_with("faraon", **{"hand_size": 2, **changes})


def club_classic(**changes: object) -> Ruleset:
    return club_with("classic", **{"hand_size": 3, **changes})
