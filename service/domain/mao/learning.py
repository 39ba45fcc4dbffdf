"""A bot that learns the secret rule by hypothesis elimination.

The candidates are every one-clause play rule the language can state with one value:
20 triggers (13 ranks, 4 suits, 2 colours, a draw) times 36 constraints (a colour; a suit,
or not that suit; a rank, or not that rank). "not red" is "black", so negated colours are
left out. Each candidate tracks whether it would be in force now, from the public log alone:
an accepted play drops every candidate that would have forbidden it; a returned play with a
reason keeps only the candidates in force whose constraint is of that kind and forbids the
card ("does not match" tells nothing). A rule of several clauses or with a rank set is
outside the candidates: the bot may then drop them all, and plays as the random bot does.

It plays a card every surviving candidate allows when it holds one, else the card most of
them allow (a wrong play costs one card, as a draw does, and teaches something); it draws
when every survivor forbids all its matching cards.
"""

import random

from service.domain.cards import FULL_DECK, RANKS, SUITS, parse_card
from service.domain.mao.bots import playable
from service.domain.mao.commands import Command, DrawCard, PlayCard
from service.domain.mao.judge import NO_MATCH, allowed_by, draw_clauses, matching, triggered_by
from service.domain.mao.rule import (
    COLOUR,
    COLOURS,
    DRAW,
    RANK,
    SUIT,
    Constraint,
    PlayClause,
    Rule,
    Trigger,
)
from service.domain.mao.views import PlayerView

_KIND_OF_REASON = {"wrong_colour": COLOUR, "wrong_suit": SUIT, "wrong_rank": RANK}


def candidate_rules() -> tuple[Rule, ...]:
    triggers = [Trigger(RANK, r) for r in range(len(RANKS))]
    triggers += [Trigger(SUIT, s) for s in range(len(SUITS))]
    triggers += [Trigger(COLOUR, c) for c in range(len(COLOURS))] + [Trigger(DRAW, -1)]
    constraints = [Constraint(COLOUR, (c,)) for c in range(len(COLOURS))]
    for kind, count in ((SUIT, len(SUITS)), (RANK, len(RANKS))):
        constraints += [Constraint(kind, (v,), negated) for v in range(count) for negated in (False, True)]
    return tuple(Rule(plays=(PlayClause(t, c),)) for t in triggers for c in constraints)


def same_behaviour(a: Rule, b: Rule) -> bool:
    """Whether two one-clause rules allow the same cards in every situation."""
    if bool(draw_clauses(a)) != bool(draw_clauses(b)):
        return False
    allow_a, allow_b = allowed_by(a.plays[0].constraint), allowed_by(b.plays[0].constraint)
    for top in FULL_DECK:
        on_a = bool(draw_clauses(a)) or bool(triggered_by(a, top))
        on_b = bool(draw_clauses(b)) or bool(triggered_by(b, top))
        fits = matching(top)
        if (fits & allow_a if on_a else fits) != (fits & allow_b if on_b else fits):
            return False
    return True


class Hypotheses:
    """The surviving candidates and, for each, whether it would be in force now."""

    def __init__(self, rules: tuple[Rule, ...] | None = None) -> None:
        self.rules = list(candidate_rules() if rules is None else rules)
        self.on = [False] * len(self.rules)

    def _keep(self, keep: list[bool]) -> None:
        self.rules = [rule for rule, kept in zip(self.rules, keep, strict=True) if kept]
        self.on = [on for on, kept in zip(self.on, keep, strict=True) if kept]

    def _allows(self, i: int, card: int) -> bool:
        return not self.on[i] or bool(allowed_by(self.rules[i].plays[0].constraint) >> card & 1)

    def dealt(self) -> None:
        self.on = [False] * len(self.rules)  # the starter has no effect

    def played(self, card: int) -> None:
        self._keep([self._allows(i, card) for i in range(len(self.rules))])
        self.on = [bool(triggered_by(rule, card)) for rule in self.rules]

    def returned(self, card: int, reason: str) -> None:
        if reason == NO_MATCH:
            return
        kind = _KIND_OF_REASON[reason]
        self._keep(
            [
                self.on[i] and rule.plays[0].constraint.kind == kind and not self._allows(i, card)
                for i, rule in enumerate(self.rules)
            ]
        )

    def drew(self) -> None:
        self.on = [on or bool(draw_clauses(rule)) for on, rule in zip(self.on, self.rules, strict=True)]

    def share_allowing(self, card: int) -> float:
        if not self.rules:
            return 1.0
        return sum(self._allows(i, card) for i in range(len(self.rules))) / len(self.rules)

    def knows(self, rule: Rule) -> bool:
        """Whether every survivor behaves as ``rule`` (a one-clause rule)."""
        return bool(self.rules) and all(same_behaviour(rule, survivor) for survivor in self.rules)


class LearningBot:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.hypotheses = Hypotheses()

    def observe(self, entry: dict) -> None:
        kind, hypotheses = entry["type"], self.hypotheses
        if kind == "RoundDealt":
            hypotheses.dealt()
        elif kind == "CardPlayed":
            hypotheses.played(parse_card(entry["card"]))
        elif kind == "PlayReturned":
            hypotheses.returned(parse_card(entry["card"]), entry["reason"])
        elif kind == "CardDrawn":
            hypotheses.drew()

    def choose(self, view: PlayerView) -> Command:
        cards = playable(view)
        if not cards:
            return DrawCard(view.seat)
        self.rng.shuffle(cards)
        best = max(cards, key=self.hypotheses.share_allowing)
        if not self.hypotheses.share_allowing(best):
            # every survivor forbids it: a draw costs the same card and risks nothing
            return DrawCard(view.seat)
        return PlayCard(view.seat, best)
