"""Cards as small ints, so hands can be bitmasks.

A card is ``suit * 13 + rank``: rank 0..12 stands for 2..10, J, Q, K, A and
suit 0..3 for clubs, diamonds, hearts, spades. Text form is rank then suit
letter: ``"10H"``, ``"QS"``, ``"7D"``, ``"AC"``.
"""

from collections.abc import Iterable, Iterator

from service.domain.errors import RuleError

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
SUIT_NAMES: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
CARDS_PER_SUIT = len(RANKS)
FULL_DECK: tuple[int, ...] = tuple(range(len(SUITS) * CARDS_PER_SUIT))

# A card's bit in a hand mask: indexing this is cheaper than shifting on a hot path.
CARD_BITS: tuple[int, ...] = tuple(1 << c for c in FULL_DECK)

# A card and a suit as a client writes them (any case, no spaces around): what the OpenAPI document states
# and the application takes (``parse_card`` and ``parse_suit`` are more lenient, for people and tests).
CARD_PATTERN = "^(?:[2-9]|10|[JQKAjqka])[CDHScdhs]$"
SUIT_PATTERN = (
    "^(?:[CDHScdhs]|" + "|".join("".join(f"[{c.upper()}{c}]" for c in name) for name in SUIT_NAMES) + ")$"
)

_RANK_INDEX = {rank: index for index, rank in enumerate(RANKS)}
_SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}
_NAMES: tuple[str, ...] = tuple(RANKS[c % CARDS_PER_SUIT] + SUITS[c // CARDS_PER_SUIT] for c in FULL_DECK)
_BY_NAME = {name: card for card, name in enumerate(_NAMES)}


def card(rank: str, suit: str) -> int:
    return parse_card(rank + suit)


def rank_of(c: int) -> int:
    return c % CARDS_PER_SUIT


def suit_of(c: int) -> int:
    return c // CARDS_PER_SUIT


def parse_card(text: str) -> int:
    """``"10H"`` -> the card's int; anything else is a ``malformed_card`` error."""
    found = _BY_NAME.get(text.strip().upper()) if isinstance(text, str) else None
    if found is None:
        raise RuleError(
            "malformed_card",
            # no example card: a refusal must name no card, so that no answer can be told from a leak
            f"{text!r} is not a card: write the rank (2-10, J, Q, K, A) then the suit (C, D, H or S)",
        )
    return found


def format_card(c: int) -> str:
    return _NAMES[c]


def parse_suit(text: str) -> int:
    key = text.strip().upper() if isinstance(text, str) else ""
    if key in _SUIT_INDEX:
        return _SUIT_INDEX[key]
    for index, name in enumerate(SUIT_NAMES):
        if key == name.upper():
            return index
    raise RuleError("malformed_suit", f"{text!r} is not a suit: use C, D, H or S")


def format_suit(suit: int) -> str:
    return SUITS[suit]


def parse_rank(text: str) -> int:
    if text not in _RANK_INDEX:
        raise RuleError("malformed_rank", f"{text!r} is not a rank: use 2-10, J, Q, K or A")
    return _RANK_INDEX[text]


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_in(mask: int) -> Iterator[int]:
    """The cards of a bitmask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def format_cards(mask_or_cards: int | Iterable[int]) -> list[str]:
    cards = cards_in(mask_or_cards) if isinstance(mask_or_cards, int) else mask_or_cards
    return [_NAMES[c] for c in cards]
