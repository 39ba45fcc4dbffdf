"""Script exact situations for the engine's unit tests.

``deck_order`` turns chosen hands, a starter and the top of the stock into the
deck of a ``DealRound`` (card i goes to seat ``(dealer + 1 + i) % seats`` for
the first ``seats * hand_size`` cards, then the starter, then the stock top
first). Cards that a test does not name fill the other hands and the bottom of
the stock, ordinary cards first, then lowest first.

``Game`` drives one match through ``decide`` and the events' ``apply``, checks
after every command that the fold of all events equals the live state, and
``refuse`` checks that a refused command changes nothing.
"""

from collections.abc import Iterable, Mapping, Sequence

import msgspec
import pytest

from service.domain.cards import CARD_COUNT, format_card, format_cards, parse_card, parse_suit
from service.domain.commands import (
    Challenge,
    Command,
    DealRound,
    DrawCard,
    KeepCard,
    NameSuit,
    PlayCard,
    RecycleStock,
    StartMatch,
)
from service.domain.engine import decide, fold
from service.domain.errors import RuleError
from service.domain.events import Event, RoundEnded
from service.domain.presets import CLUB
from service.domain.rulebook import NO_CALL, rulebook
from service.domain.ruleset_options import ruleset
from service.domain.rulesets import Ruleset
from service.domain.state import State

Cards = Sequence[str] | str


def cards(names: Cards) -> list[int]:
    """``"7H 7C"`` or ``["7H", "7C"]`` -> card ints, in that order."""
    if isinstance(names, str):
        names = names.split()
    return [parse_card(name) for name in names]


def mask(names: Cards) -> int:
    total = 0
    for c in cards(names):
        total |= 1 << c
    return total


def names_in(hand_mask: int) -> set[str]:
    return set(format_cards(hand_mask))


def suit(value: int | str) -> int:
    return parse_suit(value) if isinstance(value, str) else value


def deck_order(
    rules: Ruleset,
    seats: int,
    dealer: int,
    hands: Mapping[int, Cards] | None = None,
    starter: str = "5H",
    stock: Cards = (),
    sizes: Sequence[int] = (),
) -> tuple[int, ...]:
    """The deck of a ``DealRound`` that deals exactly this situation; ``sizes``: per seat, the
    cards dealt when hands differ (0 for a seat out of the match)."""
    book = rulebook(rules)
    sizes = tuple(sizes) or (rules.hand_size,) * seats
    hands = {seat: cards(names) for seat, names in (hands or {}).items()}
    named = [c for hand in hands.values() for c in hand] + cards([starter]) + cards(stock)
    if len(set(named)) != len(named):
        raise ValueError(f"a card is named twice: {format_cards(named)}")
    if any(c not in book.deck for c in named):
        raise ValueError(f"a card is not in the {rules.name} deck: {format_cards(named)}")
    # fillers: ordinary cards first, so an unnamed hand rarely holds a 7, an 8 or a jack
    taken = set(named)
    pool = sorted((c for c in book.deck if c not in taken), key=lambda c: (not book.effectless >> c & 1, c))
    full: dict[int, list[int]] = {}
    for seat in range(seats):
        hand = list(hands.get(seat, []))
        if len(hand) > sizes[seat]:
            raise ValueError(f"seat {seat} is given more than {sizes[seat]} cards")
        while len(hand) < sizes[seat]:
            hand.append(pool.pop(0))
        full[seat] = hand
    order = [(dealer + 1 + k) % seats for k in range(seats)]
    dealt = [full[seat][lap] for lap in range(max(sizes)) for seat in order if sizes[seat] > lap]
    return (*dealt, *cards([starter]), *cards(stock), *pool)


