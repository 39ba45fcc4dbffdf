"""Provably fair shuffles: commit to each deck order before a card moves, reveal after.

Every deal (and every recycle of the stock) is stored with a public
*commitment*: ``sha256(salt + "|" + order)`` in hex, where ``order`` is the
cards in the order they come off the deck, by name, joined by commas
(``"10H,QS,7D,..."``; see ``cards.format_card``) and ``salt`` is 32 hex digits
kept secret until the round ends. When the round ends the salts are revealed
(the ``DeckRevealed`` event), so anyone holding the commitment, the salt and
the order can check that the deck was fixed before the first card moved:

    verify(commitment, salt, order)

The salt is derived from the game's secret and the event number of the
shuffle (HMAC-SHA256), so revealing it tells nothing about the secret or about
the decks still to come.

A game's secret (``game_secret``) is its seed mixed with at least 256 bits of
entropy drawn when the game is created and kept in its creation event, which
only the store holds (no entry, view or projection shows it). A seed alone,
even one an official chose ("table 4"), is therefore no way to check a
commitment or to foresee a deck: guessing it is not enough, the entropy would
have to be guessed too. Officials replay a game from its log, where every deck
order is recorded, not from its seed.
"""

import hashlib
import hmac
from collections.abc import Sequence

import msgspec

from service.domain.cards import format_card

# The least entropy a game's secret is mixed with: 32 bytes, as hex digits.
ENTROPY_HEX_DIGITS = 64


def game_secret(seed: str, entropy: str) -> str:
    """The secret every chance of a game follows from: its seed keyed by the creation's entropy."""
    if not entropy:
        # a game stored before creations drew entropy: its chance followed from the seed alone
        return seed
    return hmac.new(entropy.encode(), seed.encode(), hashlib.sha256).hexdigest()


def salt_for(secret: str, number: int) -> str:
    """The secret salt of the shuffle stored as event ``number`` of a game with this secret."""
    return hmac.new(secret.encode(), f"salt:{number}".encode(), hashlib.sha256).hexdigest()[:32]


def commitment(salt: str, order: Sequence[int]) -> str:
    text = salt + "|" + ",".join(format_card(card) for card in order)
    return hashlib.sha256(text.encode()).hexdigest()


def verify(commitment_hex: str, salt: str, order: Sequence[int]) -> bool:
    """True when ``order`` (card ints) and ``salt`` are what ``commitment_hex`` committed to."""
    return hmac.compare_digest(commitment(salt, order), commitment_hex.lower())


class Revealed(msgspec.Struct, frozen=True, array_like=True):
    """A shuffle's salt, made public at its round's end (``Game.DeckRevealed``)."""

    number: int  # the event number of the shuffle
    salt: str
