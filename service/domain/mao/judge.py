"""The judge's verdict on a card: allowed, or the short reason it is not.

Cards are sets as 52-bit masks (``cards``). A situation is the top card and the play
clauses in force (their indexes in ``Rule.plays``). The reason names only the kind of
constraint the card broke ("wrong colour"), never the rule.
"""

from functools import cache

from service.domain.cards import FULL_DECK, rank_of, suit_of
from service.domain.mao.rule import COLOUR, DRAW, RANK, SUIT, Constraint, Rule, Trigger

NO_MATCH = "no_match"
REASONS: dict[str, str] = {
    NO_MATCH: "does not match",
    "wrong_colour": "wrong colour",
    "wrong_suit": "wrong suit",
    "wrong_rank": "wrong rank",
}
_REASON_OF_KIND = {COLOUR: "wrong_colour", SUIT: "wrong_suit", RANK: "wrong_rank"}
ALL = (1 << len(FULL_DECK)) - 1


def colour_of(card: int) -> int:
    """0 red (diamonds, hearts), 1 black (clubs, spades)."""
    return 0 if suit_of(card) in (1, 2) else 1


def _value_of(kind: str, card: int) -> int:
    if kind == RANK:
        return rank_of(card)
    return suit_of(card) if kind == SUIT else colour_of(card)


def fits(trigger: Trigger, card: int) -> bool:
    return trigger.kind != DRAW and _value_of(trigger.kind, card) == trigger.value


@cache
def allowed_by(constraint: Constraint) -> int:
    """The cards a constraint lets through."""
    mask = 0
    for card in FULL_DECK:
        if (_value_of(constraint.kind, card) in constraint.values) != constraint.negated:
            mask |= 1 << card
    return mask


@cache
def matching(top: int) -> int:
    """The other cards of the deck that match ``top`` by suit or rank."""
    mask = 0
    for card in FULL_DECK:
        if card != top and (suit_of(card) == suit_of(top) or rank_of(card) == rank_of(top)):
            mask |= 1 << card
    return mask


@cache
def triggered_by(rule: Rule, card: int) -> tuple[int, ...]:
    """The play clauses a played card puts in force."""
    return tuple(i for i, clause in enumerate(rule.plays) if fits(clause.trigger, card))


@cache
def draw_clauses(rule: Rule) -> tuple[int, ...]:
    return tuple(i for i, clause in enumerate(rule.plays) if clause.trigger.kind == DRAW)


def allowed(rule: Rule, top: int, in_force: tuple[int, ...]) -> int:
    """The cards that may be played now, as a mask."""
    mask = matching(top)
    for i in in_force:
        mask &= allowed_by(rule.plays[i].constraint)
    return mask


def evaluate(rule: Rule, top: int, in_force: tuple[int, ...], card: int) -> str | None:
    """None when ``card`` may be played on ``top`` now, else the judge's reason code."""
    if not matching(top) >> card & 1:
        return NO_MATCH
    for i in in_force:
        constraint = rule.plays[i].constraint
        if not allowed_by(constraint) >> card & 1:
            return _REASON_OF_KIND[constraint.kind]
    return None
