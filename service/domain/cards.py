"""Cards as small ints, so hands can be bitmasks.

A card's id is ``copy * 54 + base``. ``base`` 0..51 is ``suit * 13 + rank``: rank 0..12 stands for
2..10, J, Q, K, A and suit 0..3 for clubs, diamonds, hearts, spades; ``base`` 52 and 53 are the two
jokers of a deck. ``copy`` is 0 for the first deck and 1 for the second, which large tables add.
A joker's rank is 13 (its name is ``"joker"``, as rulesets key its effects) and its suit is 4: it has
none. The ids 0..51 are the ones stored before jokers and second decks existed, so they never move.

Text form, which ``parse_card`` reads back exactly (any case, spaces around ignored):

- a first-deck card is its rank then its suit letter: ``"10H"``, ``"QS"``, ``"7D"``, ``"AC"``;
- a first-deck joker is ``"X1"`` or ``"X2"`` (``"X"`` alone reads as ``"X1"``);
- a second-deck card is the first deck's text and the mark ``".2"``: ``"7D.2"``, ``"X1.2"``.

Copies of a card (and all jokers) play alike, so a player may name a card without its mark:
``in_hand`` resolves the name to whichever copy the hand holds.
"""

from collections.abc import Iterable, Iterator

from service.domain.errors import RuleError

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
SUIT_NAMES: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
CARDS_PER_SUIT = len(RANKS)
# The 52 suited cards of the first deck: the whole deck before jokers and second decks.
FULL_DECK: tuple[int, ...] = tuple(range(len(SUITS) * CARDS_PER_SUIT))

JOKER = "joker"
JOKER_RANK = len(RANKS)
JOKER_SUIT = len(SUITS)
JOKERS_PER_DECK = 2
DECK_SIZE = len(FULL_DECK) + JOKERS_PER_DECK
MAX_DECKS = 2
CARD_COUNT = DECK_SIZE * MAX_DECKS
COPY_MARK = ".2"

# A card's bit in a hand mask: indexing this is cheaper than shifting on a hot path.
CARD_BITS: tuple[int, ...] = tuple(1 << c for c in range(CARD_COUNT))

# A card and a suit as a client writes them (any case, no spaces around): what the OpenAPI document states
# and the application takes (``parse_card`` and ``parse_suit`` are more lenient, for people and tests).
CARD_PATTERN = r"^(?:(?:[2-9]|10|[JQKAjqka])[CDHScdhs]|[Xx][12]?)(?:\.2)?$"
SUIT_PATTERN = (
    "^(?:[CDHScdhs]|" + "|".join("".join(f"[{c.upper()}{c}]" for c in name) for name in SUIT_NAMES) + ")$"
)

_RANK_INDEX = {rank: index for index, rank in enumerate(RANKS)} | {JOKER: JOKER_RANK}
_SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}


def _base_name(base: int) -> str:
    if base >= len(FULL_DECK):
        return f"X{base - len(FULL_DECK) + 1}"
    return RANKS[base % CARDS_PER_SUIT] + SUITS[base // CARDS_PER_SUIT]


_NAMES: tuple[str, ...] = tuple(
    _base_name(c % DECK_SIZE) + (COPY_MARK if c >= DECK_SIZE else "") for c in range(CARD_COUNT)
)
_BY_NAME = {name: c for c, name in enumerate(_NAMES)} | {"X": DECK_SIZE - 2, "X" + COPY_MARK: CARD_COUNT - 2}
_BASES = tuple(c % DECK_SIZE for c in range(CARD_COUNT))
_RANK_OF: tuple[int, ...] = tuple(JOKER_RANK if b >= len(FULL_DECK) else b % CARDS_PER_SUIT for b in _BASES)
_SUIT_OF: tuple[int, ...] = tuple(JOKER_SUIT if b >= len(FULL_DECK) else b // CARDS_PER_SUIT for b in _BASES)
# Every id that plays as the card does: its copies, and for a joker every joker.
_ALIKE: tuple[int, ...] = tuple(
    sum(1 << o for o in range(CARD_COUNT) if (_RANK_OF[o], _SUIT_OF[o]) == (_RANK_OF[c], _SUIT_OF[c]))
    for c in range(CARD_COUNT)
)
_RANK_CARDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in range(CARD_COUNT) if _RANK_OF[c] == rank) for rank in range(JOKER_RANK + 1)
)


