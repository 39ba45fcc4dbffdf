"""Every refusal code the Mao domain can give, each in a real situation, each changing nothing.

One test reads the package's source, so a new code without a case here fails; another checks
the package's docstring lists them all (the HTTP layer maps them from that list).
"""

import re
from collections.abc import Callable
from pathlib import Path
from uuid import uuid4

import pytest

import service.domain.mao as mao
from service.domain.cards import parse_card
from service.domain.mao.aggregate import MaoGame
from service.domain.mao.autoplay import check_bot
from service.domain.mao.commands import (
    SERVER,
    ApproveRule,
    CallPause,
    DealRound,
    DrawCard,
    EndPause,
    PlayCard,
    ProposeRule,
    RecycleStock,
    Say,
    StartMatch,
    WriteRule,
)
from service.domain.mao.game import decide
from service.domain.mao.league import check_mao_options
from service.domain.mao.state import State
from tests.refusals import refused
from tests.unit.mao.scene import Scene

PACKAGE = Path(mao.__file__).parent


def dealt() -> Scene:
    scene = Scene()
    scene.deal({0: "5H 2C 3C 4C 6C"}, starter="9H")
    return scene


def won(judge: str = "referee") -> Scene:
    scene = Scene(hand_size=1, judge=judge, rounds_to_win=2)
    scene.deal({0: "5H"}, starter="9H")
    scene.do(PlayCard(0, parse_card("5H"), says=("mao",)))
    return scene


def proposed() -> Scene:
    scene = won()
    scene.do(ProposeRule(0, "after K: next red"))
    return scene


def paused() -> Scene:
    scene = dealt()
    scene.do(CallPause(1))
    return scene


def recycling() -> Scene:
    scene = Scene(seats=3, hand_size=17, first_dealer=2)
    scene.deal({0: "5H"}, starter="9H")
    scene.do(PlayCard(0, parse_card("5H")))
    scene.do(DrawCard(1))
    return scene


def over() -> Scene:
    scene = Scene(hand_size=1, rounds_to_win=1)
    scene.deal({0: "5H"}, starter="9H")
    scene.do(PlayCard(0, parse_card("5H"), says=("mao",)))
    return scene


INCOMPATIBLE = "after Q: next not Q; after hearts: next not hearts"
CASES: dict[str, tuple[Callable[[], Scene], object]] = {
    "malformed_rule": (won, ProposeRule(0, "after Q")),
    "rule_incompatible": (won, ProposeRule(0, INCOMPATIBLE)),
    "match_already_started": (Scene, StartMatch(4, 0)),
    "invalid_deck": (Scene, DealRound(tuple(range(51)))),
    "proposal_pending": (proposed, DealRound(tuple(range(52)))),
    "not_round_winner": (won, ProposeRule(1, "after K: next red")),
    "no_proposal": (won, ApproveRule()),
    "not_a_seat": (dealt, Say(4, "hello")),
    "malformed_card": (dealt, PlayCard(0, -1)),
    "card_not_in_hand": (dealt, PlayCard(0, parse_card("AS"))),
    "not_your_turn": (dealt, DrawCard(1)),
    "no_shuffle_due": (dealt, RecycleStock(())),
    "invalid_recycle": (recycling, RecycleStock(())),
    "already_paused": (paused, CallPause(1)),
    "not_paused": (dealt, EndPause(1)),
    "not_pause_caller": (paused, EndPause(0)),
    "game_paused": (paused, PlayCard(0, parse_card("5H"))),
    "malformed_utterance": (dealt, Say(0, "")),
    "round_not_dealt": (Scene, PlayCard(0, 0)),
    "round_in_progress": (dealt, WriteRule("after 7: next red")),
    "awaiting_shuffle": (recycling, Say(0, "hello")),
    "game_over": (over, DealRound(tuple(range(52)))),
}
# refused before there is a state to keep: the match's own options
START_CASES = {
    "player_count": StartMatch(7, 0),
    "invalid_option": StartMatch(4, 0, hand_size=20),
    "match_not_started": DrawCard(0),
}


def keyed_match() -> MaoGame:
    """A stored match whose start was asked for with the idempotency key "key"."""
    game = MaoGame.start(uuid4(), ("p1", "p2", "bot:random"), SERVER)
    game.do(StartMatch(3, 0, judge=SERVER), "server", key="key", digest="the start")
    return game


def forfeited_twice() -> None:
    game = keyed_match()
    game.do(DealRound(tuple(range(52))), "server")
    game.forfeit_seat(0)
    game.forfeit_seat(0)


# refused around the decider: a Mao league's options, a bot's name at a stored table
AROUND_CASES: dict[str, Callable[[], None]] = {
    "unknown_option": lambda: check_mao_options({"target_score": 100}),
    "invalid_option": lambda: check_mao_options({"hand_size": 9}),
    "unknown_bot": lambda: check_bot("bot:clever"),
    "seat_forfeited": forfeited_twice,
}


@pytest.mark.parametrize("code", sorted(AROUND_CASES))
def test_each_refusal_around_the_decider_is_given_with_its_code(code):
    refused(code, AROUND_CASES[code])


def test_a_stored_matchs_key_sent_with_another_request_is_refused_by_the_kinds_one_rule():
    # every game kind's (``service.domain.kind.Keyed``), not the package's own
    refused("idempotency_key_reused", lambda: keyed_match().done_before("key", "another request"))


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_refusal_code_is_given_in_its_situation_and_changes_nothing(code):
    situation, command = CASES[code]
    situation().refuse(command, code)


@pytest.mark.parametrize("code", sorted(START_CASES))
def test_each_refusal_before_the_match_is_given_on_a_fresh_table_and_changes_nothing(code):
    s = State()
    refused(code, lambda: decide(s, START_CASES[code]))
    assert s == State()


def codes_in_source() -> set[str]:
    found: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        text = path.read_text()
        found |= set(re.findall(r'RuleError\(\s*"([a-z_]+)"', text))
        found |= set(re.findall(r'^\s+\w+: "([a-z_]+)",$', text, re.MULTILINE))  # the phase refusals
    return found


def test_every_code_the_package_can_raise_has_a_case_here_and_is_listed_in_its_docstring():
    codes = codes_in_source()
    assert {"rule_incompatible", "game_over", "match_not_started"} <= codes
    assert codes == set(CASES) | set(START_CASES) | set(AROUND_CASES)
    listed = set(re.findall(r"[a-z]+(?:_[a-z]+)+", mao.__doc__.split("(``RuleError``):")[1]))
    assert listed == codes
