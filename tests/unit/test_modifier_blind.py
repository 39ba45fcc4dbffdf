"""The modifier `blind` (variants.md): a card played face down as a declared card; the next player
believes it (moves on) or challenges it, and the liar or the wrong challenger draws 2."""

import random
from datetime import UTC, datetime

import msgspec
import pytest

from service.domain.actions import CHALLENGE_DECLARATION, blind_action
from service.domain.bots import HeuristicBot, RandomBot
from service.domain.cards import format_card, parse_card
from service.domain.commands import ChallengeDeclaration, PlayCard
from service.domain.events import (
    CardPlayed,
    CardsDrawn,
    DeclarationChallenged,
    DeclarationsRevealed,
    Event,
    RoundEnded,
)
from service.domain.legal import legal_actions
from service.domain.redaction import FULL, PUBLIC, Viewer, redact
from service.domain.redaction import Table as RedactionTable
from service.domain.ruleset_options import ruleset
from service.domain.rulesets import Ruleset
from service.domain.state import PENALTY
from service.domain.views import Entry
from tests.unit.bot_match import bot_match
from tests.unit.scenario import Game

BLIND = ruleset("club", blind=True)


def declare(seat: int, card: str, declared: str, suit: int = -1, call: int = 0) -> PlayCard:
    return PlayCard(seat, parse_card(card), suit, call, declared=parse_card(declared))


def lie() -> Game:
    """Seat 1 lays 2C face down as 9H on 5H; seat 2 is next."""
    game = Game(BLIND, seats=3, dealer=0, hands={1: "2C 3C 4C 6C KS", 2: "9S 2D 3D 4D 6D"}, starter="5H")
    game.do(declare(1, "2C", "9H"))
    return game


def test_a_face_down_card_acts_as_the_card_declared():
    game = lie()
    assert game.hand(1) == {"3C", "4C", "6C", "KS"}
    assert game.s.turn == 2 and game.s.declared == parse_card("9H")
    assert game.s.follow >> parse_card("9S") & 1  # the next player follows the nine of hearts
    assert game.s.doubt == (1, 2)


def test_a_declared_seven_puts_its_debt_on_the_next_player():
    game = Game(BLIND, seats=3, dealer=0, hands={1: "2C 3C 4C 6C KS"}, starter="5H")
    (played,) = game.do(declare(1, "2C", "7H"))
    assert isinstance(played, CardPlayed) and played.debt == 2


def test_a_challenged_lie_costs_the_liar_two_cards_and_turns_the_card_up():
    game = lie()
    challenged, drawn = game.do(ChallengeDeclaration(2))
    assert isinstance(challenged, DeclarationChallenged) and challenged.lied
    assert (challenged.card, challenged.declared) == (parse_card("2C"), parse_card("9H"))
    assert isinstance(drawn, CardsDrawn) and (drawn.seat, len(drawn.cards), drawn.reason) == (1, 2, PENALTY)
    assert game.s.turn == 2 and game.s.declared == -1 and game.s.doubt is None
    assert game.s.follow >> parse_card("9C") & 1 and not game.s.follow >> parse_card("9S") & 1


def test_a_wrong_challenge_costs_the_challenger_two_cards():
    game = Game(BLIND, seats=3, dealer=0, hands={1: "9H 3C 4C 6C KS"}, starter="5H")
    game.do(declare(1, "9H", "9H"))
    challenged, drawn = game.do(ChallengeDeclaration(2))
    assert isinstance(challenged, DeclarationChallenged) and not challenged.lied
    assert isinstance(drawn, CardsDrawn) and (drawn.seat, len(drawn.cards)) == (2, 2)
    assert game.s.turn == 2


def test_the_next_player_believes_by_moving_on_and_the_challenge_closes():
    game = lie()
    game.play(2, "9S")
    assert game.s.doubt is None
    assert game.refuse(ChallengeDeclaration(2)) == "nothing_to_challenge"


def test_drawing_believes_the_declaration():
    game = Game(BLIND, seats=3, dealer=0, hands={1: "2C 3C 4C 6C KS", 2: "2D 3D 4D 6D 8D"}, starter="5H")
    game.do(declare(1, "2C", "9H"))
    game.draw(2)
    assert game.s.doubt is None


def test_only_the_next_player_may_challenge():
    game = lie()
    assert game.refuse(ChallengeDeclaration(0)) == "not_your_turn"
    assert game.refuse(ChallengeDeclaration(1)) == "not_your_turn"


