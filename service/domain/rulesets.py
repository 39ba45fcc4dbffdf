"""Rulesets are data: one engine reads any of them.

A ruleset names its deck, the players it allows, the deal, what each rank
does when played, the calls and their penalty, the scoring and the match end.
``club`` is the reference; ``mau-mau-150`` changes the deck, adds a reverse,
scores upwards and races to 150. Each is described as played on its page in docs/rules/.
"""

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from service.domain.cards import RANKS, SUITS
from service.domain.errors import RuleError


class CardEffect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What playing a card of one rank does (the starter too, when ``starter_acts``)."""

    draw: int = 0  # draw debt added for the next player
    skip: bool = False  # the next player misses their turn
    reverse: bool = False  # the direction of play turns round at once
    wild: bool = False  # playable on any ordinary top card; its player names a suit


class Ruleset(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    ranks: tuple[str, ...]  # every rank in the deck, in all four suits
    min_players: int
    max_players: int
    hand_size: int
    effects: dict[str, CardEffect]  # by rank; ranks not listed are ordinary
    debt_answers: tuple[str, ...]  # ranks that may answer a pending draw debt, passing it on
    starter_acts: bool  # the starter acts as if the dealer had played it
    voluntary_draw: bool  # may a player draw while holding a playable card
    play_drawn_card: bool  # a playable card drawn in a turn may be played at once
    mau_call: bool  # a play that leaves exactly one card must be called "Mau"
    mau_mau_call: Literal["always", "on_wild", "never"]  # when going out must be called "Mau Mau"
    call_penalty: int  # cards drawn for a missed call, after a challenge
    scoring: Literal["penalty", "winner_takes"]  # losers score their hands / the winner gains them
    card_points: dict[str, int]  # by rank
    target_score: int  # the match ends at the end of a round in which someone reaches it
    match_winner: Literal["lowest_total", "highest_total"]  # ties share the win
    single_round: bool  # the match is one round
    # Round and match structure; the defaults are club's (stored rulesets without them still
    # decode). Tables keyed by a card ("QS") or a rank ("Q"): a card's own entry wins over its
    # rank's. service/domain/round_rules.py gives each preset's values.
    out_multiplier: dict[str, int] = {}  # by the card that went out: the losers' points times this
    out_points: dict[str, int] = {}  # by the card that went out: the winner's points for the round
    only_points: dict[str, int] = {}  # a loser whose every card is listed scores these instead
    reset_totals: tuple[int, ...] = ()  # a total that lands exactly on one of these becomes 0
    winning_total: int | None = None  # a total exactly this wins the match outright
    elimination_total: int | None = None  # a total over this puts the player out of the match
    shrinking_hands: bool = False  # a round's loser is dealt one card fewer; losing with one is out
    first_player: Literal["left_of_dealer", "round_winner"] = "left_of_dealer"
    redeal_four_of_a_kind: bool = False  # a hand dealt four of one rank annuls the deal
    call_words: tuple[str, str] = ("Mau", "Mau Mau")  # what the calls MAU and MAU_MAU are said as


# The settings a club may change per league or game, with their type.
OPTIONS: dict[str, type] = {
    "target_score": int,
    "single_round": bool,
    "hand_size": int,
    "voluntary_draw": bool,
    "call_penalty": int,
}

# The ranges of the numeric options a club may set for a new league, game or tournament: what a club
# could mean (a target of 10**18 is a match with no end that keeps a worker busy). Commands are
# checked against them, not rulesets read back from stored events (``check_options``).
OPTION_BOUNDS: dict[str, tuple[int, int]] = {
    "target_score": (1, 1000),
    "call_penalty": (0, 10),  # hand_size: ``check`` bounds it by the deck and the players
}

_FACE_TEN = {"J": 10, "Q": 10, "K": 10, "A": 10}

CLUB = Ruleset(
    name="club",
    ranks=RANKS,
    min_players=2,
    max_players=6,
    hand_size=5,
    effects={
        "7": CardEffect(draw=2),
        "8": CardEffect(skip=True),
        "J": CardEffect(wild=True),
    },
    debt_answers=("7",),
    starter_acts=True,
    voluntary_draw=False,
    play_drawn_card=True,
    mau_call=True,
    mau_mau_call="always",
    call_penalty=2,
    scoring="penalty",
    card_points={**{rank: int(rank) for rank in RANKS[:9]}, **_FACE_TEN},
    target_score=100,
    match_winner="lowest_total",
    single_round=False,
)

MAU_MAU_150 = Ruleset(
    name="mau-mau-150",
    ranks=("7", "8", "9", "10", "J", "Q", "K", "A"),
    min_players=2,
    max_players=4,
    hand_size=5,
    effects={
        "7": CardEffect(draw=2),
        "8": CardEffect(skip=True),
        "9": CardEffect(reverse=True),
        "J": CardEffect(wild=True),
    },
    debt_answers=("7",),
    # Reading: the variant is silent on the starter; it acts as in `club`
    # (a starting 9 sends play to the dealer's right).
    starter_acts=True,
    voluntary_draw=True,
    play_drawn_card=True,
    mau_call=True,
    mau_mau_call="on_wild",
    call_penalty=2,
    scoring="winner_takes",
    card_points={"7": 7, "8": 8, "9": 9, "10": 10, "J": 20, "Q": 10, "K": 10, "A": 10},
    target_score=150,
    match_winner="highest_total",
    single_round=False,
)

PRESETS: dict[str, Ruleset] = {ruleset.name: ruleset for ruleset in (CLUB, MAU_MAU_150)}


def ruleset(name: str, **options: Any) -> Ruleset:
    """A preset with a club's options applied, checked."""
    try:
        base = PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise RuleError("unknown_ruleset", f"no ruleset {name!r}; known: {known}") from None
    return with_options(base, **options)


