"""The procedural pause (mao.md section 3): nothing is played until its caller ends it, and nothing
said but talk about the turn order or safety."""

from service.domain.cards import parse_card
from service.domain.mao.commands import CallPause, DrawCard, EndPause, PlayCard, Say
from service.domain.mao.events import CallMissed, CardPlayed, PauseCalled, PauseEnded, TalkedInPause
from tests.unit.mao.scene import Scene


def paused_scene() -> Scene:
    scene = Scene()
    scene.deal({0: "5H 2C 3C 4C 6C", 1: "9S 2D 3D 4D 6D"}, starter="9H")
    assert scene.do(CallPause(2)) == [PauseCalled(2)]
    return scene


def test_a_pause_blocks_every_play_draw_and_word_and_changes_nothing():
    scene = paused_scene()
    scene.refuse(PlayCard(0, parse_card("5H")), "game_paused")
    scene.refuse(PlayCard(1, parse_card("9S")), "game_paused")  # not even out of turn
    scene.refuse(DrawCard(0), "game_paused")
    scene.refuse(Say(3, "hello"), "game_paused")


def test_only_the_caller_ends_the_pause_and_the_same_turn_continues():
    scene = paused_scene()
    scene.refuse(EndPause(0), "not_pause_caller")
    scene.refuse(CallPause(1), "already_paused")
    assert scene.do(EndPause(2)) == [PauseEnded(2)]
    assert scene.state.turn == 0
    assert isinstance(scene.do(PlayCard(0, parse_card("5H")))[0], CardPlayed)


def test_ending_a_pause_that_is_not_on_is_refused():
    scene = Scene()
    scene.deal({}, starter="9H")
    scene.refuse(EndPause(0), "not_paused")


def test_a_pause_keeps_the_call_window_open():
    scene = Scene(hand_size=2)
    scene.deal({0: "5H 2C"}, starter="9H")
    scene.do(PlayCard(0, parse_card("5H")))
    scene.do(CallPause(0))
    scene.do(EndPause(0))
    scene.do(Say(0, "mao"))
    scene.do(DrawCard(1))
    assert scene.state.penalties == []


def test_in_a_pause_talk_about_the_turn_order_or_safety_is_stored_as_said_and_costs_nothing():
    scene = paused_scene()
    before = scene.state.turn
    said = scene.do(Say(1, "Whose  turn is it?", about="order"))
    assert said == [TalkedInPause(1, "order", "whose turn is it?")]
    assert scene.do(Say(3, "mind the coffee", about="safety")) == [
        TalkedInPause(3, "safety", "mind the coffee")
    ]
    assert scene.state.penalties == [] and scene.state.turn == before and scene.state.paused_by == 2


def test_in_a_pause_talk_not_said_to_be_about_order_or_safety_is_refused():
    scene = paused_scene()
    scene.refuse(Say(0, "is it about queens"), "game_paused")
    scene.refuse(Say(0, "is it about queens", about="rule"), "malformed_utterance")
    scene.refuse(Say(0, "", about="order"), "malformed_utterance")


def test_talk_about_the_turn_order_outside_a_pause_is_refused_and_not_penalised():
    scene = Scene()
    scene.deal({}, starter="9H")
    scene.refuse(Say(0, "whose turn is it", about="order"), "not_paused")


def test_talk_in_a_pause_is_no_call_the_window_still_wants_it_said():
    scene = Scene(hand_size=2)
    scene.deal({0: "5H 2C"}, starter="9H")
    scene.do(PlayCard(0, parse_card("5H")))
    scene.do(CallPause(0))
    scene.do(Say(0, "mao", about="order"))
    scene.do(EndPause(0))
    assert isinstance(scene.do(DrawCard(1))[0], CallMissed)
    assert scene.state.penalties == [(0, "missed_call")]
