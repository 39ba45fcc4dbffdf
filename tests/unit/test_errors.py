"""Every refusal code the domain can give, each produced by a real situation.

A refused command raises ``RuleError`` with a stable code and leaves the state
exactly as it was: ``Game.refuse`` compares the state with the fold of the
events before and after. One test reads the engine's source, so a new code
without a case here fails the suite.
"""

import re
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

from service.domain.cards import parse_card, parse_rank, parse_suit
from service.domain.commands import (
    Challenge,
    ChoosePlayer,
    DealRound,
    DrawCard,
    GivePenalty,
    KeepCard,
    NameSuit,
    PlayCard,
    RecycleStock,
    ScoreRound,
    StartMatch,
)
from service.domain.engine import decide, fold
from service.domain.errors import RuleError
from service.domain.presets import CLUB
from service.domain.rulebook import MAU, MAU_MAU
from service.domain.ruleset_options import ruleset
from service.domain.state import DRAWN, RECYCLE, State
from tests.unit.round_rulesets import club_101
from tests.unit.scenario import Game, cards

DOMAIN = Path(__file__).resolve().parents[2] / "service" / "domain"
# The rules engine; the other modules of service/domain (games, disputes, leagues) have their own tests.
ENGINE_MODULES = (
    "actions",
    "bots",
    "cards",
    "chance",
    "commands",
    "draws",
    "engine",
    "errors",
    "events",
    "legal",
    "plays",
    "presets",
    "refusals",
    "round_end",
    "rulebook",
    "ruleset_checks",
    "ruleset_options",
    "rulesets",
    "state",
    "table",
)


def raised(call: Callable[[], object]) -> str:
    with pytest.raises(RuleError) as refused:
        call()
    return refused.value.code


def fresh_state_refuses(command) -> str:
    s = State()
    code = raised(lambda: decide(s, command))
    assert s == State()
    return code


def started(seats: int = 3, **options) -> Game:
    return Game(ruleset("club", **options), seats=seats, dealer=0, deal=False)


def with_a_seat_out() -> Game:
    game = Game(club_101(), seats=3, dealer=0, deal=False)
    game.do(ScoreRound(0, (0, 5, 102)))  # seat 2 is over 101
    return game


def dealt(**kwargs) -> Game:
    kwargs.setdefault("hands", {1: "9H 7C JD 2S 3S", 2: "9S 2D 3D 4D 6D"})
    kwargs.setdefault("starter", "5H")
    kwargs.setdefault("stock", "KH QD KC QC")
    return Game(seats=3, dealer=0, **kwargs)


def after_drawing() -> Game:
    game = Game(seats=3, dealer=0, hands={1: "2C 3C 4C 6C 10C"}, starter="5H", stock="KH QD")
    game.draw(1)
    return game


def missed_mau() -> Game:
    game = Game(
        ruleset("club", hand_size=2), seats=3, dealer=0, hands={1: "9H 4C"}, starter="5H", stock="KD QD"
    )
    game.play(1, "9H")
    return game


def recycling() -> Game:
    game = Game(
        ruleset("club", hand_size=8),
        seats=6,
        dealer=0,
        hands={1: "7C", 2: "2D 3D 4D 6D 9D 10D QD KD"},
        starter="7H",
        stock="2S 3S 4S",
    )
    game.play(1, "7C")
    game.draw(2)
    assert game.s.phase == RECYCLE
    return game


def nothing_left_to_draw() -> Game:
    rules = ruleset("club", hand_size=8, voluntary_draw=True)
    game = Game(
        rules, seats=6, dealer=0, hands={4: "9H 3C 4C 6C 9C 10C QC KC"}, starter="5H", stock="2S 3S 4S"
    )
    for seat in (1, 2, 3):
        game.draw(seat)
        if game.s.phase == DRAWN:
            game.keep(seat)
    return game


