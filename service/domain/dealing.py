"""Who gets which card of a deal when hands differ in size or seats are out of the match.

Cards go one at a time clockwise from the dealer's left, as in every deal; a seat whose hand is
full (or that is out, dealt nothing) is passed over. ``RoundDealt`` deals equal hands without
this, on its own faster path.
"""

from functools import lru_cache

from service.domain.cards import CARD_BITS, CARDS_PER_SUIT, cards_in, rank_of


def dealt_hands(seats: int, dealer: int, deck: tuple[int, ...], sizes: tuple[int, ...]) -> list[int]:
    """Each seat's hand (a mask) when seat ``n`` is dealt ``sizes[n]`` cards from the top of ``deck``."""
    hands = [0] * seats
    for at, seat in enumerate(_receivers(seats, dealer, sizes)):
        hands[seat] |= CARD_BITS[deck[at]]
    return hands


@lru_cache(maxsize=4096)
def _receivers(seats: int, dealer: int, sizes: tuple[int, ...]) -> tuple[int, ...]:
    """The seat each card of such a deal goes to, in the order dealt: the same few deals recur (a
    seat's size only shrinks), so each is worked out once."""
    order = [(dealer + 1 + k) % seats for k in range(seats)]
    return tuple([seat for lap in range(max(sizes, default=0)) for seat in order if sizes[seat] > lap])


def four_of_a_kind(hand: int) -> int:
    """A rank (its index in ``cards.RANKS``) the hand holds in all four suits, else -1."""
    held = [0] * CARDS_PER_SUIT
    for card in cards_in(hand):
        held[rank_of(card)] += 1
    return next((rank for rank, count in enumerate(held) if count >= 4), -1)
