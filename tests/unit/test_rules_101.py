"""The `101` preset (variants.md): 36 cards, deal 4, draw until playable, 6 covered, 7 and K♠ draw."""

import pytest

from service.domain.actions import DRAW, KEEP, play_action
from service.domain.cards import format_cards, parse_card
from service.domain.commands import KeepCard, PlayCard, StartMatch
from service.domain.engine import decide
from service.domain.errors import RuleError
from service.domain.events import CardPlayed, CardsDrawn, MatchStarted, RoundEnded, SkipTaken, StockRanOut
from service.domain.legal import legal_actions
from service.domain.rulebook import rulebook
from service.domain.ruleset_options import ruleset
from service.domain.state import DRAWN, PLAY, State
from tests.unit.scenario import Game, mask

R101 = ruleset("101")


def act(card: str, suit: int = -1) -> int:
    return play_action(parse_card(card), suit)


def test_the_deck_is_the_36_cards_from_6_to_ace_and_4_are_dealt():
    deck = rulebook(R101).deck
    assert len(deck) == 36
    assert {name[:-1] for name in format_cards(deck)} == {"6", "7", "8", "9", "10", "J", "Q", "K", "A"}
    assert R101.hand_size == 4


def test_a_player_with_no_playable_card_draws_until_one_comes_and_may_play_it():
    game = Game(R101, seats=2, dealer=0, hands={1: "8C 9C 10C KC"}, starter="JH", stock="KD 8D 9H")
    (drawn,) = game.draw(1)
    assert isinstance(drawn, CardsDrawn)
    assert format_cards(drawn.cards) == ["KD", "8D", "9H"]
    assert (game.s.phase, game.s.drawn) == (DRAWN, parse_card("9H"))
    assert legal_actions(game.s, 1)[0] == act("9H")


def test_when_the_stock_holds_no_playable_card_the_player_draws_it_all_and_the_turn_passes():
    game = Game(R101, seats=2, dealer=0, hands={1: "8C 9C 10C KC"}, starter="JH")
    stock = len(game.s.stock)
    playable = [c for c in game.s.stock if game.s.follow >> c & 1]
    game.draw(1)
    if playable:  # the fillers hold a heart or a jack: the draw stops at the first of them
        assert game.s.phase == DRAWN
    else:
        assert (len(game.s.stock), game.s.turn) == (0, 0)
    assert len(game.s.stock) < stock


def test_with_draw_one_the_player_draws_a_single_card_and_the_turn_passes():
    rules = ruleset("101", draw_one=True)
    game = Game(rules, seats=2, dealer=0, hands={1: "8C 9C 10C KC"}, starter="JH", stock="KD 8D 9H")
    (drawn,) = game.draw(1)
    assert isinstance(drawn, CardsDrawn) and format_cards(drawn.cards) == ["KD"]
    assert (game.s.turn, game.s.phase) == (0, PLAY)


def test_a_six_must_be_covered_by_its_player_in_the_same_turn():
    game = Game(R101, seats=3, dealer=0, hands={1: "6H KH 9C 10C"}, starter="9H")
    (played,) = game.play(1, "6H")
    assert isinstance(played, CardPlayed) and played.turn == 1
    assert legal_actions(game.s, 1) == (act("KH"),)
    game.play(1, "KH")
    assert game.s.turn == 2


def test_a_six_may_not_be_the_last_card_so_its_holder_draws():
    game = Game(ruleset("101", hand_size=1), seats=2, dealer=0, hands={1: "6H"}, starter="9H", stock="8D KH")
    assert legal_actions(game.s, 1) == (DRAW,)
    assert game.refuse(PlayCard(1, parse_card("6H"))) == "cannot_go_out"


def test_a_seven_draws_2_and_with_two_players_its_player_goes_again():
    game = Game(R101, seats=2, dealer=0, hands={1: "7H 9C 10C KC", 0: "8D 9D 10D KD"}, starter="9H")
    game.play(1, "7H")
    assert legal_actions(game.s, 0) == (DRAW,)
    game.draw(0)
    assert (game.s.turn, len(game.hand(0))) == (1, 6)


def test_a_seven_is_deflected_by_another_seven():
    game = Game(R101, seats=3, dealer=0, hands={1: "7H 9C 10C KC", 2: "7C 8D 9D 10D"}, starter="9H")
    game.play(1, "7H")
    (played,) = game.play(2, "7C")
    assert isinstance(played, CardPlayed) and (played.debt, played.turn) == (4, 0)


def test_the_king_of_spades_draws_4_and_cannot_be_answered():
    game = Game(R101, seats=3, dealer=0, hands={1: "KS 9C 10C KC", 2: "7S 8D 9D 10D"}, starter="9S")
    game.play(1, "KS")
    assert game.s.debt == 4
    assert legal_actions(game.s, 2) == (DRAW,)
    game.draw(2)
    assert (len(game.hand(2)), game.s.turn) == (8, 0)


