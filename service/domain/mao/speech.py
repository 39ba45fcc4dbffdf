"""What must be said after a play: the base rules' calls and the secret rule's call clauses."""

from service.domain.cards import rank_of, suit_of
from service.domain.mao.judge import fits
from service.domain.mao.rule import Rule
from service.domain.mao.words import MAO, RANK_WORDS, SPADE_NAMES

SPADES = 3

# what kind of call a due phrase is: the base rules' calls are public, the rule's are secret
SPADE, MAO_CALL, RULE_CALL = "spade", "mao", "rule"


def spade_name(card: int) -> str:
    return f"{RANK_WORDS[rank_of(card)]} of spades"


def public_calls(card: int, left: int) -> tuple[str, ...]:
    """The base rules' calls for playing ``card`` with ``left`` cards still in hand."""
    due = (spade_name(card),) if suit_of(card) == SPADES else ()
    return (*due, MAO) if left <= 1 else due


def calls_due(rule: Rule, card: int, left: int) -> tuple[str, ...]:
    """Every call playing ``card`` owes: the base rules' ones, then the rule's call clauses."""
    secret = tuple(c.words for c in rule.calls if fits(c.trigger, card))
    return public_calls(card, left) + tuple(dict.fromkeys(secret))


def kind_of(words: str) -> str:
    if words == MAO:
        return MAO_CALL
    return SPADE if words in SPADE_NAMES else RULE_CALL
