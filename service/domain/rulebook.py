"""A ruleset compiled into lookup tables, so a move is a few mask operations.

Hands are bitmasks of cards (see ``cards``). Each table answers one question
of the rule book for a card or a suit, e.g. ``may_follow[c]``: the cards that
may be played on ``c`` as an ordinary top card (its suit, its rank, or a wild).
"""

from functools import lru_cache
from itertools import combinations
from typing import TypeVar

import msgspec

from service.domain.actions import DRAW, KEEP, WILD_PLAY, blind_action, several_action
from service.domain.cards import (
    CARD_COUNT,
    CARDS_PER_SUIT,
    DECK_SIZE,
    FULL_DECK,
    JOKER,
    RANKS,
    SUITS,
    cards_in,
    deck_cards,
    format_card,
    mask_of,
    rank_cards,
    rank_name,
    rank_of,
    suit_of,
)
from service.domain.rulesets import CardEffect, Ruleset

NO_CALL, MAU, MAU_MAU = 0, 1, 2
_SUIT_BITS = (1 << CARDS_PER_SUIT) - 1
CALL_NAMES: tuple[str | None, ...] = (None, "mau", "mau_mau")
# a wild card's play actions, one per suit it may name
_WILD_PLAYS: tuple[tuple[int, ...], ...] = tuple(
    tuple(WILD_PLAY + c * 4 + suit for suit in range(4)) for c in range(CARD_COUNT)
)
_SUITED = len(FULL_DECK)  # the bits of one deck's suited cards; its two jokers come next
_BY_MASK_LIMIT = 1 << 16  # about 130 bytes a mask; 12,000 random-bot club matches leave 45,000


