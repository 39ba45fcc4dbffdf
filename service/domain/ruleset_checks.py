"""Whether a ruleset can be played: dealt and scored (``check``), and at a table of so many seats
(``check_table``)."""

import msgspec

from service.domain.cards import JOKER, JOKERS_PER_DECK, MAX_DECKS, RANKS, SUITS
from service.domain.errors import RuleError
from service.domain.rulesets import Ruleset

# Rulesets found sound, by their encoding: every match start checks its ruleset and a worker
# meets the same few all day. Bounded like rulebook()'s cache.
_SOUND: set[bytes] = set()
_SOUND_LIMIT = 512


def check(rules: Ruleset) -> None:
    """Refuse a ruleset that cannot be dealt or scored."""
    encoded = msgspec.json.encode(rules)
    if encoded in _SOUND:
        return
    _check(rules)
    if len(_SOUND) >= _SOUND_LIMIT:
        _SOUND.clear()
    _SOUND.add(encoded)


def _check(rules: Ruleset) -> None:
    if not 0 <= rules.jokers <= JOKERS_PER_DECK:
        raise RuleError("invalid_ruleset", why="deck_holds_jokers", jokers_per_deck=JOKERS_PER_DECK)
    if not 1 <= rules.decks <= MAX_DECKS:
        raise RuleError("invalid_option", why="decks_between", max_decks=MAX_DECKS)
    deck_size = cards_in_deck(rules)
    if rules.target_score < 1:
        raise RuleError("invalid_option", why="target_score_least")
    if rules.call_penalty < 0 or rules.call_penalty > 10:
        raise RuleError("invalid_option", why="call_penalty_between")
    # the smallest table must be dealt; a larger one is checked when its seats are known (check_table)
    if rules.hand_size < 1 or rules.hand_size * rules.min_players + 2 > deck_size:
        most = (deck_size - 2) // rules.min_players
        raise RuleError(
            "invalid_option",
            why="hand_size_between",
            most=most,
            min_players=rules.min_players,
            deck_size=deck_size,
        )
    # a hand of more than three cards of every rank (and every joker) holds four of one rank: where
    # that annuls the deal, no deal would ever stand and the round would never begin
    most_without_four = 3 * len(rules.ranks) + rules.jokers * rules.decks
    if rules.redeal_four_of_a_kind and rules.hand_size > most_without_four:
        raise RuleError("invalid_option", why="hand_size_most", most_without_four=most_without_four)
    if set(rules.ranks) - set(RANKS):
        raise RuleError("invalid_ruleset", why="unknown_ranks", ranks=sorted(set(rules.ranks) - set(RANKS)))
    keys = {*rules.effects, *rules.debt_answers}
    for effect in rules.effects.values():
        keys.update(effect.answers or ())
        keys.update(effect.not_on)
    unknown = {key for key in keys if not _is_key(key)}
    if unknown:
        raise RuleError("invalid_ruleset", why="unknown_ranks_cards", unknown=sorted(unknown))
    if set(rules.card_points) != {*rules.ranks, *([JOKER] if rules.jokers else [])}:
        raise RuleError("invalid_ruleset", why="card_points_give")
    if not 2 <= rules.min_players <= rules.max_players:
        raise RuleError("invalid_ruleset", why="players_allowed_range")
    _check_round_rules(rules)


def cards_in_deck(rules: Ruleset) -> int:
    return (4 * len(rules.ranks) + rules.jokers) * rules.decks


def most_players(rules: Ruleset) -> int:
    """The most seats the ruleset allows with its decks (the deal may allow fewer: ``check_table``)."""
    if rules.decks > 1 and rules.max_players_two_decks is not None:
        return rules.max_players_two_decks
    return rules.max_players


def check_table(rules: Ruleset, seats: int) -> None:
    """Refuse a table the ruleset does not seat, or whose hands, starter and a card to draw the
    deck cannot give."""
    most = most_players(rules)
    if not rules.min_players <= seats <= most:
        raise RuleError(
            "player_count", why="players", name=rules.name, min_players=rules.min_players, most=most
        )
    deck_size = cards_in_deck(rules)
    if rules.hand_size * seats + 2 > deck_size:
        raise RuleError(
            "invalid_option",
            why="card_deck_deals",
            deck_size=deck_size,
            hand_size=rules.hand_size,
            most=(deck_size - 2) // rules.hand_size,
            seats=seats,
        )


def _check_round_rules(rules: Ruleset) -> None:
    names = set(rules.ranks) | {rank + suit for rank in rules.ranks for suit in SUITS}
    for field in ("out_multiplier", "out_points", "only_points"):
        unknown = set(getattr(rules, field)) - names
        if unknown:
            raise RuleError("invalid_ruleset", why="names_cards_not", field=field, unknown=sorted(unknown))
    if any(times < 1 for times in rules.out_multiplier.values()):
        raise RuleError("invalid_ruleset", why="out_multiplier_more")
    if rules.elimination_total is not None and rules.elimination_total < 1:
        raise RuleError("invalid_option", why="elimination_total_least")
    if not all(rules.call_words):
        raise RuleError("invalid_ruleset", why="each_call_said")


def _is_key(key: str) -> bool:
    """A rank, a card in text form ("KS", "10H") or the jokers."""
    return key in RANKS or key == JOKER or (key[-1:] in SUITS and key[:-1] in RANKS)