def with_options(base: Ruleset, **options: Any) -> Ruleset:
    for key, value in options.items():
        kind = OPTIONS.get(key)
        if kind is None:
            known = ", ".join(OPTIONS)
            raise RuleError("unknown_option", f"no option {key!r}; options are: {known}")
        # bool is an int in Python; keep the two apart so `hand_size=True` is refused
        if type(value) is not kind:
            raise RuleError("invalid_option", f"option {key!r} takes a {kind.__name__}")
    changed = msgspec.structs.replace(base, **options)
    check(changed)
    return changed


def check_options(options: Mapping[str, Any]) -> None:
    """Refuse a club's option outside ``OPTION_BOUNDS`` (an unknown one or a wrong type: ``with_options``)."""
    for key, value in options.items():
        low, high = OPTION_BOUNDS.get(key, (None, None))
        if low is not None and high is not None and type(value) is int and not low <= value <= high:
            raise RuleError("invalid_option", f"option {key!r} is between {low} and {high}")


def check(rules: Ruleset) -> None:
    """Refuse a ruleset that cannot be dealt or scored."""
    deck_size = 4 * len(rules.ranks)
    if rules.target_score < 1:
        raise RuleError("invalid_option", "target_score must be at least 1")
    if rules.call_penalty < 0 or rules.call_penalty > 10:
        raise RuleError("invalid_option", "call_penalty must be between 0 and 10")
    if rules.hand_size < 1 or rules.hand_size * rules.max_players + 2 > deck_size:
        most = (deck_size - 2) // rules.max_players
        raise RuleError(
            "invalid_option",
            f"hand_size must be between 1 and {most} for {rules.max_players} players "
            f"and a {deck_size}-card deck",
        )
    unknown = (set(rules.ranks) | set(rules.effects) | set(rules.debt_answers)) - set(RANKS)
    if unknown:
        raise RuleError("invalid_ruleset", f"unknown ranks {sorted(unknown)}")
    if set(rules.card_points) != set(rules.ranks):
        raise RuleError("invalid_ruleset", "card_points must give every rank of the deck")
    if not 2 <= rules.min_players <= rules.max_players:
        raise RuleError("invalid_ruleset", "players allowed must be a range starting at 2")
    _check_round_rules(rules)


def _check_round_rules(rules: Ruleset) -> None:
    names = set(rules.ranks) | {rank + suit for rank in rules.ranks for suit in SUITS}
    for field in ("out_multiplier", "out_points", "only_points"):
        unknown = set(getattr(rules, field)) - names
        if unknown:
            raise RuleError("invalid_ruleset", f"{field} names cards not in the deck: {sorted(unknown)}")
    if any(times < 1 for times in rules.out_multiplier.values()):
        raise RuleError("invalid_ruleset", "out_multiplier is 1 or more")
    if rules.elimination_total is not None and rules.elimination_total < 1:
        raise RuleError("invalid_option", "elimination_total must be at least 1")
    if not all(rules.call_words):
        raise RuleError("invalid_ruleset", "each call is said as a word")
