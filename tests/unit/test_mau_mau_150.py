"""The `mau-mau-150` preset (variants.md): 32 cards, nines reverse, winner takes, race to 150."""

from service.domain.actions import DRAW, play_action
from service.domain.cards import RANKS, format_cards, parse_card
from service.domain.commands import DrawCard, PlayCard
from service.domain.events import CardPlayed, MatchEnded, RoundDealt, RoundEnded
from service.domain.legal import legal_actions
from service.domain.rulebook import MAU, MAU_MAU, NO_CALL, rulebook
from service.domain.ruleset_options import ruleset
from service.domain.state import DEAL, DRAWN, OVER, PENALTY
from service.domain.table import Table
from tests.unit.scenario import Game

M150 = ruleset("mau-mau-150")
M150_ONE_CARD = ruleset("mau-mau-150", hand_size=1)
M150_TWO_CARDS = ruleset("mau-mau-150", hand_size=2)


def test_the_deck_is_the_32_cards_from_7_to_ace():
    deck = rulebook(M150).deck
    assert len(deck) == 32
    assert {name[:-1] for name in format_cards(deck)} == {"7", "8", "9", "10", "J", "Q", "K", "A"}
    assert not {name[:-1] for name in format_cards(deck)} & set(RANKS[:5])


def test_four_players_get_5_cards_each_and_11_stay_in_the_stock():
    table = Table(M150, 4, seed=2)
    table.settle_chance()
    s = table.state
    assert [hand.bit_count() for hand in s.hands] == [5, 5, 5, 5]
    assert (len(s.discard), len(s.stock)) == (1, 11)
    assert s.turn == (s.dealer + 1) % 4


def test_a_nine_reverses_the_direction_at_once():
    game = Game(M150, seats=4, dealer=0, hands={1: "9H KC KD KS AC", 0: "QH 8C 8D 8S AD"}, starter="10H")
    (played,) = game.play(1, "9H")
    assert isinstance(played, CardPlayed)
    assert (played.turn, played.direction) == (0, -1)
    game.play(0, "QH")
    assert game.s.turn == 3


def test_a_second_nine_turns_the_direction_back():
    game = Game(
        M150,
        seats=4,
        dealer=0,
        hands={1: "9H KC KD KS AC", 0: "9S 8C 8D QC AD"},
        starter="10H",
    )
    game.play(1, "9H")
    game.play(0, "9S")
    assert (game.s.turn, game.s.direction) == (1, 1)


def test_an_eight_skips_the_next_player_in_the_current_direction():
    game = Game(M150, seats=4, dealer=0, hands={1: "9H KC KD KS AC", 0: "8H QC QD QS AD"}, starter="10H")
    game.play(1, "9H")
    (played,) = game.play(0, "8H")
    assert (played.skipped, played.turn) == (3, 2)


def test_a_nine_starter_reverses_as_if_the_dealer_had_played_it_so_the_dealers_right_starts():
    game = Game(M150, seats=4, dealer=0, starter="9H")
    dealt = game.of_type(RoundDealt)[0]
    assert (dealt.turn, dealt.direction) == (3, -1)
    assert (game.s.turn, game.s.direction) == (3, -1)


def test_a_nine_with_2_players_passes_the_turn_as_usual():
    game = Game(M150, seats=2, dealer=0, hands={1: "9H KC KD KS AC"}, starter="10H")
    game.play(1, "9H")
    assert game.s.turn == 0


def test_a_player_may_draw_while_holding_a_playable_card():
    game = Game(M150, seats=2, dealer=0, hands={1: "QH KC KD KS AC"}, starter="10H", stock="8C 9C")
    assert legal_actions(game.s, 1) == (play_action(parse_card("QH")), DRAW)
    game.draw(1)
    assert "8C" in game.hand(1)
    assert game.s.turn == 0


def test_a_playable_card_drawn_by_choice_may_be_played_at_once():
    game = Game(M150, seats=2, dealer=0, hands={1: "QH KC KD KS AC"}, starter="10H", stock="AH 9C")
    game.draw(1)
    assert game.s.phase == DRAWN
    assert game.refuse(PlayCard(1, parse_card("QH"))) == "only_drawn_card"
    game.play(1, "AH")


def test_a_seven_makes_the_next_player_draw_2_and_lose_their_turn_and_sevens_stack_to_4_and_6():
    game = Game(
        M150,
        seats=4,
        dealer=0,
        hands={1: "7H KC", 2: "7C QC", 3: "7S QD", 0: "8D 9D 10D QS KS"},
        starter="10H",
        stock="AC AD AS AH KD KH",
    )
    game.play(1, "7H")
    assert game.s.debt == 2
    game.play(2, "7C")
    assert game.s.debt == 4
    game.play(3, "7S")
    assert game.s.debt == 6
    assert legal_actions(game.s, 0) == (DRAW,)
    game.draw(0)
    assert len(game.hand(0)) == 11
    assert game.s.turn == 1


def test_mau_is_due_when_playing_the_second_to_last_card():
    game = Game(M150_TWO_CARDS, seats=3, dealer=0, hands={1: "QH KC"}, starter="10H", stock="AC AD")
    game.play(1, "QH")
    assert game.s.missed == (1, MAU)
    game.challenge(2)
    assert game.hand(1) == {"KC", "AC", "AD"}
    assert game.of_type(RoundEnded) == []