def match_over() -> Game:
    game = Game(
        ruleset("club", hand_size=1, single_round=True), seats=2, dealer=0, hands={1: "9H"}, starter="5H"
    )
    game.play(1, "9H", call=MAU_MAU)
    return game


def choosing() -> Game:
    game = Game(ruleset("haft-khabis"), seats=3, dealer=0, hands={1: "2H 3C 4C 6C 9C"}, starter="5H")
    game.play(1, "2H")
    return game


def seat_out_challenges() -> str:
    """A seat out of the match may not challenge (``out`` set as the match's elimination sets it)."""
    game = missed_mau()
    game.s.out = 1 << 2
    before = fold(game.events)
    before.out = 1 << 2
    code = raised(lambda: decide(game.s, Challenge(2)))
    assert game.s == before
    return code


def cases() -> dict[str, Callable[[], str]]:
    club = ruleset("club")
    return {
        # text and rulesets
        "malformed_card": lambda: raised(lambda: parse_card("1H")),
        "malformed_suit": lambda: raised(lambda: parse_suit("X")),
        "malformed_rank": lambda: raised(lambda: parse_rank("1")),
        "unknown_ruleset": lambda: raised(lambda: ruleset("skat")),
        "unknown_option": lambda: raised(lambda: ruleset("club", jokers=2)),
        "invalid_option": lambda: raised(lambda: ruleset("club", target_score=0)),
        "invalid_ruleset": lambda: fresh_state_refuses(
            StartMatch(msgspec.structs.replace(CLUB, min_players=1), 2, 0)
        ),
        # starting and dealing
        "player_count": lambda: fresh_state_refuses(StartMatch(club, 7, 0)),
        "not_a_seat": lambda: fresh_state_refuses(StartMatch(club, 4, 4)),
        "match_already_started": lambda: started().refuse(StartMatch(club, 3, 0)),
        "match_not_started": lambda: fresh_state_refuses(DealRound(tuple(range(52)))),
        "invalid_deck": lambda: started().refuse(DealRound(tuple(range(51)))),
        "round_in_progress": lambda: dealt().refuse(DealRound(tuple(range(52)))),
        "round_not_dealt": lambda: started().refuse(PlayCard(1, parse_card("9H"))),
        # a round scored from a score sheet
        "seat_count": lambda: started().refuse(ScoreRound(0, (0, 12))),
        "no_winner": lambda: started().refuse(ScoreRound(-1, (3, 12, 4), parse_card("9H"))),
        "card_not_in_deck": lambda: Game(club_101(), seats=2, deal=False).refuse(
            ScoreRound(0, (0, 12), parse_card("2H"))
        ),
        "seat_out": lambda: with_a_seat_out().refuse(ScoreRound(0, (0, 12, 3))),
        # naming the starter's suit
        "suit_not_named": lambda: dealt(starter="JH").refuse(PlayCard(1, parse_card("9H"))),
        "no_suit_to_name": lambda: dealt().refuse(NameSuit(0, 1)),
        # plays
        "not_your_turn": lambda: dealt().refuse(PlayCard(2, parse_card("9S"))),
        "card_not_in_hand": lambda: dealt().refuse(PlayCard(1, parse_card("9C"))),
        "card_does_not_match": lambda: dealt().refuse(PlayCard(1, parse_card("2S"))),
        "suit_required": lambda: dealt().refuse(PlayCard(1, parse_card("JD"))),
        "suit_not_allowed": lambda: dealt().refuse(PlayCard(1, parse_card("9H"), 2)),
        "call_not_due": lambda: dealt().refuse(PlayCard(1, parse_card("9H"), -1, MAU)),
        "debt_pending": lambda: refuse_after(dealt(starter="7H"), PlayCard(1, parse_card("9H"))),
        "only_drawn_card": lambda: refuse_after(
            Game(
                ruleset("club", voluntary_draw=True),
                seats=3,
                dealer=0,
                hands={1: "9H 3C 4C 6C 10C"},
                starter="5H",
                stock="KH",
            ),
            PlayCard(1, parse_card("9H")),
            draw=1,
        ),
        # several cards of one rank in one play (quick)
        "several_cards_not_allowed": lambda: dealt(hands={1: "9H 9C 2S 3S 4S"}).refuse(
            PlayCard(1, parse_card("9H"), more=(parse_card("9C"),))
        ),
        "card_repeated": lambda: Game(
            ruleset("club", quick=True), seats=3, dealer=0, hands={1: "9H 9C 2S 3S 4S"}
        ).refuse(PlayCard(1, parse_card("9H"), more=(parse_card("9H"),))),
        "cards_of_different_ranks": lambda: Game(
            ruleset("club", quick=True), seats=3, dealer=0, hands={1: "9H 10H 2S 3S 4S"}
        ).refuse(PlayCard(1, parse_card("9H"), more=(parse_card("10H"),))),
        # a card played face down (blind)
        "declaration_not_allowed": lambda: dealt().refuse(
            PlayCard(1, parse_card("2S"), declared=parse_card("9H"))
        ),
        "last_card_face_up": lambda: Game(
            ruleset("club", blind=True, hand_size=1), seats=2, dealer=0, hands={1: "2S"}
        ).refuse(PlayCard(1, parse_card("2S"), declared=parse_card("9H"))),
        "drawn_card_face_up": lambda: refuse_after(
            Game(ruleset("club", blind=True), seats=3, dealer=0, hands={1: "2C 3C 4C 6C 10C"}, stock="KH"),
            PlayCard(1, parse_card("KH"), declared=parse_card("KH")),
            draw=1,
        ),
        "several_cards_face_up": lambda: Game(
            ruleset("club", blind=True, quick=True), seats=3, dealer=0, hands={1: "9H 9C 2S 3S 4S"}
        ).refuse(PlayCard(1, parse_card("9H"), more=(parse_card("9C"),), declared=parse_card("9H"))),
        # effects
        "cannot_go_out": lambda: Game(
            ruleset("classic", hand_size=1), seats=2, dealer=0, hands={1: "AH"}, starter="10H"
        ).refuse(PlayCard(1, parse_card("AH"), -1, MAU_MAU)),
        "nothing_to_choose": lambda: dealt().refuse(ChoosePlayer(1, 2)),
        "player_not_chosen": lambda: choosing().refuse(DrawCard(1)),
        "invalid_choice": lambda: choosing().refuse(ChoosePlayer(1, 1)),
        # draws
        "draw_not_allowed": lambda: dealt().refuse(DrawCard(1)),
        "already_drew": lambda: after_drawing().refuse(DrawCard(1)),
        "nothing_to_keep": lambda: dealt().refuse(KeepCard(1)),
        "must_cover": lambda: covering_a_six().refuse(KeepCard(1)),
        "skip_pending": lambda: refuse_after(
            Game(
                ruleset("classic", stack_eights=True),
                seats=3,
                dealer=0,
                hands={1: "8H 9C", 2: "9S"},
                starter="9H",
            ),
            PlayCard(2, parse_card("9S")),
            play=(1, "8H"),
        ),
        "stock_exhausted": lambda: nothing_left_to_draw().refuse(DrawCard(4)),
        # calls
        "nothing_to_challenge": lambda: dealt().refuse(Challenge(2)),
        "cannot_challenge_self": lambda: missed_mau().refuse(Challenge(1)),
        # the stock
        "no_shuffle_due": lambda: dealt().refuse(RecycleStock(())),
        "invalid_recycle": lambda: recycling().refuse(RecycleStock(tuple(cards("7C")))),
        "awaiting_shuffle": lambda: recycling().refuse(DrawCard(2)),
        # a referee's penalty
        "invalid_penalty": lambda: dealt().refuse(GivePenalty(1, 0)),
        # the end
        "game_over": lambda: match_over().refuse(DealRound(tuple(range(52)))),
    }


