"""Section 1: players, the deck, the deal, the first dealer and the dealer's rotation."""

import pytest

from service.domain.cards import format_cards
from service.domain.commands import DealRound, StartMatch
from service.domain.engine import decide, fold
from service.domain.errors import RuleError
from service.domain.events import MatchStarted, RoundDealt
from service.domain.rulebook import MAU_MAU
from service.domain.ruleset_options import ruleset
from service.domain.state import DEAL, PLAY, State
from service.domain.table import Table
from tests.unit.scenario import Game, cards, deck_order, names_in


def test_with_4_players_20_cards_are_in_hands_1_on_the_discard_pile_and_31_in_the_stock():
    table = Table(ruleset("club"), 4, seed=1)
    table.settle_chance()
    s = table.state
    assert [hand.bit_count() for hand in s.hands] == [5, 5, 5, 5]
    assert len(s.discard) == 1
    assert len(s.stock) == 31


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_every_player_gets_5_cards_and_the_rest_is_the_stock(seats):
    table = Table(ruleset("club"), seats, seed=seats)
    table.settle_chance()
    s = table.state
    assert [hand.bit_count() for hand in s.hands] == [5] * seats
    assert len(s.stock) == 52 - 5 * seats - 1


def test_cards_are_dealt_one_at_a_time_clockwise_starting_left_of_the_dealer():
    game = Game(seats=4, dealer=2, deal=False)
    deck = tuple(range(52))
    game.do(DealRound(deck))
    s = game.state
    # card 0 to seat 3 (left of dealer 2), card 1 to seat 0, card 2 to seat 1, card 3 to the dealer ...
    assert s.hands[3] >> 0 & 1 and s.hands[0] >> 1 & 1 and s.hands[1] >> 2 & 1 and s.hands[2] >> 3 & 1
    assert s.hands[3] == sum(1 << c for c in (0, 4, 8, 12, 16))
    assert s.hands[2] == sum(1 << c for c in (3, 7, 11, 15, 19))
    # then the starter, then the stock, its top card first
    assert s.discard == [20]
    assert s.stock[-1] == 21 and s.stock[0] == 51 and len(s.stock) == 31


def test_the_scenario_helper_deals_the_hands_it_is_given():
    game = Game(
        seats=3, dealer=1, hands={0: "2C 3C 4C 5C 6C", 2: "AS KS QS JS 10S"}, starter="9D", stock="4H 5H"
    )
    assert game.hand(0) == {"2C", "3C", "4C", "5C", "6C"}
    assert game.hand(2) == {"AS", "KS", "QS", "JS", "10S"}
    assert game.top() == "9D"
    assert game.stock_top_first()[:2] == ["4H", "5H"]


def test_play_starts_with_the_player_left_of_the_dealer():
    for dealer in range(4):
        game = Game(seats=4, dealer=dealer, starter="5H")
        assert game.s.dealer == dealer
        assert game.s.turn == (dealer + 1) % 4
        assert game.s.phase == PLAY


def test_the_hand_size_option_deals_that_many_cards():
    table = Table(ruleset("club", hand_size=7), 3, seed=5)
    table.settle_chance()
    assert [hand.bit_count() for hand in table.state.hands] == [7, 7, 7]
    assert len(table.state.stock) == 52 - 21 - 1


def test_the_first_dealer_is_drawn_from_the_seed_and_recorded_as_an_event():
    dealers = set()
    for seed in range(40):
        table = Table(ruleset("club"), 4, seed=seed)
        started = table.events[0]
        assert isinstance(started, MatchStarted)
        assert 0 <= started.first_dealer < 4
        assert Table(ruleset("club"), 4, seed=seed).events[0] == started  # the same seed, the same dealer
        table.settle_chance()
        assert table.state.dealer == started.first_dealer
        dealers.add(started.first_dealer)
    assert dealers == {0, 1, 2, 3}


def test_the_deal_is_recorded_whole_so_it_replays_without_the_seed():
    table = Table(ruleset("club"), 3, seed=9)
    table.settle_chance()
    dealt = table.events[-1]
    assert isinstance(dealt, RoundDealt)
    assert sorted(dealt.deck) == list(range(52))
    assert fold(table.events) == table.state


def _go_out_at_once(game: Game) -> None:
    """With hand_size 1 the player on turn holds a card matching the starter and goes out."""
    seat = game.s.turn
    (only,) = names_in(game.s.hands[seat])
    game.play(seat, only, call=MAU_MAU)


def test_after_each_round_the_dealer_passes_one_seat_clockwise():
    rules = ruleset("club", hand_size=1)
    game = Game(rules, seats=3, dealer=2, deal=False)
    seen = []
    for _ in range(5):
        dealer = game.s.next_dealer
        first = (dealer + 1) % 3
        game.deal(hands={first: "5C"}, starter="6C")
        seen.append(game.s.dealer)
        _go_out_at_once(game)
        assert game.s.phase == DEAL
    assert seen == [2, 0, 1, 2, 0]


def test_a_deck_that_is_not_the_rulesets_deck_is_refused():
    game = Game(seats=2, deal=False)
    whole = tuple(range(52))
    assert game.refuse(DealRound(whole[:-1])) == "invalid_deck"
    assert game.refuse(DealRound((*whole[:-1], 0))) == "invalid_deck"
    assert game.refuse(DealRound((*whole, 0))) == "invalid_deck"
    small = deck_order(ruleset("mau-mau-150"), 2, 0, starter="10H")
    assert game.refuse(DealRound(small)) == "invalid_deck"


@pytest.mark.parametrize(
    ("name", "seats"), [("club", 1), ("club", 7), ("mau-mau-150", 1), ("mau-mau-150", 5)]
)
def test_a_player_count_outside_the_ruleset_is_refused(name, seats):
    with pytest.raises(RuleError) as refused:
        decide(State(), StartMatch(ruleset(name), seats, 0))
    assert refused.value.code == "player_count"


@pytest.mark.parametrize(
    ("name", "seats"), [("club", 2), ("club", 6), ("mau-mau-150", 2), ("mau-mau-150", 4)]
)
def test_every_allowed_player_count_can_start(name, seats):
    (started,) = decide(State(), StartMatch(ruleset(name), seats, seats - 1))
    assert started == MatchStarted(ruleset(name), seats, seats - 1)


def test_the_deck_order_helper_gives_every_card_once():
    deck = deck_order(ruleset("club"), 4, 1, {2: "7H 7C 7S 7D JD"}, "KS", "2C 3C")
    assert sorted(deck) == list(range(52))
    assert format_cards(deck[20:23]) == ["KS", "2C", "3C"]
    # seat 2 sits left of dealer 1: it gets the first card of each turn round the table
    assert (deck[0], deck[4], deck[16]) == tuple(cards("7H 7C JD"))