def test_a_ten_reverses_and_with_ace_skips_at_once_an_ace_skips():
    rules = ruleset("101", ace_skips_at_once=True)
    game = Game(
        rules, seats=4, dealer=0, hands={1: "10H 9C KC 8C", 0: "AH 8D 9D KD", 3: "AD 7S 8S 9S"}, starter="8H"
    )
    (reversed_,) = game.play(1, "10H")
    assert isinstance(reversed_, CardPlayed) and (reversed_.direction, reversed_.turn) == (-1, 0)
    (skipped,) = game.play(0, "AH")
    assert isinstance(skipped, CardPlayed) and (skipped.skipped, skipped.turn) == (3, 2)
    assert not game.s.skip_due


ACES = {1: "AH 9C KC 8C", 2: "AD 8D 9D KD", 0: "AS 8S 9S 10S"}


def test_an_ace_makes_the_next_player_miss_the_turn_unless_they_answer_it_with_an_ace():
    game = Game(R101, seats=3, dealer=0, hands=ACES, starter="9H")
    (played,) = game.play(1, "AH")
    assert isinstance(played, CardPlayed) and (played.turn, played.skipped) == (2, -1)
    assert game.s.skip_due
    assert legal_actions(game.s, 2) == (act("AD"), DRAW)
    assert game.refuse(PlayCard(2, parse_card("9D"))) == "skip_pending"
    (taken,) = game.draw(2)
    assert taken == SkipTaken(2, 0) and len(game.hand(2)) == 4
    assert (game.s.turn, game.s.skip_due) == (0, False)


def test_an_ace_answered_with_an_ace_passes_the_skip_on_to_the_player_after():
    game = Game(R101, seats=3, dealer=0, hands=ACES, starter="9H")
    game.play(1, "AH")
    game.play(2, "AD")
    assert (game.s.turn, game.s.skip_due) == (0, True)
    game.play(0, "AS")
    assert (game.s.turn, game.s.skip_due) == (1, True)
    assert legal_actions(game.s, 1) == (DRAW,)  # no ace left: only taking the skip
    game.draw(1)
    assert (game.s.turn, game.s.skip_due) == (2, False)


def test_ace_skips_at_once_is_on_or_off_only():
    with pytest.raises(RuleError) as refused:
        ruleset("101", ace_skips_at_once=1)
    assert refused.value.code == "invalid_option"


def test_a_queen_is_wild_and_the_next_player_follows_the_named_suit_or_plays_a_queen():
    game = Game(R101, seats=2, dealer=0, hands={1: "QC 9C 10C KC", 0: "QH 8S 9D KD"}, starter="9H")
    game.play(1, "QC", "S")
    assert set(legal_actions(game.s, 0)) == {act("8S"), *(act("QH", suit) for suit in range(4))}


def test_the_crocodile_option_makes_the_king_of_hearts_draw_5():
    game = Game(ruleset("101", crocodile=True), seats=2, dealer=0, hands={1: "KH 9C 10C KC"}, starter="9H")
    game.play(1, "KH")
    assert game.s.debt == 5


def test_an_option_makes_the_seven_of_spades_draw_4():
    rules = ruleset("101", seven_of_spades_four=True)
    game = Game(rules, seats=2, dealer=0, hands={1: "7S 9C 10C KC"}, starter="9S")
    game.play(1, "7S")
    assert game.s.debt == 4


def test_two_ceilings_together_are_refused_with_a_clear_message():
    with pytest.raises(RuleError) as refused:
        ruleset("101", ceiling_201=True, ceiling_501=True)
    assert refused.value.code == "invalid_option"
    assert "'ceiling_201' and 'ceiling_501' cannot both be on" in str(refused.value)


def test_one_ceiling_on_and_the_other_off_is_accepted():
    assert ruleset("101", ceiling_201=False, ceiling_501=True).elimination_total == 501


@pytest.mark.parametrize(("hand_size", "most"), [(3, 6), (4, 6), (5, 6), (6, 5)])
def test_hand_sizes_3_to_6_are_accepted_and_bound_the_table_by_the_36_cards(hand_size, most):
    rules = ruleset("101", hand_size=hand_size)
    (started,) = decide(State(), StartMatch(rules, most, 0))
    assert isinstance(started, MatchStarted) and started.rules.hand_size == hand_size


def test_six_cards_each_at_a_table_of_six_is_refused_because_36_cards_cannot_deal_it():
    with pytest.raises(RuleError) as refused:
        decide(State(), StartMatch(ruleset("101", hand_size=6), 6, 0))
    assert refused.value.code == "invalid_option"
    assert "at most 5 players; this table has 6" in str(refused.value)