def covering_a_six() -> Game:
    """101: seat 1 played 6♥, held no cover and drew 10♥, which covers it."""
    game = Game(ruleset("101", hand_size=2), seats=2, dealer=0, hands={1: "6H 8C"}, starter="9H", stock="10H")
    game.play(1, "6H")
    game.draw(1)
    return game


def refuse_after(game: Game, command, draw: int = -1, play: tuple[int, str] | None = None) -> str:
    if play is not None:
        game.play(*play)
    if draw >= 0:
        game.draw(draw)
    return game.refuse(command)


CASES = cases()


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_refusal_code_is_given_in_its_situation_and_changes_nothing(code):
    assert CASES[code]() == code


def codes_in_the_engine() -> set[str]:
    found: set[str] = set()
    for name in ENGINE_MODULES:
        text = (DOMAIN / f"{name}.py").read_text()
        found |= set(re.findall(r'RuleError\(\s*"([a-z_]+)"', text))
        found |= set(re.findall(r'_refusal\(\s*s,\s*"([a-z_]+)"', text))
        table = re.search(r"_PHASE_REFUSALS\s*=\s*\{(.*?)\n\}", text, re.S)
        if table:
            found |= set(re.findall(r'\(\s*"([a-z_]+)"\s*,', table.group(1)))
    return found