def test_a_declaration_without_the_modifier_is_refused():
    game = Game(ruleset("club"), seats=3, dealer=0, hands={1: "2C 3C 4C 6C KS"}, starter="5H")
    assert game.refuse(declare(1, "2C", "9H")) == "declaration_not_allowed"


def test_a_declared_card_that_may_not_be_played_is_refused():
    game = Game(BLIND, seats=3, dealer=0, hands={1: "2C 3C 4C 6C KS"}, starter="5H")
    assert game.refuse(declare(1, "2C", "9S")) == "card_does_not_match"


def test_a_declaration_must_answer_a_debt():
    game = Game(BLIND, seats=3, dealer=0, hands={1: "2C 3C 4C 6C KS"}, starter="7H")
    assert game.refuse(declare(1, "2C", "9H")) == "debt_pending"


def test_a_real_card_not_held_is_refused():
    game = Game(BLIND, seats=3, dealer=0, hands={1: "2C 3C 4C 6C KS"}, starter="5H")
    assert game.refuse(declare(1, "9D", "9H")) == "card_not_in_hand"


def test_a_declared_card_outside_the_deck_is_refused():
    game = Game(BLIND, seats=3, dealer=0, hands={1: "2C 3C 4C 6C KS"}, starter="5H")
    assert game.refuse(PlayCard(1, parse_card("2C"), declared=parse_card("X1"))) == "card_not_in_deck"
    assert game.refuse(PlayCard(1, parse_card("2C"), declared=999)) == "malformed_card"


def test_a_declared_jack_names_a_suit():
    game = Game(BLIND, seats=3, dealer=0, hands={1: "2C 3C 4C 6C KS"}, starter="5H")
    assert game.refuse(declare(1, "2C", "JD")) == "suit_required"
    assert game.refuse(declare(1, "2C", "9H", suit=0)) == "suit_not_allowed"
    game.do(declare(1, "2C", "JD", suit=3))
    assert game.s.named_suit == 3


def test_a_last_card_is_played_face_up():
    rules = ruleset("club", blind=True, hand_size=1)
    game = Game(rules, seats=2, dealer=0, hands={1: "2C"}, starter="5H")
    assert game.refuse(declare(1, "2C", "9H")) == "last_card_face_up"


def test_a_drawn_card_is_played_face_up():
    game = Game(BLIND, seats=3, dealer=0, hands={1: "2C 3C 4C 6C KS"}, starter="5H", stock="9H")
    game.draw(1)
    assert game.refuse(declare(1, "9H", "9H")) == "drawn_card_face_up"


def test_several_cards_are_played_face_up():
    rules = ruleset("club", blind=True, quick=True)
    game = Game(rules, seats=3, dealer=0, hands={1: "9H 9C 4C 6C KS"}, starter="5H")
    command = PlayCard(1, parse_card("9H"), more=(parse_card("9C"),), declared=parse_card("9H"))
    assert game.refuse(command) == "several_cards_face_up"


def test_the_cards_still_face_down_are_turned_up_when_the_round_ends():
    rules = ruleset("club", blind=True, hand_size=2)
    game = Game(rules, seats=2, dealer=0, hands={0: "9S 3D", 1: "2C 9D"}, starter="5H")
    game.do(declare(1, "2C", "9H", call=1))
    events = game.play(0, "9S")
    assert not any(isinstance(e, RoundEnded) for e in events)
    events = game.play(1, "9D", call=2)
    revealed = events[-2]
    assert isinstance(revealed, DeclarationsRevealed)
    assert revealed.plays == ((1, parse_card("2C"), parse_card("9H")),)
    assert isinstance(events[-1], RoundEnded)


def test_legal_actions_list_each_held_card_as_each_card_it_may_be_declared_as_and_the_challenge():
    game = Game(BLIND, seats=3, dealer=0, hands={1: "2C 3C 4C 6C KS"}, starter="5H")
    actions = legal_actions(game.s, 1)
    assert blind_action(parse_card("2C"), parse_card("9H")) in actions
    assert blind_action(parse_card("2C"), parse_card("9S")) not in actions
    assert blind_action(parse_card("KS"), parse_card("JC"), 2) in actions
    game.do(declare(1, "2C", "9H"))
    assert CHALLENGE_DECLARATION in legal_actions(game.s, 2)
    assert CHALLENGE_DECLARATION not in legal_actions(game.s, 0)


