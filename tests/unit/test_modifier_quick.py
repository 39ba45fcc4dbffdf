"""The modifier `quick` and faraon's several cards in one play (variants.md).

`quick`: several cards of one rank may be played at once if the bottom one is legal; they count
as one effect, except draws, which add up. faraon plays them by its own rules: each ace skips.
"""

import random

import pytest

from service.domain.actions import DRAW, SEVERAL_PLAY, play_action, several_action, several_cards
from service.domain.bots import HeuristicBot, RandomBot
from service.domain.cards import parse_card
from service.domain.commands import GivePenalty, PlayCard, command_for
from service.domain.engine import decide
from service.domain.errors import RuleError
from service.domain.events import CardPlayed, RoundEnded
from service.domain.legal import legal_actions
from service.domain.rulebook import MAU, MAU_MAU, NO_CALL
from service.domain.ruleset_options import ruleset
from service.domain.rulesets import Ruleset
from tests.unit.bot_match import bot_match
from tests.unit.scenario import Game, cards

QUICK = ruleset("club", quick=True)
FARAON = ruleset("faraon")


def several(seat: int, names: str, suit: int = -1, call: int = NO_CALL) -> PlayCard:
    bottom, *more = cards(names)
    return PlayCard(seat, bottom, suit, call, tuple(more))


def test_several_cards_of_one_rank_leave_the_hand_and_the_last_one_is_on_top():
    game = Game(QUICK, seats=3, dealer=0, hands={1: "9H 9C 9S KC 2D"}, starter="5H")
    (played,) = game.do(several(1, "9H 9C 9S"))
    assert isinstance(played, CardPlayed) and played.more == tuple(cards("9C 9S"))
    assert game.hand(1) == {"KC", "2D"}
    assert game.s.discard[-3:] == cards("9H 9C 9S")
    assert game.s.follow >> parse_card("2S") & 1  # the top card's suit is followed now
    assert not game.s.follow >> parse_card("2H") & 1
    assert played.turn == 2


def test_the_bottom_card_must_be_playable_but_the_others_need_not_match():
    game = Game(QUICK, seats=3, dealer=0, hands={1: "9C 9H KC 2D 3D"}, starter="5H")
    assert game.refuse(several(1, "9C 9H")) == "card_does_not_match"
    (played,) = game.do(several(1, "9H 9C"))
    assert isinstance(played, CardPlayed) and played.card == parse_card("9H")


def test_sevens_played_together_add_their_draws():
    game = Game(QUICK, seats=3, dealer=0, hands={1: "7H 7C 7S KC 2D"}, starter="5H")
    (played,) = game.do(several(1, "7H 7C 7S"))
    assert isinstance(played, CardPlayed) and (played.debt, played.turn) == (6, 2)


def test_sevens_played_together_on_a_debt_add_to_it():
    game = Game(QUICK, seats=3, dealer=0, hands={1: "7H KC 2D 3D 4D", 2: "7C 7S KD 2C 3C"}, starter="5H")
    game.play(1, "7H")
    (played,) = game.do(several(2, "7C 7S"))
    assert isinstance(played, CardPlayed) and (played.debt, played.turn) == (6, 0)


def test_eights_played_together_skip_only_one_player():
    game = Game(QUICK, seats=4, dealer=0, hands={1: "8H 8C KC 2D 3D"}, starter="5H")
    (played,) = game.do(several(1, "8H 8C"))
    assert isinstance(played, CardPlayed) and (played.skipped, played.turn) == (2, 3)


def test_jacks_played_together_name_one_suit():
    game = Game(QUICK, seats=3, dealer=0, hands={1: "JH JC KC 2D 3D"}, starter="5H")
    assert game.refuse(several(1, "JH JC")) == "suit_required"
    game.do(several(1, "JH JC", suit=3))
    assert game.s.named_suit == 3


def test_cards_of_different_ranks_are_refused():
    game = Game(QUICK, seats=3, dealer=0, hands={1: "9H 10H KC 2D 3D"}, starter="5H")
    assert game.refuse(several(1, "9H 10H")) == "cards_of_different_ranks"


