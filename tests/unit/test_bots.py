"""The bots: legal, seeded, calling and challenging as told, and the heuristic one plays well."""

import random

from service.domain.bots import HeuristicBot, RandomBot
from service.domain.cards import mask_of, parse_card, suit_of
from service.domain.commands import DrawCard, KeepCard, NameSuit, PlayCard
from service.domain.rulebook import MAU, NO_CALL
from service.domain.ruleset_options import ruleset
from service.domain.table import Table
from tests.unit.bot_match import played_out
from tests.unit.scenario import Game


def play_match(bots: list, seed: int) -> tuple[int, ...]:
    return played_out(Table(ruleset("club"), len(bots), seed), bots).state.winners


def test_the_heuristic_bot_wins_far_more_club_matches_than_random_bots():
    wins = [0.0] * 4
    for match in range(120):
        rng = random.Random(match)
        bots = [HeuristicBot(rng) if seat % 2 == 0 else RandomBot(rng) for seat in range(4)]
        winners = play_match(bots, match)
        for seat in winners:
            wins[seat] += 1 / len(winners)
    heuristic, random_ = wins[0] + wins[2], wins[1] + wins[3]
    assert heuristic > 2 * random_


def test_the_heuristic_bot_answers_a_debt_with_a_seven():
    game = Game(seats=3, dealer=0, hands={1: "7C 9D 3C 4S KH"}, starter="7H")
    assert HeuristicBot(random.Random(0)).choose(game.s, 1) == PlayCard(1, parse_card("7C"))


def test_the_heuristic_bot_draws_a_debt_it_cannot_answer():
    game = Game(seats=3, dealer=0, hands={1: "JC 9D 3C 4S KH"}, starter="7H")
    assert HeuristicBot(random.Random(0)).choose(game.s, 1) == DrawCard(1)


def test_the_heuristic_bot_keeps_its_seven_and_its_jack_while_it_has_an_ordinary_card():
    game = Game(seats=3, dealer=0, hands={1: "7H JD 9H 3C 4S"}, starter="5H")
    assert HeuristicBot(random.Random(0)).choose(game.s, 1) == PlayCard(1, parse_card("9H"))


def test_the_heuristic_bot_names_the_suit_it_holds_most_of_with_a_jack():
    game = Game(seats=3, dealer=0, hands={1: "JD 2S 3S 4S 6C"}, starter="5H")
    command = HeuristicBot(random.Random(0)).choose(game.s, 1)
    assert command == PlayCard(1, parse_card("JD"), suit_of(parse_card("2S")))


def test_the_heuristic_dealer_names_its_longest_suit_for_a_jack_starter():
    game = Game(seats=3, dealer=0, hands={0: "2D 3D 4D 6C 9S"}, starter="JH")
    assert HeuristicBot(random.Random(0)).choose(game.s, 0) == NameSuit(0, suit_of(parse_card("2D")))


def test_the_heuristic_dealer_holding_mostly_jokers_names_a_suit_it_holds():
    game = Game(seats=3, dealer=0, hands={0: "2D 3D 4D 6C 9S"}, starter="JH")
    # the engine deals no jokers yet: the hand is set as a pesten deal would leave it
    game.s.hands[0] = mask_of(parse_card(c) for c in ("X1", "X2", "X1.2", "6C.2", "9S"))
    assert HeuristicBot(random.Random(0)).choose(game.s, 0) == NameSuit(0, suit_of(parse_card("6C")))


def test_the_heuristic_bot_keeps_a_drawn_seven_when_the_next_player_is_not_close_to_out():
    game = Game(seats=3, dealer=0, hands={1: "2C 3C 4C 6C 9D"}, starter="5S", stock="7S")
    game.draw(1)
    assert HeuristicBot(random.Random(0)).choose(game.s, 1) == KeepCard(1)


def test_a_bot_that_never_forgets_says_the_call_due_and_one_that_always_forgets_never_does():
    game = Game(ruleset("club", hand_size=2), seats=3, dealer=0, hands={1: "9H 3C"}, starter="5H")
    careful = HeuristicBot(random.Random(0), forgetfulness=0.0).choose(game.s, 1)
    forgetful = HeuristicBot(random.Random(0), forgetfulness=1.0).choose(game.s, 1)
    assert careful == PlayCard(1, parse_card("9H"), -1, MAU)
    assert forgetful == PlayCard(1, parse_card("9H"), -1, NO_CALL)


def test_vigilance_is_the_chance_to_challenge():
    never, always = RandomBot(random.Random(0), vigilance=0.0), RandomBot(random.Random(0), vigilance=1.0)
    game = Game(seats=3, dealer=0)
    assert not any(never.challenges(game.s, 2) for _ in range(50))
    assert all(always.challenges(game.s, 2) for _ in range(50))


def test_the_same_seed_gives_the_same_random_bot_match():
    def winners(seed: int) -> tuple[int, ...]:
        rng = random.Random(seed)
        return play_match([RandomBot(rng, 0.2, 0.5) for _ in range(3)], seed)

    assert winners(11) == winners(11)