def test_every_code_the_engine_can_raise_has_a_case_here():
    found = codes_in_the_engine()
    assert len(found) > 25, "the source scan found too few codes: has the code layout changed?"
    assert found - set(CASES) == set()


@pytest.mark.parametrize(
    "command",
    [
        DealRound(tuple(range(52))),
        NameSuit(0, 0),
        PlayCard(0, 0),
        DrawCard(0),
        KeepCard(0),
        RecycleStock(()),
        Challenge(0),
    ],
    ids=lambda c: type(c).__name__,
)
def test_every_command_before_the_match_starts_is_refused_with_match_not_started(command):
    assert fresh_state_refuses(command) == "match_not_started"


@pytest.mark.parametrize(
    "command",
    [PlayCard(5, 0), DrawCard(5), Challenge(5), Challenge(-1), NameSuit(5, 0)],
    ids=lambda c: f"{type(c).__name__}({c.seat})",
)
def test_a_seat_that_is_not_at_the_table_is_refused(command):
    game = dealt(starter="JH") if isinstance(command, NameSuit) else missed_mau()
    assert game.refuse(command) == "not_a_seat"


@pytest.mark.parametrize("card", [-1, 108, 127, 1000])
def test_a_card_number_outside_the_deck_is_a_malformed_card(card):
    assert dealt().refuse(PlayCard(1, card)) == "malformed_card"


@pytest.mark.parametrize("card", [52, 53, 63, 107])
def test_a_joker_or_a_second_deck_card_a_club_hand_cannot_hold_is_not_in_the_hand(card):
    assert dealt().refuse(PlayCard(1, card)) == "card_not_in_hand"


def test_naming_a_suit_that_does_not_exist_is_a_malformed_suit():
    game = dealt(starter="JH")
    assert game.refuse(NameSuit(0, 4)) == "malformed_suit"
    assert game.refuse(NameSuit(0, -1)) == "malformed_suit"


def test_keeping_after_a_card_is_played_from_the_draw_is_refused():
    game = after_drawing()
    game.play(1, "KH")
    assert game.refuse(KeepCard(1)) == "nothing_to_keep"


def test_a_draw_by_another_seat_while_the_drawer_decides_is_not_your_turn():
    # seat 1 has drawn a playable card and is deciding; seat 2 is not on turn
    assert after_drawing().refuse(DrawCard(2)) == "not_your_turn"


def test_a_seat_out_of_the_match_may_not_challenge():
    assert seat_out_challenges() == "seat_out"
