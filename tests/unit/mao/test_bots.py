"""The Mao bots: the random bot plays only matching cards; the learning bot finds the teaching rule."""

import random

from service.domain.cards import parse_card
from service.domain.mao.bots import RandomBot
from service.domain.mao.commands import DrawCard, PlayCard, StartMatch
from service.domain.mao.learning import Hypotheses, LearningBot, candidate_rules, same_behaviour
from service.domain.mao.rule import TEACHING_RULE, parse_rule
from service.domain.mao.table import Table
from service.domain.mao.views import player_view
from tests.unit.mao.scene import Scene


def test_the_candidates_are_the_720_one_clause_one_value_rules_and_hold_the_teaching_rule():
    candidates = candidate_rules()
    assert len(candidates) == len(set(candidates)) == 720
    assert TEACHING_RULE in candidates


def test_rules_that_differ_in_text_can_behave_the_same():
    assert same_behaviour(TEACHING_RULE, parse_rule("after Q: next not diamonds hearts"))
    assert not same_behaviour(TEACHING_RULE, parse_rule("after Q: next spades"))
    assert not same_behaviour(TEACHING_RULE, parse_rule("after draw: next black"))


def test_a_returned_play_with_wrong_colour_keeps_only_colour_rules_in_force_that_forbid_the_card():
    hypotheses = Hypotheses()
    hypotheses.dealt()
    hypotheses.played(parse_card("QH"))
    hypotheses.returned(parse_card("9H"), "wrong_colour")
    survivors = {rule.plays[0].constraint.kind for rule in hypotheses.rules}
    assert survivors == {"colour"}
    assert TEACHING_RULE in hypotheses.rules
    assert all(rule.plays[0].constraint.values == (1,) for rule in hypotheses.rules)


def test_an_accepted_play_drops_every_candidate_that_would_have_forbidden_it():
    hypotheses = Hypotheses()
    hypotheses.dealt()
    hypotheses.played(parse_card("QH"))
    hypotheses.played(parse_card("9H"))  # red after a queen, accepted
    assert TEACHING_RULE not in hypotheses.rules
    assert parse_rule("after Q: next not 9") not in hypotheses.rules


def test_a_returned_play_that_does_not_match_tells_nothing():
    hypotheses = Hypotheses()
    hypotheses.returned(parse_card("9H"), "no_match")
    assert len(hypotheses.rules) == 720


def test_the_random_bot_plays_a_matching_card_or_draws():
    scene = Scene()
    scene.deal({0: "5H 2C 3C 4C 6C", 1: "2D 3D 4D 6D 7D"}, starter="9H")
    bot = RandomBot(random.Random(1))
    assert bot.choose(player_view(scene.state, 0)) == PlayCard(0, parse_card("5H"))
    scene.do(DrawCard(0))
    assert bot.choose(player_view(scene.state, 1)) == DrawCard(1)


def test_the_learning_bot_draws_rather_than_play_a_card_every_survivor_forbids():
    scene = Scene()
    scene.deal({0: "QH 2C 3C 4C 6C", 1: "9H 2D 3D 4D 6D"}, starter="5H")
    bot = LearningBot(random.Random(1))
    bot.hypotheses = Hypotheses((TEACHING_RULE,))
    bot.hypotheses.dealt()
    scene.do(PlayCard(0, parse_card("QH")))
    bot.hypotheses.played(parse_card("QH"))
    assert bot.choose(player_view(scene.state, 1)) == DrawCard(1)


def test_learning_bots_learn_the_teaching_rule_from_the_public_log_of_a_bot_match():
    rng = random.Random(7)
    bots = [LearningBot(rng) for _ in range(4)]
    table = Table(bots, rng, StartMatch(4, 0))
    table.play()
    assert all(bot.hypotheses.knows(TEACHING_RULE) for bot in bots)
