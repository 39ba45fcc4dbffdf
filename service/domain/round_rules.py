"""``call_word`` says a call code as the ruleset's players say it ("Mau", "last card", "Puke"),
for views and the event log."""

from service.domain.rulebook import MAU, MAU_MAU
from service.domain.rulesets import Ruleset


def call_word(rules: Ruleset, call: int) -> str | None:
    """What a call code (``rulebook.MAU``, ``MAU_MAU``) is said as at this ruleset's tables."""
    if call == MAU:
        return rules.call_words[0]
    if call == MAU_MAU:
        return rules.call_words[1]
    return None