def test_a_card_named_twice_is_refused():
    game = Game(QUICK, seats=3, dealer=0, hands={1: "9H 9C KC 2D 3D"}, starter="5H")
    assert game.refuse(several(1, "9H 9C 9C")) == "card_repeated"


def test_a_card_not_held_is_refused():
    game = Game(QUICK, seats=3, dealer=0, hands={1: "9H 9C KC 2D 3D"}, starter="5H")
    assert game.refuse(several(1, "9H 9S")) == "card_not_in_hand"


def test_a_card_that_is_no_card_is_refused():
    game = Game(QUICK, seats=3, dealer=0, hands={1: "9H 9C KC 2D 3D"}, starter="5H")
    assert game.refuse(PlayCard(1, parse_card("9H"), more=(999,))) == "malformed_card"


def test_several_cards_without_the_modifier_are_refused():
    game = Game(ruleset("club"), seats=3, dealer=0, hands={1: "9H 9C KC 2D 3D"}, starter="5H")
    assert game.refuse(several(1, "9H 9C")) == "several_cards_not_allowed"


def test_several_cards_out_of_turn_are_refused():
    game = Game(QUICK, seats=3, dealer=0, hands={2: "9H 9C KC 2D 3D"}, starter="5H")
    assert game.refuse(several(2, "9H 9C")) == "not_your_turn"


def test_after_drawing_only_the_drawn_card_may_be_played():
    game = Game(QUICK, seats=3, dealer=0, hands={1: "9C 9S KC 2D 3D"}, starter="5H", stock="9H")
    game.draw(1)
    assert game.refuse(several(1, "9H 9C")) == "only_drawn_card"


def test_a_call_is_due_for_the_cards_left_after_the_whole_play():
    game = Game(QUICK, seats=3, dealer=0, hands={1: "9H 9C 9S KC 2D"}, starter="5H")
    assert game.refuse(several(1, "9H 9C 9S", call=MAU)) == "call_not_due"
    (played,) = game.do(several(1, "9H 9C 9S"))
    assert isinstance(played, CardPlayed) and played.missed == 0


def test_legal_actions_list_the_plays_of_several_cards_on_a_playable_bottom():
    game = Game(QUICK, seats=3, dealer=0, hands={1: "9H 9C KC 2D 3D"}, starter="5H")
    actions = legal_actions(game.s, 1)
    assert several_action(cards("9H 9C")) in actions
    assert several_action(cards("9C 9H")) not in actions  # 9C does not match the top card
    assert play_action(parse_card("9H")) in actions and DRAW not in actions


def test_legal_actions_list_every_subset_top_and_suit_and_each_is_accepted():
    game = Game(QUICK, seats=3, dealer=0, hands={1: "JH JC JS KC 2D"}, starter="5H")
    plays = [action for action in legal_actions(game.s, 1) if action >= SEVERAL_PLAY]
    # each playable jack as the bottom (three), with 1 or 2 of the others, any on top, four suits
    assert len(plays) == 3 * (2 * 1 + 1 * 2) * 4
    for action in plays:
        command = command_for(1, action)
        assert isinstance(command, PlayCard) and command.more
        assert type(decide(game.s, command)[0]) is CardPlayed  # decide changes nothing


def test_an_action_of_several_cards_decodes_to_the_same_cards():
    action = several_action(cards("9H 9C 9S"), 2)
    assert several_cards(action) == (tuple(cards("9H 9C 9S")), 2)


def test_without_the_modifier_no_play_of_several_cards_is_listed():
    game = Game(ruleset("club"), seats=3, dealer=0, hands={1: "9H 9C KC 2D 3D"}, starter="5H")
    assert all(action < SEVERAL_PLAY for action in legal_actions(game.s, 1))


def test_the_modifier_combines_with_every_preset():
    for name in ("classic", "101", "prsi", "pesten", "haft-khabis", "puke", "russian", "neuner"):
        assert ruleset(name, quick=True).quick


def test_the_modifier_is_on_or_off():
    with pytest.raises(RuleError) as refused:
        ruleset("club", quick="yes")
    assert refused.value.code == "invalid_option"


