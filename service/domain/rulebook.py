"""A ruleset compiled into lookup tables, so a move is a few mask operations.

Hands are bitmasks of cards (see ``cards``). Each table answers one question
of the rule book for a card or a suit, e.g. ``may_follow[c]``: the cards that
may be played on ``c`` as an ordinary top card (its suit, its rank, or a wild).
"""

from functools import lru_cache

import msgspec

from service.domain.actions import WILD_PLAY
from service.domain.cards import CARDS_PER_SUIT, RANKS, SUITS, cards_in, mask_of, rank_of
from service.domain.rulesets import Ruleset

NO_CALL, MAU, MAU_MAU = 0, 1, 2
_SUIT_BITS = (1 << CARDS_PER_SUIT) - 1
CALL_NAMES: tuple[str | None, ...] = (None, "mau", "mau_mau")


class Rulebook:
    __slots__ = (
        "debt_answers",
        "debt_of",
        "deck",
        "deck_mask",
        "effectless",
        "follows_named_suit",
        "mau_mau_due_on",
        "may_follow",
        "play_drawn_card",
        "plays",
        "points",
        "points_by_suit",
        "reverses",
        "rules",
        "skip_cards",
        "skips",
        "sorted_deck",
        "voluntary_draw",
        "wild",
    )

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        ranks_in_deck = {RANKS.index(rank) for rank in rules.ranks}
        self.deck: tuple[int, ...] = tuple(
            suit * CARDS_PER_SUIT + rank for suit in range(len(SUITS)) for rank in sorted(ranks_in_deck)
        )
        self.sorted_deck = sorted(self.deck)
        self.deck_mask = mask_of(self.deck)
        in_deck = self.deck_mask

        def cards_of_rank(rank: str) -> int:
            r = RANKS.index(rank)
            return mask_of(c for c in self.deck if rank_of(c) == r)

        suit_cards = [
            mask_of(range(s * CARDS_PER_SUIT, (s + 1) * CARDS_PER_SUIT)) & in_deck
            for s in range(len(SUITS))
        ]
        rank_cards = [mask_of(range(r, 52, CARDS_PER_SUIT)) & in_deck for r in range(len(RANKS))]
        effect = [rules.effects.get(RANKS[rank_of(c)]) for c in range(52)]

        self.wild = mask_of(c for c in self.deck if effect[c] is not None and effect[c].wild)
        self.debt_answers = 0
        for rank in rules.debt_answers:
            self.debt_answers |= cards_of_rank(rank)
        self.may_follow: tuple[int, ...] = tuple(
            suit_cards[c // CARDS_PER_SUIT] | rank_cards[c % CARDS_PER_SUIT] | self.wild
            for c in range(52)
        )
        self.follows_named_suit: tuple[int, ...] = tuple(suit_cards[s] | self.wild for s in range(4))
        self.debt_of: tuple[int, ...] = tuple(e.draw if e else 0 for e in effect)
        self.skips: tuple[bool, ...] = tuple(bool(e and e.skip) for e in effect)
        self.skip_cards = mask_of(c for c in self.deck if self.skips[c])
        self.reverses: tuple[bool, ...] = tuple(bool(e and e.reverse) for e in effect)
        self.effectless = mask_of(c for c in self.deck if effect[c] is None)
        self.voluntary_draw = rules.voluntary_draw
        self.play_drawn_card = rules.play_drawn_card
        self.plays: dict[int, tuple[int, ...]] = {}
        self.points: tuple[int, ...] = tuple(
            rules.card_points.get(RANKS[rank_of(c)], 0) for c in range(52)
        )
        # the points of every set of cards of one suit, indexed by its 13-bit mask; each
        # set is a smaller set plus its lowest card
        by_suit = []
        for suit in range(4):
            table = [0] * (1 << CARDS_PER_SUIT)
            for chunk in range(1, 1 << CARDS_PER_SUIT):
                low = chunk & -chunk
                table[chunk] = table[chunk ^ low] + self.points[suit * CARDS_PER_SUIT + low.bit_length() - 1]
            by_suit.append(tuple(table))
        self.points_by_suit: tuple[tuple[int, ...], ...] = tuple(by_suit)
        if rules.mau_mau_call == "always":
            self.mau_mau_due_on = in_deck
        elif rules.mau_mau_call == "on_wild":
            self.mau_mau_due_on = self.wild
        else:
            self.mau_mau_due_on = 0

    def plays_of(self, playable: int) -> tuple[int, ...]:
        """The play actions for a mask of playable cards: one per card, four per wild (a suit each).

        Memoised per mask: the same few-card masks recur all game long.
        """
        found = self.plays.get(playable)
        if found is None:
            actions: list[int] = []
            for c in cards_in(playable):
                if self.wild >> c & 1:
                    actions += (WILD_PLAY + c * 4 + suit for suit in range(4))
                else:
                    actions.append(c)
            found = self.plays[playable] = tuple(actions)
        return found

    def call_due(self, cards_left: int, card: int) -> int:
        """The call a play of ``card`` owes when it leaves ``cards_left`` cards."""
        if cards_left == 1:
            return MAU if self.rules.mau_call else NO_CALL
        if cards_left == 0 and self.mau_mau_due_on >> card & 1:
            return MAU_MAU
        return NO_CALL

    def hand_points(self, hand: int) -> int:
        club, diamond, heart, spade = self.points_by_suit
        return (
            club[hand & _SUIT_BITS]
            + diamond[hand >> 13 & _SUIT_BITS]
            + heart[hand >> 26 & _SUIT_BITS]
            + spade[hand >> 39 & _SUIT_BITS]
        )


@lru_cache(maxsize=512)
def _compiled(encoded: bytes) -> Rulebook:
    return Rulebook(msgspec.json.decode(encoded, type=Ruleset))


def rulebook(rules: Ruleset) -> Rulebook:
    return _compiled(msgspec.json.encode(rules))
