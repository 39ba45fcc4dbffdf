"""Provably fair shuffles: commit to each deck order before a card moves, reveal after.

Every deal (and every recycle of the stock) is stored with a public
*commitment*: ``sha256(salt + "|" + order)`` in hex, where ``order`` is the
cards in the order they come off the deck, by name, joined by commas
(``"10H,QS,7D,..."``; see ``cards.format_card``) and ``salt`` is 32 hex digits
kept secret until the round ends. When the round ends the salts are revealed
(the ``DeckRevealed`` event), so anyone holding the commitment, the salt and
the order can check that the deck was fixed before the first card moved:

    verify(commitment, salt, order)

The salt is derived from the game's secret seed and the event number of the
shuffle (HMAC-SHA256), so revealing it tells nothing about the seed or about
the decks still to come.
"""

import hashlib
import hmac
from collections.abc import Sequence

from service.domain.cards import format_card


def salt_for(seed: str, number: int) -> str:
    """The secret salt of the shuffle stored as event ``number`` of a game with this seed."""
    return hmac.new(seed.encode(), f"salt:{number}".encode(), hashlib.sha256).hexdigest()[:32]


def commitment(salt: str, order: Sequence[int]) -> str:
    text = salt + "|" + ",".join(format_card(card) for card in order)
    return hashlib.sha256(text.encode()).hexdigest()


def verify(commitment_hex: str, salt: str, order: Sequence[int]) -> bool:
    """True when ``order`` (card ints) and ``salt`` are what ``commitment_hex`` committed to."""
    return hmac.compare_digest(commitment(salt, order), commitment_hex.lower())
