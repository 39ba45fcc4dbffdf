"""The stock (mao.md section 6): recycling keeps the restriction; a card that cannot be given stops the round.

Three players with 17 cards each leave the stock empty from the deal.
"""

from service.domain.cards import parse_card
from service.domain.mao.commands import DrawCard, PlayCard, RecycleStock, Say
from service.domain.mao.events import CardTaken, RoundEnded, StockRanOut, StockRecycled
from service.domain.mao.state import PLAY, RECYCLE
from tests.unit.mao.scene import Scene

QUEEN_ON_TOP = {0: "QH", 1: "2D"}


def test_recycling_the_discards_keeps_the_restriction_in_force():
    scene = Scene(seats=3, hand_size=17, first_dealer=2)
    scene.deal(QUEEN_ON_TOP, starter="5H")
    scene.do(PlayCard(0, parse_card("QH")))
    assert scene.do(DrawCard(1))[-1] == StockRanOut()
    assert scene.state.phase == RECYCLE
    scene.refuse(DrawCard(2), "awaiting_shuffle")
    events = scene.do(RecycleStock((parse_card("5H"),)))
    assert events == [StockRecycled((parse_card("5H"),)), CardTaken(1, parse_card("5H"), "draw")]
    assert scene.state.phase == PLAY and scene.state.in_force == (0,) and scene.state.top == parse_card("QH")


def test_a_recycle_must_be_the_discards_under_the_top_card_and_only_when_due():
    scene = Scene(seats=3, hand_size=17, first_dealer=2)
    scene.deal(QUEEN_ON_TOP, starter="5H")
    scene.refuse(RecycleStock(()), "no_shuffle_due")
    scene.do(PlayCard(0, parse_card("QH")))
    scene.do(DrawCard(1))
    scene.refuse(RecycleStock((parse_card("QH"),)), "invalid_recycle")


def test_a_draw_that_cannot_be_given_even_after_recycling_stops_the_round_and_the_smallest_hand_wins():
    scene = Scene(seats=3, hand_size=17, first_dealer=2)
    scene.deal({0: "5H"}, starter="9H")
    scene.do(PlayCard(0, parse_card("5H")))  # 16 left
    scene.do(DrawCard(1))
    scene.do(RecycleStock((parse_card("9H"),)))  # seat 1: 18
    events = scene.do(DrawCard(2))  # only the top card is left: nothing to give
    assert events[-2] == RoundEnded(1, 0, "stopped", (16, 18, 17), (1, 0, 0))


def test_a_tie_for_the_smallest_count_with_cards_owed_is_a_drawn_round():
    scene = Scene(seats=3, hand_size=17, first_dealer=2)
    scene.deal({0: "5H", 1: "5C"}, starter="9H")
    scene.do(PlayCard(0, parse_card("5H")))  # seat 0: 16
    scene.do(PlayCard(1, parse_card("5C")))  # seat 1: 16
    scene.do(DrawCard(2))
    scene.do(RecycleStock((parse_card("5H"), parse_card("9H"))))  # seat 2: 18, one card left
    scene.do(Say(0, "oops"))  # seat 0 takes the last card: 17
    events = scene.do(Say(1, "oops"))  # seat 1's penalty card cannot be given: 16 + 1 owed
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert ended == [RoundEnded(1, -1, "stopped", (17, 17, 18), (0, 0, 0))]