def card(rank: str, suit: str) -> int:
    return parse_card(rank + suit)


def rank_of(c: int) -> int:
    """0..12 for 2..A, ``JOKER_RANK`` (13) for a joker."""
    return _RANK_OF[c]


def suit_of(c: int) -> int:
    """0..3 for clubs..spades, ``JOKER_SUIT`` (4) for a joker."""
    return _SUIT_OF[c]


def copy_of(c: int) -> int:
    """0 for a card of the first deck, 1 for the second deck's."""
    return c // DECK_SIZE


def is_joker(c: int) -> bool:
    return _RANK_OF[c] == JOKER_RANK


def rank_name(c: int) -> str:
    """The card's rank as rulesets name it: ``"7"``, ``"Q"``, ``"joker"``."""
    return JOKER if is_joker(c) else RANKS[_RANK_OF[c]]


def deck_cards(ranks: Iterable[str], jokers: int, decks: int) -> tuple[int, ...]:
    """The ids of ``decks`` decks of these ranks in every suit and ``jokers`` jokers each, lowest first."""
    if not 0 <= jokers <= JOKERS_PER_DECK:
        raise ValueError(f"a deck holds 0 to {JOKERS_PER_DECK} jokers, not {jokers}")
    if not 1 <= decks <= MAX_DECKS:
        raise ValueError(f"a table plays 1 to {MAX_DECKS} decks, not {decks}")
    indexes = sorted({RANKS.index(rank) for rank in ranks})
    one = [suit * CARDS_PER_SUIT + rank for suit in range(len(SUITS)) for rank in indexes]
    one += range(len(FULL_DECK), len(FULL_DECK) + jokers)
    return tuple(copy * DECK_SIZE + base for copy in range(decks) for base in sorted(one))


def alike(c: int) -> int:
    """The mask of every card that plays as ``c`` does: its copies, and for a joker every joker."""
    return _ALIKE[c]


def rank_cards(c: int) -> tuple[int, ...]:
    """Every card of ``c``'s rank in two decks, lowest first: eight suited cards, or four jokers."""
    return _RANK_CARDS[rank_of(c)]


def in_hand(c: int, hand: int) -> int:
    """The card a player means by ``c``: ``c`` if held, else the lowest held card that plays alike.

    A card held in no copy comes back as it is, for the engine to refuse as not in the hand.
    """
    if hand >> c & 1:
        return c
    held = hand & _ALIKE[c]
    return (held & -held).bit_length() - 1 if held else c


def parse_card(text: str) -> int:
    """``"10H"``, ``"X2"``, ``"7D.2"`` -> the card's int; anything else is a ``malformed_card`` error."""
    found = _BY_NAME.get(text.strip().upper()) if isinstance(text, str) else None
    if found is None:
        raise not_a_card(text)
    return found


def not_a_card(text: object) -> RuleError:
    """The refusal of a text that is no card, saying how cards are written."""
    return RuleError("malformed_card", why="not_card_write", text=text)


def format_card(c: int) -> str:
    return _NAMES[c]


def parse_suit(text: str) -> int:
    key = text.strip().upper() if isinstance(text, str) else ""
    if key in _SUIT_INDEX:
        return _SUIT_INDEX[key]
    for index, name in enumerate(SUIT_NAMES):
        if key == name.upper():
            return index
    raise RuleError("malformed_suit", why="not_suit_use", suit=text)


def format_suit(suit: int) -> str:
    return SUITS[suit]


def parse_rank(text: str) -> int:
    """A rank's text (``"10"``, ``"Q"``, ``"joker"``) -> its index, ``JOKER_RANK`` for the joker."""
    if text not in _RANK_INDEX:
        raise RuleError("malformed_rank", text=text)
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
