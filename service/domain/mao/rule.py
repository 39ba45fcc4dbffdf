"""The secret rule as data, and its text form.

A rule is a tuple of clauses. A **play clause** has a trigger and a constraint: once a card
that fits the trigger is played (or, for the ``draw`` trigger, once a player draws), the next
played card must also fit the constraint. A **call clause** has a card trigger and words:
whoever plays a card that fits it must say them. Clauses only forbid: none makes a card
legal that does not match the top card by suit or rank.

Text form, clauses joined by ``"; "`` (play clauses first, as ``format_rule`` writes them)::

    after Q: next black
    after hearts: next not 7
    after draw: next 2 3 4
    after red: next spades
    on K: say "long live the king"

A trigger is a rank (2-10, J, Q, K, A), a suit word, a colour (red, black) or ``draw`` (play
clauses only). A constraint is ``not`` or nothing, then one or more ranks, suit words or
colours, all of one kind.
"""

import re

import msgspec

from service.domain.cards import RANKS, SUIT_NAMES
from service.domain.errors import RuleError
from service.domain.mao.words import is_public_call

RANK, SUIT, COLOUR, DRAW = "rank", "suit", "colour", "draw"
COLOURS: tuple[str, ...] = ("red", "black")
MAX_CLAUSES = 8
MAX_WORDS = 40

# spoken words: letters, spaces and apostrophes, so a phrase never breaks the text form
_WORDS = re.compile(r"^[a-z' ]+$")
_CALL = re.compile(r'^on\s+(\S+)\s*:\s*say\s+"([^"]*)"$', re.IGNORECASE)
_PLAY = re.compile(r"^after\s+(\S+)\s*:\s*next\s+(.+)$", re.IGNORECASE)


class Trigger(msgspec.Struct, frozen=True):
    kind: str  # RANK, SUIT, COLOUR or DRAW
    value: int  # the rank, suit or colour index; -1 for DRAW


class Constraint(msgspec.Struct, frozen=True):
    kind: str  # RANK, SUIT or COLOUR
    values: tuple[int, ...]  # sorted, no repeats
    negated: bool = False


class PlayClause(msgspec.Struct, frozen=True):
    trigger: Trigger
    constraint: Constraint


class CallClause(msgspec.Struct, frozen=True):
    trigger: Trigger
    words: str  # lower case, single spaces


class Rule(msgspec.Struct, frozen=True):
    plays: tuple[PlayClause, ...] = ()
    calls: tuple[CallClause, ...] = ()


TEACHING_TEXT = "after Q: next black"


def _value_text(kind: str, value: int) -> str:
    if kind == RANK:
        return RANKS[value]
    if kind == SUIT:
        return SUIT_NAMES[value]
    if kind == COLOUR:
        return COLOURS[value]
    return "draw"


def _token(text: str) -> tuple[str, int]:
    word = text.lower()
    if word.upper() in RANKS:
        return RANK, RANKS.index(word.upper())
    if word in SUIT_NAMES:
        return SUIT, SUIT_NAMES.index(word)
    if word in COLOURS:
        return COLOUR, COLOURS.index(word)
    if word == "draw":
        return DRAW, -1
    raise RuleError("malformed_rule", why="not_rank_suit", text=text)


def _card_trigger(text: str) -> Trigger:
    kind, value = _token(text)
    if kind == DRAW:
        raise RuleError("malformed_rule", why="call_due_played")
    return Trigger(kind, value)


def _constraint(text: str) -> Constraint:
    words = text.split()
    negated = bool(words) and words[0].lower() == "not"
    tokens = [_token(word) for word in words[negated:]]
    kinds = {kind for kind, _ in tokens}
    if not tokens or DRAW in kinds or len(kinds) != 1:
        raise RuleError("malformed_rule", why="name_ranks_suits", text=text)
    return Constraint(kinds.pop(), tuple(sorted({value for _, value in tokens})), negated)


def _words(text: str) -> str:
    words = " ".join(text.lower().split())
    if not words or len(words) > MAX_WORDS or not _WORDS.match(words):
        raise RuleError("malformed_rule", why="call_letters_spaces", max_words=MAX_WORDS)
    if is_public_call(words):
        raise RuleError("malformed_rule", why="already_call_base", words=words)
    return words


def parse_rule(text: str) -> Rule:
    """The rule a text states; a ``malformed_rule`` error for anything else."""
    if not isinstance(text, str) or not text.strip():
        raise RuleError("malformed_rule", why="rule_least_clause")
    parts = [part.strip() for part in text.split(";")]
    if len(parts) > MAX_CLAUSES:
        raise RuleError("malformed_rule", why="rule_most_clauses", max_clauses=MAX_CLAUSES)
    plays: list[PlayClause] = []
    calls: list[CallClause] = []
    for part in parts:
        call = _CALL.match(part)
        if call is not None:
            calls.append(CallClause(_card_trigger(call.group(1)), _words(call.group(2))))
            continue
        play = _PLAY.match(part)
        if play is None:
            raise RuleError("malformed_rule", why="shapes", part=part)
        kind, value = _token(play.group(1))
        plays.append(PlayClause(Trigger(kind, value), _constraint(play.group(2))))
    return Rule(tuple(plays), tuple(calls))


def format_rule(rule: Rule) -> str:
    clauses = [
        f"after {_value_text(c.trigger.kind, c.trigger.value)}: next "
        + ("not " if c.constraint.negated else "")
        + " ".join(_value_text(c.constraint.kind, v) for v in c.constraint.values)
        for c in rule.plays
    ]
    clauses += [f'on {_value_text(c.trigger.kind, c.trigger.value)}: say "{c.words}"' for c in rule.calls]
    return "; ".join(clauses)


TEACHING_RULE = parse_rule(TEACHING_TEXT)
