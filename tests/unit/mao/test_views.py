"""What the judge, a player and the public see, and the referee's replay of the penalties."""

import msgspec

from service.domain.cards import parse_card
from service.domain.mao.commands import DrawCard, PlayCard, ProposeRule, Say
from service.domain.mao.redaction import JUDGE, PUBLIC, Viewer, redact_all
from service.domain.mao.replay import Why, referee_replay
from service.domain.mao.rule import TEACHING_TEXT
from service.domain.mao.views import judge_view, player_view
from tests.unit.mao.scene import Scene

SECRET = 'after 7: next black; on K: say "long live the king"'


def played_scene() -> Scene:
    scene = Scene(rule=SECRET, judge="referee")
    scene.deal(
        {0: "7H 2C 3C 4C 6C", 1: "9H KH 3D 4D 6D", 2: "7C 8D 10D JD 5S", 3: "KC 2D 2H 2S QD"},
        starter="5H",
        stock="AD AH AC",
    )
    scene.do(PlayCard(0, parse_card("7H")))
    scene.do(PlayCard(1, parse_card("9H")))  # red after a 7: returned, "wrong colour"
    scene.do(PlayCard(2, parse_card("7C")))
    scene.do(PlayCard(3, parse_card("KC")))  # black: accepted, but the king's words are not said
    scene.do(DrawCard(0))
    return scene


def test_the_judges_view_holds_the_rule_the_clauses_in_force_every_hand_and_the_calls_due():
    scene = Scene(rule=SECRET)
    scene.deal({0: "7H 2C 3C 4C 6C"}, starter="5H")
    scene.do(PlayCard(0, parse_card("7H")))
    view = judge_view(scene.state)
    assert view.rule == SECRET
    assert view.in_force == ["after 7: next black"]
    assert set(view.hands[0]) == {"2C", "3C", "4C", "6C"}
    assert view.calls is not None and view.calls.due == [] and view.calls.seat == 0


def test_a_players_view_holds_its_own_hand_the_counts_and_the_short_reasons_but_never_the_rule():
    scene = played_scene()
    view = player_view(scene.state, 1)
    assert set(view.hand) == {"9H", "KH", "3D", "4D", "6D", "AD"}
    assert view.cards == [5, 6, 4, 5]
    assert [(p.seat, p.text) for p in view.penalties] == [(1, "wrong colour"), (3, "missed call")]
    assert view.revealed_rule is None
    shown = msgspec.json.encode(view).decode()
    assert "after 7" not in shown and "long live" not in shown
    assert "AC" not in shown and "AH" not in shown  # cards taken by others


def test_the_public_log_shows_the_table_and_what_was_said_but_no_rule_deck_hand_or_calls_due():
    scene = played_scene()
    scene.do(Say(0, "Long live the king"))
    public = redact_all(scene.events, PUBLIC)
    shown = msgspec.json.encode(public).decode()
    assert "after 7" not in shown
    assert '"deck"' not in shown and '"in_force"' not in shown and '"due"' not in shown
    written = next(e for e in public if e["type"] == "RuleWritten")
    assert written == {"type": "RuleWritten", "round_no": 1, "by": "referee"}
    missed = next(e for e in public if e["type"] == "CallMissed")
    assert "words" not in missed  # the rule's own call would tell the rule
    returned = next(e for e in public if e["type"] == "PlayReturned")
    assert returned == {"type": "PlayReturned", "seat": 1, "card": "9H", "reason": "wrong_colour", "turn": 2}
    taken = [e for e in public if e["type"] == "CardTaken"]
    assert taken and all("card" not in e for e in taken)
    spoken = next(e for e in public if e["type"] == "Spoke")
    assert spoken["words"] == "long live the king"  # said aloud at the table


def test_a_seat_sees_its_own_dealt_and_taken_cards_only():
    scene = played_scene()
    mine = redact_all(scene.events, Viewer.at(1))
    dealt = next(e for e in mine if e["type"] == "RoundDealt")
    assert set(dealt["hand"]) == {"9H", "KH", "3D", "4D", "6D"} and "deck" not in dealt
    taken = {e["seat"]: e.get("card") for e in mine if e["type"] == "CardTaken"}
    assert taken == {1: "AD", 3: None, 0: None}


def test_the_judge_sees_every_event_whole():
    scene = played_scene()
    judged = redact_all(scene.events, JUDGE)
    assert next(e for e in judged if e["type"] == "RuleWritten")["text"] == SECRET
    assert next(e for e in judged if e["type"] == "CallMissed")["words"] == "long live the king"


def test_the_rule_is_shown_to_players_once_revealed_and_a_proposal_only_to_its_proposer():
    scene = Scene(hand_size=1, judge="referee")
    scene.deal({0: "5H"}, starter="9H")
    scene.do(PlayCard(0, parse_card("5H"), says=("mao",)))
    assert player_view(scene.state, 2).revealed_rule == TEACHING_TEXT
    assert redact_all(scene.events, PUBLIC)[-1] == {
        "type": "RuleRevealed",
        "round_no": 1,
        "text": TEACHING_TEXT,
    }
    scene.do(ProposeRule(0, "after K: next red"))
    assert player_view(scene.state, 0).my_proposal == "after K: next red"
    assert player_view(scene.state, 1).my_proposal is None
    proposed = redact_all(scene.events, Viewer.at(1))[-1]
    assert proposed == {"type": "RuleProposed", "seat": 0}


def test_the_referee_replay_shows_why_each_penalty_was_given():
    scene = played_scene()
    scene.do(PlayCard(2, parse_card("8D")))  # out of turn: seat 1 is on turn
    whys = [step.why for step in referee_replay(scene.events) if step.why is not None]
    assert whys == [
        Why(
            seat=1,
            reason="wrong_colour",
            text="wrong colour",
            card="9H",
            top="7H",
            in_force=["after 7: next black"],
            rule=SECRET,
        ),
        Why(seat=3, reason="missed_call", text="missed call", words="long live the king"),
        Why(seat=2, reason="out_of_turn", text="out of turn", card="8D", top="KC", in_force=[], rule=SECRET),
    ]