def small_deck_club(ranks: Sequence[str], hand_size: int, max_players: int = 2) -> Ruleset:
    """``club`` with a smaller deck: the engine reads any ruleset given as data.

    Used where a situation needs almost every card in hands (an impossible
    draw), which the 52-card deck cannot reach in a few scripted moves.
    """
    return msgspec.structs.replace(
        CLUB,
        name=f"club-{4 * len(ranks)}",
        ranks=tuple(ranks),
        max_players=max_players,
        hand_size=hand_size,
        card_points={rank: CLUB.card_points[rank] for rank in ranks},
    )


class Game:
    """One match, scripted command by command."""

    def __init__(
        self,
        rules: Ruleset | None = None,
        seats: int = 2,
        dealer: int = 0,
        hands: Mapping[int, Cards] | None = None,
        starter: str = "5H",
        stock: Cards = (),
        deal: bool = True,
    ) -> None:
        self.rules = rules if rules is not None else ruleset("club")
        self.seats = seats
        self.state = State()
        self.events: list[Event] = []
        self.do(StartMatch(self.rules, seats, dealer))
        if deal:
            self.deal(hands, starter, stock)

    # ---- driving

    def do(self, command: Command) -> list[Event]:
        events = decide(self.state, command)
        for event in events:
            event.apply(self.state)
        self.events += events
        assert fold(self.events) == self.state, f"the fold differs from the state after {command!r}"
        return events

    def deal(
        self, hands: Mapping[int, Cards] | None = None, starter: str = "5H", stock: Cards = ()
    ) -> list[Event]:
        s = self.state
        dealer = s.next_dealer
        while s.out >> dealer & 1:  # the deal passes over seats out of the match
            dealer = (dealer + 1) % self.seats
        sizes = s.hand_sizes or [self.rules.hand_size] * self.seats
        sizes = [0 if s.out >> seat & 1 else size for seat, size in enumerate(sizes)]
        deck = deck_order(self.rules, self.seats, dealer, hands, starter, stock, sizes)
        return self.do(DealRound(deck))

    def play(self, seat: int, card: str, named: int | str = -1, call: int = NO_CALL) -> list[Event]:
        return self.do(PlayCard(seat, parse_card(card), suit(named), call))

    def draw(self, seat: int) -> list[Event]:
        return self.do(DrawCard(seat))

    def keep(self, seat: int) -> list[Event]:
        return self.do(KeepCard(seat))

    def challenge(self, seat: int) -> list[Event]:
        return self.do(Challenge(seat))

    def name(self, seat: int, named: int | str) -> list[Event]:
        return self.do(NameSuit(seat, suit(named)))

    def recycle(self, order: Cards) -> list[Event]:
        return self.do(RecycleStock(tuple(cards(order))))

    def refuse(self, command: Command) -> str:
        """The code of a refused command; fails unless the state is exactly as before."""
        before = fold(self.events)
        assert before == self.state
        count = len(self.events)
        with pytest.raises(RuleError) as refused:
            decide(self.state, command)
        assert self.state == before, f"{command!r} was refused but changed the state"
        assert self.state == fold(self.events)
        assert len(self.events) == count
        return refused.value.code

    # ---- looking

    @property
    def s(self) -> State:
        return self.state

    def hand(self, seat: int) -> set[str]:
        return names_in(self.state.hands[seat])

    def stock_top_first(self) -> list[str]:
        return [format_card(c) for c in reversed(self.state.stock)]

    def top(self) -> str:
        return format_card(self.state.top)

    def of_type(self, kind: type[Event]) -> list[Event]:
        return [event for event in self.events if isinstance(event, kind)]

    def round_end(self) -> RoundEnded:
        ended = self.of_type(RoundEnded)
        assert ended, "no round has ended"
        return ended[-1]


def all_cards(s: State) -> list[int]:
    """Every card of the state, wherever it is: hands, stock, discard pile."""
    found: list[int] = []
    for hand in s.hands:
        found += [c for c in range(CARD_COUNT) if hand >> c & 1]
    return found + list(s.stock) + list(s.discard)


def points_of(names: Iterable[str], values: Mapping[str, int]) -> int:
    return sum(values[name[:-1]] for name in names)
