"""Speech (mao.md section 3): spade names, "Mao" at one card and at the last, and their penalties."""

from service.domain.cards import parse_card
from service.domain.mao.commands import DrawCard, PlayCard, Say
from service.domain.mao.events import CallMade, CallMissed, CardTaken, PenaltyGiven, RoundEnded, Spoke
from service.domain.mao.state import PLAY
from tests.unit.mao.scene import Scene


def test_a_spade_played_is_named_and_the_name_is_taken_as_a_due_call():
    scene = Scene()
    scene.deal({0: "7S 2C 3C 4C 5C"}, starter="9S")
    events = scene.do(PlayCard(0, parse_card("7S"), says=("Seven of  Spades",)))
    assert CallMade(0, "seven of spades") in events
    assert not any(isinstance(e, PenaltyGiven) for e in events)
    scene.do(DrawCard(1))  # the next player acts: nothing was missing
    assert scene.state.penalties == []


def test_a_spade_played_without_its_name_costs_one_card_when_the_next_player_acts():
    scene = Scene()
    scene.deal({0: "7S 2C 3C 4C 5C"}, starter="9S", stock="KD AD")
    scene.do(PlayCard(0, parse_card("7S")))
    events = scene.do(DrawCard(1))
    assert CallMissed(0, "seven of spades", "spade") in events
    assert PenaltyGiven(0, "missed_call") in events
    # the missed call is settled before the next player's act: the penalty card comes first
    assert scene.hand(0) == {"2C", "3C", "4C", "5C", "KD"}
    assert "AD" in scene.hand(1)


def test_mao_is_due_after_a_play_that_leaves_one_card():
    scene = Scene(hand_size=2)
    scene.deal({0: "5H 2C"}, starter="9H")
    events = scene.do(PlayCard(0, parse_card("5H"), says=("mao",)))
    assert CallMade(0, "mao") in events
    scene.do(DrawCard(1))
    assert scene.state.penalties == []


def test_a_missing_mao_at_one_card_costs_one_card():
    scene = Scene(hand_size=2)
    scene.deal({0: "5H 2C"}, starter="9H", stock="KD AD")
    scene.do(PlayCard(0, parse_card("5H")))
    scene.do(DrawCard(1))
    assert scene.state.penalties == [(0, "missed_call")]
    assert scene.hand(0) == {"2C", "KD"}


def test_a_spade_as_second_to_last_card_needs_both_calls_before_the_next_player_acts():
    scene = Scene(hand_size=2)
    scene.deal({0: "7S 2C"}, starter="9S")
    scene.do(PlayCard(0, parse_card("7S")))
    scene.do(Say(0, "seven of spades"))
    scene.do(Say(0, "mao"))
    scene.do(DrawCard(1))
    assert scene.state.penalties == []


def test_each_of_two_calls_missing_when_the_next_player_acts_costs_a_card():
    scene = Scene(hand_size=2)
    scene.deal({0: "7S 2C"}, starter="9S", stock="KD AD 3D")
    scene.do(PlayCard(0, parse_card("7S"), says=("mao",)))
    events = scene.do(DrawCard(1))
    assert [e for e in events if isinstance(e, CallMissed)] == [CallMissed(0, "seven of spades", "spade")]
    scene2 = Scene(hand_size=2)
    scene2.deal({0: "7S 2C"}, starter="9S", stock="KD AD 3D")
    scene2.do(PlayCard(0, parse_card("7S")))
    events = scene2.do(DrawCard(1))
    assert [e for e in events if isinstance(e, PenaltyGiven)] == [PenaltyGiven(0, "missed_call")] * 2
    assert scene2.hand(0) == {"2C", "KD", "AD"}


def test_a_call_said_after_the_next_player_acted_is_an_extra_utterance():
    scene = Scene(hand_size=2)
    scene.deal({0: "5H 2C"}, starter="9H")
    scene.do(PlayCard(0, parse_card("5H")))
    scene.do(DrawCard(1))
    events = scene.do(Say(0, "mao"))
    assert Spoke(0, "mao") in events and PenaltyGiven(0, "extra_utterance") in events
    assert scene.state.penalties == [(0, "missed_call"), (0, "extra_utterance")]


def test_table_talk_costs_one_card_for_each_utterance():
    scene = Scene()
    scene.deal({2: "2C 3C 4C 5C 6C"}, starter="9H", stock="KD AD")
    scene.do(Say(2, "nice weather"))
    scene.do(Say(2, "sorry"))
    assert scene.state.penalties == [(2, "extra_utterance"), (2, "extra_utterance")]
    assert scene.hand(2) == {"2C", "3C", "4C", "5C", "6C", "KD", "AD"}
    assert scene.state.turn == 0  # talking does not take or pass the turn


def test_a_call_said_twice_is_an_extra_utterance_the_second_time():
    scene = Scene()
    scene.deal({0: "7S 2C 3C 4C 5C"}, starter="9S")
    scene.do(PlayCard(0, parse_card("7S"), says=("seven of spades", "seven of spades")))
    assert scene.state.penalties == [(0, "extra_utterance")]


def test_words_said_with_a_returned_play_are_extra_since_no_call_is_due():
    scene = Scene()
    scene.deal({0: "7D 2C 3C 4C 5C"}, starter="9S")
    scene.do(PlayCard(0, parse_card("7D"), says=("mao",)))
    assert scene.state.penalties == [(0, "no_match"), (0, "extra_utterance")]


def test_the_last_card_with_the_final_mao_wins_the_round_at_once():
    scene = Scene(hand_size=1)
    scene.deal({0: "5H"}, starter="9H")
    events = scene.do(PlayCard(0, parse_card("5H"), says=("mao",)))
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert ended == [RoundEnded(1, 0, "went_out", (0, 1, 1, 1), (1, 0, 0, 0))]


def test_the_final_mao_said_after_the_play_but_before_the_next_player_acts_still_wins():
    scene = Scene(hand_size=1)
    scene.deal({0: "5H"}, starter="9H")
    scene.do(PlayCard(0, parse_card("5H")))
    events = scene.do(Say(0, "Mao"))
    assert any(isinstance(e, RoundEnded) and e.winner == 0 for e in events)


def test_the_last_spade_needs_its_name_and_mao_to_win():
    scene = Scene(hand_size=1)
    scene.deal({0: "7S"}, starter="9S", stock="KD")
    events = scene.do(PlayCard(0, parse_card("7S"), says=("mao",)))
    assert not any(isinstance(e, RoundEnded) for e in events)
    events = scene.do(Say(0, "seven of spades"))
    assert any(isinstance(e, RoundEnded) and e.winner == 0 for e in events)


def test_emptying_the_hand_without_the_final_mao_does_not_win_the_penalty_card_is_taken_and_play_goes_on():
    scene = Scene(hand_size=1)
    scene.deal({0: "5H"}, starter="9H", stock="KD AD")
    scene.do(PlayCard(0, parse_card("5H")))
    events = scene.do(DrawCard(1))
    assert CardTaken(0, parse_card("KD"), "penalty") in events
    assert not any(isinstance(e, RoundEnded) for e in events)
    assert scene.hand(0) == {"KD"}
    assert scene.state.phase == PLAY and scene.state.turn == 2