def test_going_out_on_a_card_that_is_not_a_jack_needs_no_call_and_wins_at_once():
    game = Game(M150_ONE_CARD, seats=3, dealer=0, hands={1: "QH", 0: "JC", 2: "7C"}, starter="10H")
    assert game.refuse(PlayCard(1, parse_card("QH"), -1, MAU_MAU)) == "call_not_due"
    assert game.refuse(PlayCard(1, parse_card("QH"), -1, MAU)) == "call_not_due"
    game.play(1, "QH")
    ended = game.round_end()
    assert (ended.winner, ended.reason) == (1, "went_out")


def test_going_out_on_a_jack_with_mau_mau_wins_at_once():
    game = Game(M150_ONE_CARD, seats=3, dealer=0, hands={1: "JH", 0: "QC", 2: "7C"}, starter="10H")
    game.play(1, "JH", named="S", call=MAU_MAU)
    assert game.round_end().winner == 1


def test_going_out_on_a_jack_with_only_mau_costs_2_penalty_cards_when_caught_and_the_round_goes_on():
    game = Game(
        M150_ONE_CARD,
        seats=3,
        dealer=0,
        hands={1: "JH", 0: "QC", 2: "KS"},
        starter="10H",
        stock="AC AD 8C",
    )
    (played,) = game.play(1, "JH", named="S", call=MAU)
    assert played.missed == MAU_MAU
    events = game.challenge(0)
    assert events[1].reason == PENALTY and len(events[1].cards) == 2
    assert game.hand(1) == {"AC", "AD"}
    game.play(2, "KS", call=NO_CALL)  # K, not a jack: no call, wins
    assert game.round_end().winner == 2


def test_going_out_on_a_jack_without_any_call_wins_if_nobody_catches_it_in_time():
    game = Game(
        M150_ONE_CARD, seats=3, dealer=0, hands={1: "JH", 0: "QC", 2: "KC"}, starter="10H", stock="8C"
    )
    game.play(1, "JH", named="S")
    assert game.s.missed == (1, MAU_MAU)
    game.draw(2)  # 8♣ is not a spade: the turn ends
    ended = game.round_end()
    assert (ended.winner, ended.reason) == (1, "window_closed")


def test_the_winner_gains_the_points_left_in_the_opponents_hands_with_jacks_worth_20():
    game = Game(M150_ONE_CARD, seats=3, dealer=0, hands={1: "QH", 0: "JC", 2: "7C"}, starter="10H")
    game.play(1, "QH")
    ended = game.round_end()
    assert ended.points == (0, 27, 0)
    assert ended.totals == (0, 27, 0)


def test_card_points_in_mau_mau_150():
    game = Game(
        M150,
        seats=2,
        dealer=0,
        hands={1: "QH KC KD KS AC", 0: "7S 8S 9S 10S JS"},
        starter="10H",
    )
    book = rulebook(M150)
    assert book.hand_points(game.s.hands[0]) == 7 + 8 + 9 + 10 + 20
    assert book.hand_points(game.s.hands[1]) == 50


def test_a_round_stopped_by_an_exhausted_stock_gives_nobody_points():
    # Reading: winner_takes scoring with no winner: nobody gains anything
    rules = ruleset("mau-mau-150", hand_size=7)
    game = Game(
        rules,
        seats=4,
        dealer=0,
        hands={1: "7C", 2: "7D", 3: "8D 9D 10D QD KD AD JD"},
        starter="7H",
        stock="8S 9S 10S",
    )
    game.play(1, "7C")
    game.play(2, "7D")
    game.draw(3)
    ended = game.round_end()
    assert (ended.winner, ended.reason, ended.points) == (-1, "stock_exhausted", (0, 0, 0, 0))


def one_card_round(game: Game, held: dict[int, str]) -> RoundEnded:
    """The player left of the dealer goes out with K♥ on Q♥ (no call due); the others hold ``held``."""
    first = (game.s.next_dealer + 1) % game.seats
    game.deal(hands={first: "KH", **held}, starter="QH")
    game.play(first, "KH")
    return game.round_end()


def test_the_match_is_a_race_to_150_and_the_highest_total_wins():
    game = Game(M150_ONE_CARD, seats=4, dealer=0, deal=False)
    jacks = {0: "JC", 2: "JD", 3: "JS"}
    sevens = {0: "7C", 1: "7D", 2: "7S", 3: "7H"}
    for round_no in range(1, 10):
        first = round_no % 4
        held = {seat: card for seat, card in (jacks if first == 1 else sevens).items() if seat != first}
        one_card_round(game, held)
        if round_no < 9:
            assert game.s.phase == DEAL
    assert game.s.totals == [42, 180, 42, 42]
    assert game.s.phase == OVER
    assert game.of_type(MatchEnded) == [MatchEnded((1,), (42, 180, 42, 42))]


def test_the_target_score_option_is_honoured_in_mau_mau_150():
    rules = ruleset("mau-mau-150", hand_size=1, target_score=60)
    game = Game(rules, seats=4, dealer=0, deal=False)
    one_card_round(game, {0: "JC", 2: "JD", 3: "JS"})
    assert game.s.totals == [0, 60, 0, 0]
    assert game.s.winners == (1,)
    assert M150.target_score == 150


def test_drawing_from_an_empty_stock_and_empty_discards_is_refused_for_a_voluntary_draw():
    rules = ruleset("mau-mau-150", hand_size=7)
    game = Game(rules, seats=4, dealer=0, hands={0: "10H 8C 8D 8S AC AD AS"}, starter="10S", stock="QC QD QS")
    for seat in (1, 2, 3):
        game.draw(seat)
        if game.s.phase == DRAWN:
            game.keep(seat)
    assert game.refuse(DrawCard(0)) == "stock_exhausted"