def test_the_modifier_combines_with_every_preset():
    for name in ("classic", "101", "prsi", "pesten", "faraon", "haft-khabis", "puke", "russian", "neuner"):
        assert ruleset(name, blind=True).blind


def test_the_heuristic_bot_challenges_a_card_it_holds_itself():
    game = Game(BLIND, seats=3, dealer=0, hands={1: "2C 3C 4C 6C KS", 2: "9H 2D 3D 4D 6D"}, starter="5H")
    game.do(declare(1, "2C", "9H"))
    assert HeuristicBot(random.Random(0)).choose(game.s, 2) == ChallengeDeclaration(2)


def test_the_heuristic_bot_bluffs_instead_of_drawing():
    game = Game(BLIND, seats=3, dealer=0, hands={1: "2C 3C 4C 6C KS"}, starter="5H")
    command = HeuristicBot(random.Random(0)).choose(game.s, 1)
    assert isinstance(command, PlayCard) and command.declared >= 0 and command.card == parse_card("KS")


@pytest.mark.parametrize("bot", [RandomBot, HeuristicBot])
@pytest.mark.parametrize("rules", [BLIND, ruleset("prsi", blind=True)], ids=lambda r: r.name)
def test_bots_play_whole_matches_face_down(rules: Ruleset, bot: type):
    challenged = face_down = 0
    for seed in range(3):
        table = bot_match(rules, bot, seed)
        face_down += sum(1 for e in table.events if isinstance(e, CardPlayed) and e.declared >= 0)
        challenged += sum(1 for e in table.events if isinstance(e, DeclarationChallenged))
    assert face_down > 0
    assert challenged > 0


# secrecy: the real card of a face-down play is its player's (and officials') alone until turned up

TABLE = RedactionTable(seats=3, hand_size=5)


def entry_of_engine(event: Event) -> Entry:
    data = msgspec.to_builtins(event)
    data.pop("type")
    return Entry(number=1, type=type(event).__name__, timestamp=datetime(2026, 12, 1, tzinfo=UTC), data=data)


def test_a_face_down_card_shows_its_declaration_to_the_others_and_the_card_to_its_player():
    game = lie()
    entry = entry_of_engine(game.events[-1])
    for viewer in (PUBLIC, Viewer.at(0), Viewer.at(2)):
        shown = redact(entry, viewer, TABLE).data
        assert shown["card"] == "9H" and "declared" not in shown
        assert "2C" not in msgspec.json.encode(shown).decode()
    for viewer in (FULL, Viewer.at(1)):
        shown = redact(entry, viewer, TABLE).data
        assert (shown["card"], shown["declared"]) == ("2C", "9H")


def test_a_truthful_face_down_card_looks_the_same_as_a_lie_to_the_others():
    truth = Game(BLIND, seats=3, dealer=0, hands={1: "9H 3C 4C 6C KS"}, starter="5H")
    truth.do(declare(1, "9H", "9H"))
    told, lied = entry_of_engine(truth.events[-1]), entry_of_engine(lie().events[-1])
    assert redact(told, PUBLIC, TABLE).data == redact(lied, PUBLIC, TABLE).data


def test_a_challenge_and_the_round_end_turn_the_card_up_for_everyone():
    game = lie()
    challenged = entry_of_engine(game.do(ChallengeDeclaration(2))[0])
    assert redact(challenged, PUBLIC, TABLE).data["card"] == "2C"
    revealed = entry_of_engine(DeclarationsRevealed(((1, parse_card("2C"), parse_card("9H")),)))
    assert redact(revealed, PUBLIC, TABLE).data["plays"] == [{"seat": 1, "card": "2C", "declared": "9H"}]


@pytest.mark.parametrize("seed", range(4))
def test_no_public_or_other_seat_entry_of_a_bot_match_holds_an_unrevealed_face_down_card(seed: int):
    table = bot_match(ruleset("club", blind=True, single_round=True), RandomBot, seed)
    lies = 0
    for event in table.events:
        if isinstance(event, CardPlayed) and event.declared >= 0 and event.declared != event.card:
            lies += 1
            entry = entry_of_engine(event)
            for viewer in (PUBLIC, *(Viewer.at(other) for other in range(3) if other != event.seat)):
                shown = msgspec.json.encode(redact(entry, viewer, TABLE).data).decode()
                assert format_card(event.card) not in shown.replace(format_card(event.declared), "")
    assert lies > 0