def test_a_card_drawn_that_covers_the_players_own_six_is_played_not_kept():
    rules = ruleset("101", hand_size=2)
    game = Game(rules, seats=2, dealer=0, hands={1: "6H 8C"}, starter="9H", stock="KD 10H")
    game.play(1, "6H")
    assert legal_actions(game.s, 1) == (DRAW,)
    (drawn,) = game.draw(1)
    assert isinstance(drawn, CardsDrawn) and format_cards(drawn.cards) == ["KD", "10H"]
    assert legal_actions(game.s, 1) == (act("10H"),)
    assert game.refuse(KeepCard(1)) == "must_cover"
    game.play(1, "10H")
    assert (game.s.turn, game.s.top) == (0, parse_card("10H"))


def test_when_the_stock_runs_out_without_a_cover_the_six_stays_uncovered_and_the_turn_passes():
    rules = ruleset("101", hand_size=8)
    hands = {
        1: "6H 7C 8C 9C 10C JC KC AC",
        2: "6S QC QD QS AH 7D 8D 9D",
        0: "7H 8H 10H JH KH QH 6C 6D",  # every other heart, six and queen is held: the stock covers nothing
    }
    game = Game(rules, seats=3, dealer=0, hands=hands, starter="9H")
    stock = len(game.s.stock)
    game.play(1, "6H")
    (drawn,) = game.draw(1)
    assert isinstance(drawn, CardsDrawn) and len(drawn.cards) == stock
    assert (game.s.turn, game.s.phase, game.s.top, game.s.stock) == (2, PLAY, parse_card("6H"), [])
    assert not game.s.covering


def test_the_next_player_facing_an_uncovered_six_may_keep_a_card_they_draw():
    game = Game(R101, seats=2, dealer=0, hands={1: "8C 9C 10C KC"}, starter="6H", stock="KD 9H")
    game.draw(1)
    assert legal_actions(game.s, 1) == (act("9H"), KEEP)
    game.keep(1)
    assert game.s.turn == 0


# Found by bots at five seats: every card but the four queens in hands, and each player in turn
# drawing a queen and playing it on a suit the next player lacks, round after round of recycles.
QUEENS_ONLY_GO_ROUND = {
    1: "6C 7C 8C 9C 10C JC KC AC 6D 7D 8D 9D 10D JD KD AD",
    0: "6H 7H 8H 9H 10H JH KH AH 6S 7S 8S 9S 10S JS KS AS",
}


def queens_go_round_once() -> Game:
    """Two players each hold two suits; the queens pass through the stock once and are recycled."""
    rules = ruleset("101", hand_size=16)
    game = Game(rules, seats=2, dealer=0, hands=QUEENS_ONLY_GO_ROUND, starter="QH", stock="QC QD QS")
    game.name(0, "H")
    for seat, named in ((1, "C"), (0, "H"), (1, "C")):
        (drawn,) = game.draw(seat)
        game.play(seat, format_cards(drawn.cards)[-1], named)
    events = game.draw(0)  # the stock is empty: the discards under the top become the stock
    assert [type(e) for e in events] == [StockRanOut]
    game.recycle("QH QC QD")
    return game


def test_when_the_cards_only_go_round_between_two_recycles_the_round_stops_stalled_with_no_winner():
    game = queens_go_round_once()
    hands = [mask(QUEENS_ONLY_GO_ROUND[seat]) for seat in (0, 1)]
    game.play(0, "QH", "H")  # the queen the recycle gave seat 0
    for seat, named in ((1, "C"), (0, "H")):
        (drawn,) = game.draw(seat)
        game.play(seat, format_cards(drawn.cards)[-1], named)
    assert game.s.hands == hands and game.s.stock == []
    discard = list(game.s.discard)
    (ended,) = game.draw(1)
    assert isinstance(ended, RoundEnded)
    assert (ended.winner, ended.reason) == (-1, "stalled")
    # no card of the draw moves, and every player counts their whole hand
    assert (game.s.hands, game.s.discard) == (hands, discard)
    book = rulebook(game.rules)
    assert ended.points == tuple(book.hand_points(hand) for hand in hands)


def test_a_hand_changed_since_the_recycle_lets_the_stock_be_recycled_again():
    game = queens_go_round_once()
    game.keep(0)  # seat 0 keeps the queen the recycle gave it
    for seat, card in ((1, "9C"), (0, "9H"), (1, "9D"), (0, "9S")):
        game.play(seat, card)
    for seat, named in ((1, "C"), (0, "H"), (1, "C")):
        if seat == 0:
            game.play(0, "QH", named)  # the kept queen
        else:
            (drawn,) = game.draw(seat)
            game.play(seat, format_cards(drawn.cards)[-1], named)
    assert game.s.stock == []
    events = game.draw(0)
    assert [type(e) for e in events] == [StockRanOut]


def test_two_decks_refuse_a_hand_of_28_which_always_holds_four_of_a_kind_so_no_deal_would_stand():
    with pytest.raises(RuleError) as refused:
        ruleset("101", decks=2, hand_size=28)
    assert refused.value.code == "invalid_option"
    assert "at most 27" in str(refused.value)
    assert ruleset("101", decks=2, hand_size=27).hand_size == 27
