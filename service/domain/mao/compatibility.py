"""The compatibility check: a rule that could ever leave no matching card allowed is refused.

Checked exhaustively, not by samples: for every top card, every set of play clauses the
rule can have in force under it. A card clause is in force only while the card that put it
there is the top card, and a played card puts in force every card clause it fits at once;
the draw clauses come into force together at a draw and stay until a play. So under a top
card ``t`` the clauses in force are one of: none (``t`` is the starter) or all card clauses
``t`` fits, each with or without all draw clauses. In each such situation some other card
of the deck that matches ``t`` by suit or rank must still be allowed.
"""

import msgspec

from service.domain.cards import FULL_DECK, format_card
from service.domain.errors import RuleError
from service.domain.mao.judge import allowed, draw_clauses, triggered_by
from service.domain.mao.rule import Rule, format_rule


class Blocked(msgspec.Struct, frozen=True):
    """A situation in which the rule allows no card: the top card and the clauses in force."""

    top: int
    in_force: tuple[int, ...]


def situations(rule: Rule, top: int) -> list[tuple[int, ...]]:
    """Every set of play clauses that can be in force while ``top`` is the top card."""
    by_card = triggered_by(rule, top)
    draws = draw_clauses(rule)
    found = {(), by_card}
    if draws:
        found |= {tuple(sorted(set(draws))), tuple(sorted(set(by_card) | set(draws)))}
    return sorted(found)


def blocked(rule: Rule) -> Blocked | None:
    """The first situation in which no card is allowed, or None when there is none."""
    for top in FULL_DECK:
        for in_force in situations(rule, top):
            if not allowed(rule, top, in_force):
                return Blocked(top, in_force)
    return None


def check_compatible(rule: Rule) -> None:
    found = blocked(rule)
    if found is not None:
        raise RuleError("rule_incompatible", rule=format_rule(rule), card=format_card(found.top))
