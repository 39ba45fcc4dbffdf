"""Each preset's round and match structure: the values of the ``Ruleset`` fields that say how a
round is scored, who starts it, when it is dealt again, how a match ends and what the calls are.

Folded into ``rulesets.PRESETS`` by name; a preset not listed keeps the fields' defaults (club's).
``call_word`` says a call code as the ruleset's players say it, for views and the event log.
"""

from service.domain.rulebook import MAU, MAU_MAU
from service.domain.rulesets import Ruleset

# 101 counts J 2, Q 3, K 4, A 11, 9 nothing and the others their face value
_POINTS_101 = {"6": 6, "7": 7, "8": 8, "9": 0, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 11}

ROUND_RULES: dict[str, dict[str, object]] = {
    "club": {},
    "mau-mau-150": {},
    "classic": {
        # all the losers' points doubled when the winning card was a jack
        "out_multiplier": {"J": 2},
        "call_words": ("Mau", "Mau-Mau"),
        "call_penalty": 1,
    },
    "101": {
        "card_points": _POINTS_101,
        # Reading: "subtracts 20" is the winner's score for the round: -20 (-40 for Q♠) on the total
        "out_points": {"Q": -20, "QS": -40},
        # Reading: "holding only queens" is a hand of one card or more, every one a queen; it
        # scores 20 a queen (40 for Q♠) in place of the queens' 3 points
        "only_points": {"Q": 20, "QS": 40},
        # Reading: the reset is to exactly 100 at any ceiling (201 and 501 too), checked after the
        # round's points are added and before anyone is put out
        "reset_totals": (100,),
        # an option: None, or -365 to win outright on exactly that total
        "winning_total": None,
        # Reading: "over 101" is strictly over: a total of 101 plays on. Options: 201, 501
        "elimination_total": 101,
        # Reading: the first round's random first player is chance from outside, as the first
        # dealer is: StartMatch's first_dealer is drawn at random and the seat on its left starts.
        # Later rounds: the previous round's winner (left of the dealer after a round nobody won).
        "first_player": "round_winner",
        "redeal_four_of_a_kind": True,
    },
    "prsi": {
        # no call is due in prší (mau_call False, mau_mau_call "never"); the words are never said
    },
    # Reading: pesten and haft-khabis have one call; both codes are said with its word
    "pesten": {"call_words": ("last card", "last card"), "call_penalty": 5},
    "faraon": {
        # Reading: the loser is the seat still in with the most points left in hand (all tied
        # seats with three or more players; round_scoring.round_losers). It is dealt one card
        # fewer from the next round on; a loser who was dealt a single card for the round is out.
        "shrinking_hands": True,
        "first_player": "round_winner",
    },
    "haft-khabis": {"call_words": ("single card", "single card")},
    "puke": {
        "out_multiplier": {"J": 2},
        # Reading: "Puke" takes the place of "Mau"; going out on a jack, as classic's "Mau-Mau",
        # is "Puke-Puke"
        "call_words": ("Puke", "Puke-Puke"),
        "call_penalty": 1,
    },
    "russian": {},
    "neuner": {},
}


def call_word(rules: Ruleset, call: int) -> str | None:
    """What a call code (``rulebook.MAU``, ``MAU_MAU``) is said as at this ruleset's tables."""
    if call == MAU:
        return rules.call_words[0]
    if call == MAU_MAU:
        return rules.call_words[1]
    return None