# faraon: each card acts


def test_faraon_two_aces_skip_two_players():
    game = Game(FARAON, seats=4, dealer=0, hands={1: "AH AC 9C 10C KC"}, starter="9H")
    (played,) = game.do(several(1, "AH AC"))
    assert isinstance(played, CardPlayed) and (played.skipped, played.turn) == (2, 0)


def test_faraon_two_aces_between_two_players_give_the_turn_to_the_other():
    game = Game(FARAON, seats=2, dealer=0, hands={1: "AH AC 9C 10C KC"}, starter="9H")
    (played,) = game.do(several(1, "AH AC"))
    assert isinstance(played, CardPlayed) and played.turn == 0


def test_faraon_sevens_played_together_add_three_each():
    game = Game(FARAON, seats=3, dealer=0, hands={1: "7H 7C 7S 7D KC"}, starter="9H")
    (played,) = game.do(several(1, "7H 7C 7S 7D"))
    assert isinstance(played, CardPlayed) and played.debt == 12


def test_the_last_cards_played_together_end_the_round():
    rules = ruleset("club", quick=True, hand_size=2)
    game = Game(rules, seats=2, dealer=0, hands={1: "9H 9C"}, starter="5H")
    events = game.do(several(1, "9H 9C", call=MAU_MAU))
    assert isinstance(events[0], CardPlayed) and isinstance(events[1], RoundEnded)
    assert events[1].winner == 1


def test_cards_that_may_not_end_a_hand_may_not_be_the_last_ones_played_together():
    rules = ruleset("classic", quick=True, hand_size=2)
    game = Game(rules, seats=2, dealer=0, hands={1: "AH AC"}, starter="9H")
    assert game.refuse(several(1, "AH AC")) == "cannot_go_out"
    assert all(action < SEVERAL_PLAY for action in legal_actions(game.s, 1))


def test_a_rank_that_is_the_whole_hand_lists_no_play_ending_on_a_card_that_may_not_be_last():
    # the rulebook remembers a rank's plays by the cards held of it: the same two aces beside
    # another card, listed first, must not stand for the two aces alone
    rules = ruleset("classic", quick=True, hand_size=2)
    beside = Game(rules, seats=2, dealer=0, hands={1: "AH AC"}, starter="9H", stock="KD")
    beside.do(GivePenalty(1, 1))
    assert several_action(cards("AH AC")) in legal_actions(beside.s, 1)
    alone = Game(rules, seats=2, dealer=0, hands={1: "AH AC"}, starter="9H")
    assert all(action < SEVERAL_PLAY for action in legal_actions(alone.s, 1))


def test_going_out_on_jacks_played_together_doubles_as_going_out_on_a_jack():
    rules = ruleset("classic", quick=True, hand_size=2)
    game = Game(rules, seats=2, dealer=0, hands={0: "KC 10S", 1: "JH JC"}, starter="9H")
    events = game.do(several(1, "JH JC", suit=0, call=MAU_MAU))
    ended = events[-1]
    assert isinstance(ended, RoundEnded) and ended.points == (40, 0)


# bots


@pytest.mark.parametrize("bot", [RandomBot, HeuristicBot])
@pytest.mark.parametrize("rules", [QUICK, FARAON, ruleset("pesten", quick=True)], ids=lambda r: r.name)
def test_bots_play_whole_matches_with_several_cards_in_one_play(rules: Ruleset, bot: type):
    several_played = 0
    for seed in range(3):
        table = bot_match(rules, bot, seed)
        several_played += sum(1 for e in table.events if isinstance(e, CardPlayed) and e.more)
    assert several_played > 0


def test_the_heuristic_bot_lays_every_card_of_the_rank_it_plays():
    game = Game(QUICK, seats=3, dealer=0, hands={1: "9H 9C 9S 3D 4D"}, starter="5H")
    command = HeuristicBot(random.Random(0)).choose(game.s, 1)
    assert isinstance(command, PlayCard) and {command.card, *command.more} == set(cards("9H 9C 9S"))
    assert command.card == parse_card("9H")
