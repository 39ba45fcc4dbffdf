"""Script exact Mao situations: chosen hands, starter and stock top, then commands.

``Scene.deal`` builds the deck of a ``DealRound`` (card i of the first ``seats * hand_size``
goes to seat ``(dealer + 1 + i) % seats``, then the starter, then the stock top first); cards
a test does not name fill the rest, lowest first. ``Scene.do`` decides and applies a command
and checks that the fold of all events equals the live state; ``Scene.refuse`` checks that
a refused command raises its code and changes nothing.
"""

from collections.abc import Mapping

from service.domain.cards import FULL_DECK, format_cards, parse_card
from service.domain.mao.commands import Command, DealRound, StartMatch
from service.domain.mao.events import Event
from service.domain.mao.game import decide, fold
from service.domain.mao.rule import TEACHING_TEXT
from service.domain.mao.state import State
from tests.refusals import refused


def cards(names: str) -> list[int]:
    return [parse_card(name) for name in names.split()]


def deck_for(
    seats: int, hand_size: int, dealer: int, hands: Mapping[int, str], starter: str, stock: str = ""
) -> tuple[int, ...]:
    named = {seat: cards(text) for seat, text in hands.items()}
    chosen = [c for hand in named.values() for c in hand] + cards(starter) + cards(stock)
    assert len(set(chosen)) == len(chosen), "a card is named twice"
    spare = [c for c in FULL_DECK if c not in chosen]
    deck = [0] * (seats * hand_size)
    for k in range(seats):
        seat = (dealer + 1 + k) % seats
        hand = named.get(seat, [])
        assert len(hand) <= hand_size
        hand = hand + [spare.pop(0) for _ in range(hand_size - len(hand))]
        for j, c in enumerate(hand):
            deck[k + seats * j] = c
    return (*deck, *cards(starter), *cards(stock), *spare)


class Scene:
    def __init__(
        self,
        seats: int = 4,
        hand_size: int = 5,
        first_dealer: int = 3,
        rule: str = TEACHING_TEXT,
        judge: str = "server",
        rounds_to_win: int = 3,
    ) -> None:
        self.state = State()
        self.events: list[Event] = []
        self.do(StartMatch(seats, first_dealer, hand_size, rounds_to_win, rule, judge))

    def do(self, command: Command) -> list[Event]:
        events = decide(self.state, command)
        for event in events:
            event.apply(self.state)
        self.events += events
        assert fold(self.events) == self.state
        return events

    def record(self, event: Event) -> None:
        """Apply an event no command would decide, to reach a situation the rules never allow."""
        event.apply(self.state)
        self.events.append(event)

    def deal(self, hands: Mapping[int, str], starter: str, stock: str = "") -> list[Event]:
        s = self.state
        return self.do(DealRound(deck_for(s.seats, s.hand_size, s.next_dealer, hands, starter, stock)))

    def refuse(self, command: Command, code: str) -> None:
        before = fold(self.events)
        refused(code, lambda: decide(self.state, command))
        assert self.state == before

    def hand(self, seat: int) -> set[str]:
        return set(format_cards(self.state.hands[seat]))

    def types(self, events: list[Event]) -> list[str]:
        return [type(event).__name__ for event in events]
