"""A tournament's games are games of its league: they count in its standings and its referees rule on them.

A league game plays the league's ruleset and options; only the match length
(``target_score``, ``single_round``) may be set on top, as a tournament's plan does.
"""

import pytest

from service.application import MauMau
from service.domain.adjudication import Resume
from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.domain.tournament_plan import Plan
from tests.integration.tables import players


def test_a_league_game_may_set_its_match_length_and_keeps_the_leagues_other_options(app: MauMau):
    league = app.found_league("Hand of six", "club", {"hand_size": 6, "target_score": 80})
    ann, bob = players(app, 2)
    app.admit_member(league, ann)
    app.admit_member(league, bob)
    short = app.get_game(
        app.create_game([ann, bob], league_id=league, options={"single_round": True}).game_id
    )
    assert short.ruleset.single_round and short.ruleset.hand_size == 6 and short.ruleset.target_score == 80
    longer = app.get_game(app.create_game([ann, bob], league_id=league, options={"target_score": 30}).game_id)
    assert longer.ruleset.target_score == 30 and longer.ruleset.hand_size == 6
    assert not longer.ruleset.single_round


def test_a_league_game_that_sets_anything_but_the_match_length_is_refused_and_nothing_is_stored(app: MauMau):
    league = app.found_league("Strict")
    ann, bob = players(app, 2)
    app.admit_member(league, ann)
    app.admit_member(league, bob)
    position = app.recorder.max_notification_id()
    for options in ({"hand_size": 7}, {"single_round": True, "call_penalty": 3}):
        with pytest.raises(RuleError) as refused:
            app.create_game([ann, bob], league_id=league, options=options)
        assert refused.value.code == "invalid_option"
    with pytest.raises(RuleError) as refused:
        app.create_game([ann, bob], league_id=league, options={"target_score": 0})
    assert refused.value.code == "invalid_option"
    assert app.recorder.max_notification_id() == position


def test_a_tournaments_games_are_its_leagues_and_only_the_leagues_referees_rule_on_them(app: MauMau):
    league = app.found_league("Refereed", "club", {"hand_size": 6})
    app.appoint_referee(league, "rita")
    (ann,) = players(app, 1)
    app.admit_member(league, ann)
    tournament_id = app.create_tournament(
        league, "Cup", Plan(format="swiss", table_size=3, rounds=1, target_score=20, places=3)
    )
    app.join_tournament(tournament_id, ann)
    app.start_tournament(tournament_id, seed="refs")
    (game_id,) = app.start_round(tournament_id, 1)
    game = app.get_game(game_id)
    assert game.league_id == league
    assert game.ruleset == app.get_tournament(tournament_id).rules
    assert game.ruleset.target_score == 20 and game.ruleset.hand_size == 6
    assert app.tournament_of(game) == tournament_id

    app.raise_dispute(game_id, by=Actor("player", str(ann)), reason="a card fell on the floor")
    version = app.get_game(game_id).version
    with pytest.raises(RuleError) as refused:
        app.give_ruling(game_id, Resume(), by=Actor("referee", "someone else"))
    assert refused.value.code == "not_allowed"
    assert app.get_game(game_id).version == version
    app.give_ruling(game_id, Resume(), by=Actor("referee", "rita"))
    assert not app.get_game(game_id).paused


def test_a_game_not_created_for_a_tournament_table_belongs_to_no_tournament(app: MauMau):
    game = app.get_game(app.create_game(["bot:random", "bot:random"], key="tournament-like key").game_id)
    assert app.tournament_of(game) is None