class Rulebook:
    __slots__ = (
        "again",
        "answers_to",
        "blind",
        "calls_due",
        "calls_owed",
        "cancels",
        "choose_drawer",
        "covers_or_waits",
        "debt_answers",
        "debt_of",
        "debt_skips",
        "deck",
        "deck_mask",
        "declared_plays",
        "draw_until_playable",
        "drawn_card_moves",
        "drawn_card_plays",
        "effectless",
        "follows_named_suit",
        "is_ordinary",
        "is_plain",
        "is_wild",
        "joker_points",
        "mau_mau_due_on",
        "may_follow",
        "may_pass",
        "modified",
        "must_cover",
        "no_finish",
        "others_draw",
        "passes",
        "plain_turns",
        "play_drawn_card",
        "plays_and_draw",
        "plays_else_draw",
        "points",
        "points_by_suit",
        "quick",
        "rank_mask",
        "reverses",
        "rules",
        "several_on",
        "skip_cards",
        "skip_passes",
        "skip_waits",
        "skips",
        "sorted_deck",
        "turn_extras",
        "voluntary_draw",
        "wild",
        "window_closes_on_draw",
    )

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.deck: tuple[int, ...] = deck_cards(rules.ranks, rules.jokers, rules.decks)
        self.sorted_deck = sorted(self.deck)
        self.deck_mask = mask_of(self.deck)
        in_deck = self.deck_mask
        every = range(CARD_COUNT)

        # by suit and by rank, a joker's (4 and 13) last: a joker follows only a joker or a wild
        suit_cards = [mask_of(c for c in self.deck if suit_of(c) == s) for s in range(len(SUITS) + 1)]
        rank_cards = [mask_of(c for c in self.deck if rank_of(c) == r) for r in range(len(RANKS) + 1)]

        def cards_of(key: str) -> int:
            """The cards a key stands for: a rank's or the jokers' (every copy), or one card's copies."""
            if key in RANKS or key == JOKER:
                return mask_of(c for c in self.deck if rank_name(c) == key)
            return mask_of(c for c in self.deck if format_card(c % DECK_SIZE) == key)

        def keys_mask(keys: tuple[str, ...]) -> int:
            found = 0
            for key in keys:
                found |= cards_of(key)
            return found

        # a card's own entry overrides its rank's
        effect: list[CardEffect | None] = [
            rules.effects.get(format_card(c % DECK_SIZE), rules.effects.get(rank_name(c))) for c in every
        ]

        self.wild = mask_of(c for c in self.deck if (e := effect[c]) is not None and e.wild)
        cancelling = mask_of(c for c in self.deck if (e := effect[c]) is not None and e.cancels_debt)
        default_answers = keys_mask(rules.debt_answers)
        # answers_to[c]: the cards that may be played on c while its draw debt is pending
        self.answers_to: tuple[int, ...] = tuple(
            cancelling | (default_answers if e is None or e.answers is None else keys_mask(e.answers))
            for e in effect
        )
        # every card that may answer some debt (a bot keeps them for when it faces one)
        self.debt_answers = mask_of(c for c in self.deck if any(a >> c & 1 for a in self.answers_to))
        # not_on[c]: the cards that may not be played on c whatever its suit and rank (prsi's Ober
        # on a seven or an ace)
        not_on = [0] * CARD_COUNT
        for c in self.deck:
            played = effect[c]
            if played is not None and played.not_on:
                for top in cards_in(keys_mask(played.not_on)):
                    not_on[top] |= 1 << c
        self.may_follow: tuple[int, ...] = tuple(
            (suit_cards[suit_of(c)] | rank_cards[rank_of(c)] | self.wild) & ~not_on[c] for c in every
        )
        self.follows_named_suit: tuple[int, ...] = tuple(suit_cards[s] | self.wild for s in range(4))
        self.debt_of: tuple[int, ...] = tuple(e.draw if e else 0 for e in effect)
        self.skips: tuple[bool, ...] = tuple(bool(e and e.skip) for e in effect)
        self.skip_cards = mask_of(c for c in self.deck if self.skips[c])
        self.reverses: tuple[bool, ...] = tuple(bool(e and e.reverse) for e in effect)
        self.effectless = mask_of(c for c in self.deck if effect[c] is None)
        self.debt_skips: tuple[bool, ...] = tuple(e is None or e.draw_skips for e in effect)
        self.again: tuple[bool, ...] = tuple(bool(e and e.again) for e in effect)
        self.must_cover: tuple[bool, ...] = tuple(bool(e and e.again and e.must_cover) for e in effect)
        self.skip_waits: tuple[bool, ...] = tuple(bool(e and e.skip and e.skip_waits) for e in effect)
        # a card after which its player may end the turn instead of playing on
        self.may_pass: tuple[bool, ...] = tuple(bool(e and e.again and e.may_pass) for e in effect)
        self.passes = any(self.may_pass)
        # the cards that pass on a waiting skip: the top card while one waits follows only them
        self.skip_passes = mask_of(c for c in self.deck if self.skip_waits[c])
        self.others_draw: tuple[int, ...] = tuple(e.others_draw if e else 0 for e in effect)
        self.choose_drawer: tuple[int, ...] = tuple(e.choose_drawer if e else 0 for e in effect)
        self.cancels: tuple[bool, ...] = tuple(bool(e and e.cancels_debt) for e in effect)
        self.no_finish = mask_of(c for c in self.deck if (e := effect[c]) is not None and not e.ends_hand)
        # a card whose effect is at most a draw, a skip, a reverse and a suit: the play's fast path
        self.is_plain: tuple[bool, ...] = tuple(
            not (
                self.again[c]
                or self.others_draw[c]
                or self.choose_drawer[c]
                or self.cancels[c]
                or self.skip_waits[c]
            )
            for c in every
        )
        self.draw_until_playable = rules.draw_until_playable
        # the same two facts per card, as flags a play reads by the card's number
        self.is_wild: tuple[bool, ...] = tuple(bool(self.wild >> c & 1) for c in every)
        self.is_ordinary: tuple[bool, ...] = tuple(bool(self.effectless >> c & 1) for c in every)
        self.voluntary_draw = rules.voluntary_draw
        self.quick = rules.quick
        self.blind = rules.blind
        # the cards of each card's rank in the deck, itself included (quick's plays of several)
        self.rank_mask: tuple[int, ...] = tuple(rank_cards[rank_of(c)] for c in every)
        self.modified = rules.quick or rules.blind  # a modifier adds to a seat's plays
        # a seat's choices on turn may differ from the playable cards or the draw: a modifier's plays,
        # or ending the turn after a card that lets its player play again (``passes``)
        self.turn_extras = self.modified or self.passes
        # A play leaves a card to cover, a skip waiting or a turn its player may end only in presets
        # with such cards: without them a play's event and the next turn skip those checks altogether.
        self.covers_or_waits = any(self.must_cover) or any(self.skip_waits) or self.passes
        # club's kind of turn: any card may end a hand, no skip waits, a draw only when nothing
        # may be played and no modifier: a seat's choices are one memo lookup
        self.plain_turns = not (
            self.no_finish or self.covers_or_waits or rules.voluntary_draw or self.modified
        )
        # quick: per bottom card, its plays of several by the hand's cards of its rank, memoised
        # (see several_plays_for); a rank has at most eight cards, so at most 256 entries a card
        self.several_on: tuple[dict[int, tuple[int, ...]], ...] = tuple({} for _ in every)
        # blind: by the mask of cards that may be declared now, each one's face-down plays of card 0
        # (see declared_plays_for); the masks are the few a top card or a debt allows
        self.declared_plays: dict[int, tuple[tuple[int, ...], ...]] = {}
        self.play_drawn_card = rules.play_drawn_card
        self.window_closes_on_draw = rules.window_closes_on_draw
        # A seat's choices by the mask of cards it may play, memoised: the same few-card
        # masks recur all game long, so legal_actions is a mask AND and a lookup. Plain
        # dicts (a dict subclass's [] costs twice as much); a mask not met before goes to
        # the *_for method, which remembers it.
        # Playable cards, or the draw when there are none (a draw is mandatory then):
        self.plays_else_draw: dict[int, tuple[int, ...]] = {}
        # Playable cards and the draw (a debt, or a voluntary draw):
        self.plays_and_draw: dict[int, tuple[int, ...]] = {}
        # After drawing: play the drawn card (when it may be played), or keep it
        self.drawn_card_moves: tuple[tuple[int, ...], ...] = tuple(
            (*self.plays_of(1 << c), KEEP) for c in every
        )
        # After drawing the card that covers a card that must be covered: play it
        self.drawn_card_plays: tuple[tuple[int, ...], ...] = tuple(self.plays_of(1 << c) for c in every)
        self.points: tuple[int, ...] = tuple(rules.card_points.get(rank_name(c), 0) for c in every)
        self.joker_points = rules.card_points.get(JOKER, 0)
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
        # whether any play ever owes a call (faraon: none, so a bot need not ask)
        self.calls_owed = rules.mau_call or bool(self.mau_mau_due_on)
        # calls_due[cards_left][card]: the call a play of the card owes when it leaves 0 or 1 cards
        self.calls_due: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(MAU_MAU if self.mau_mau_due_on >> c & 1 else NO_CALL for c in every),
            (MAU if rules.mau_call else NO_CALL,) * CARD_COUNT,
        )

    def plays_of(self, playable: int) -> tuple[int, ...]:
        """The play actions for a mask of playable cards: one per card, four per wild (a suit each)."""
        # lowest card first, without cards_in's generator: this runs on every memo miss
        actions: list[int] = []
        while playable:
            low = playable & -playable
            c = low.bit_length() - 1
            playable ^= low
            if self.is_wild[c]:
                actions += _WILD_PLAYS[c]
            else:
                actions.append(c)
        return tuple(actions)

    def plays_else_draw_for(self, playable: int) -> tuple[int, ...]:
        return _remember(self.plays_else_draw, playable, self.plays_of(playable) or (DRAW,))

    def plays_and_draw_for(self, playable: int) -> tuple[int, ...]:
        return _remember(self.plays_and_draw, playable, (*self.plays_of(playable), DRAW))

    def several_plays_for(self, bottom: int, group: int, key: int) -> tuple[int, ...]:
        """The plays of several cards (``quick``) with ``bottom`` at the bottom, from ``group``: the
        hand's cards of its rank. ``key`` is ``group``, or ``~group`` when they are the whole hand, so
        that a play of them all empties it (and may not end on a card that may not be the last)."""
        whole = key < 0
        others = [c for c in rank_cards(bottom) if group >> c & 1 and c != bottom]
        plays: list[int] = []
        for size in range(1, len(others) + 1):
            emptied = whole and size == len(others)
            for chosen in combinations(others, size):
                for top in chosen:
                    if emptied and self.no_finish >> top & 1:
                        continue
                    cards = (bottom, *[c for c in chosen if c != top], top)
                    suits = range(4) if self.is_wild[top] else (-1,)
                    plays += [several_action(cards, suit) for suit in suits]
        found = self.several_on[bottom][key] = tuple(plays)
        return found

    def declared_plays_for(self, declarable: int) -> tuple[tuple[int, ...], ...]:
        """Per card that may be declared now (``blind``), lowest first, its face-down plays of card
        0 (one per suit a wild names): card ``c``'s are these plus ``c * FACE_DOWN_STEP``."""
        found = tuple(
            tuple(blind_action(0, declared, suit) for suit in (range(4) if self.is_wild[declared] else (-1,)))
            for declared in cards_in(declarable)
        )
        return _remember(self.declared_plays, declarable, found)

    def hand_points(self, hand: int) -> int:
        total = self._suited_points(hand)
        rest = hand >> _SUITED  # the first deck's two jokers, then the second deck as the first
        if rest:
            total += self.joker_points * (rest & 3).bit_count()
            rest >>= 2
            total += self._suited_points(rest) + self.joker_points * (rest >> _SUITED & 3).bit_count()
        return total

    def _suited_points(self, hand: int) -> int:
        """The points of the suited cards among a hand's lowest 52 bits."""
        club, diamond, heart, spade = self.points_by_suit
        return (
            club[hand & _SUIT_BITS]
            + diamond[hand >> 13 & _SUIT_BITS]
            + heart[hand >> 26 & _SUIT_BITS]
            + spade[hand >> 39 & _SUIT_BITS]
        )


# what a memo keeps per mask: actions, or per card its actions
_Actions = TypeVar("_Actions", tuple[int, ...], tuple[tuple[int, ...], ...])


def _remember(memo: dict[int, _Actions], mask: int, actions: _Actions) -> _Actions:
    """Keep ``actions`` for ``mask``. The memo is emptied when it reaches ``_BY_MASK_LIMIT``
    masks: a long-running service meets ever more rare masks, and a full memo would only grow."""
    if len(memo) >= _BY_MASK_LIMIT:
        memo.clear()
    memo[mask] = actions
    return actions


@lru_cache(maxsize=512)
def _compiled(encoded: bytes) -> Rulebook:
    return Rulebook(msgspec.json.decode(encoded, type=Ruleset))


def rulebook(rules: Ruleset) -> Rulebook:
    return _compiled(msgspec.json.encode(rules))
