"""Actions: a seat's choices as small ints, the way ``legal_actions`` lists them.

A play of an ordinary card is the card itself (0..107, see ``cards.CARD_COUNT``);
a wild card's play also names the suit; drawing, keeping the drawn card,
challenging, naming the starter's suit and choosing the player who draws have
codes of their own. Calls are said with a play, not chosen as actions.
"""

from collections.abc import Sequence

from service.domain.cards import CARD_COUNT, rank_cards

WILD_PLAY = 128  # + card * 4 + suit; above every card id, so a plain play never reads as a wild one
DRAW = 1000
KEEP = 1001
CHALLENGE = 1002
CHALLENGE_DECLARATION = 1003  # blind: the next player doubts the face-down card before them
NAME_SUIT = 1010  # + suit
CHOOSE = 1020  # + the seat chosen


def play_action(card: int, suit: int = -1) -> int:
    return card if suit < 0 else WILD_PLAY + card * 4 + suit


# A play of several cards of one rank (the ``quick`` modifier), above every other action:
# SEVERAL_PLAY + ((bottom * CARD_COUNT + top) << 8 | copies) * 5 + suit + 1, where bit i of
# ``copies`` is the i-th card of the rank (``rank_cards``) among the cards played. The cards
# between the bottom and the top are laid in that order.
SEVERAL_PLAY = 1 << 20


def several_action(cards: Sequence[int], suit: int = -1) -> int:
    """The action of playing ``cards`` (bottom first, at least two of one rank), naming ``suit``."""
    order = rank_cards(cards[0])
    copies = 0
    for c in cards:
        copies |= 1 << order.index(c)
    return SEVERAL_PLAY + ((cards[0] * CARD_COUNT + cards[-1]) << 8 | copies) * 5 + suit + 1


def several_cards(action: int) -> tuple[tuple[int, ...], int]:
    """(the cards bottom first, the suit named or -1) of a ``several_action``."""
    found = _SEVERAL_CARDS.get(action)
    if found is None:
        packed, suit = divmod(action - SEVERAL_PLAY, 5)
        bottom, top = divmod(packed >> 8, CARD_COUNT)
        copies = packed & 255
        between = [c for i, c in enumerate(rank_cards(bottom)) if copies >> i & 1 and c not in (bottom, top)]
        found = (bottom, *between, top), suit - 1
        if len(_SEVERAL_CARDS) >= _SEVERAL_LIMIT:
            _SEVERAL_CARDS.clear()
        _SEVERAL_CARDS[action] = found
    return found


# The plays of several decoded so far: a bot decodes the one it picks on every such turn, and the
# same ones recur all game long. Emptied when full, so a long-running service cannot grow it.
_SEVERAL_CARDS: dict[int, tuple[tuple[int, ...], int]] = {}
_SEVERAL_LIMIT = 1 << 14


# A card played face down as a declared card (the ``blind`` modifier), above the plays of several:
# BLIND_PLAY + (card * CARD_COUNT + declared) * 5 + suit + 1.
BLIND_PLAY = 1 << 26
# What one card more adds to a face-down play: card c's play as d is card 0's as d plus c * this.
FACE_DOWN_STEP = CARD_COUNT * 5


def blind_action(card: int, declared: int, suit: int = -1) -> int:
    return BLIND_PLAY + (card * CARD_COUNT + declared) * 5 + suit + 1


def blind_play(action: int) -> tuple[int, int, int]:
    """(card, declared, suit) of a ``blind_action``."""
    packed, suit = divmod(action - BLIND_PLAY, 5)
    card, declared = divmod(packed, CARD_COUNT)
    return card, declared, suit - 1
