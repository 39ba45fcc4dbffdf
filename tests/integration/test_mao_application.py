"""Mao matches stored, on both stores: what is loaded back is what was decided, and an act decided
on a match that changed meanwhile is decided again from what is stored."""

import random

import pytest

from service.application import MauMau
from service.domain.errors import RuleError
from service.domain.mao.commands import DrawCard, EndPause, Say
from service.domain.mao.game import fold
from service.domain.mao.state import PLAY
from service.domain.roles import Actor


def server_judged(app: MauMau) -> tuple[str, str]:
    league = app.found_league("Mao night", "mao", {"hand_size": 4})
    ada, bo = app.register_player("Ada"), app.register_player("Bo")
    for player in (ada, bo):
        app.admit_member(league, player)
    game = app.create_mao_game(league, [str(ada), str(bo), "bot:learning"], "server", first_dealer=2)
    return str(game.id), str(ada)


def test_a_match_loaded_from_the_store_is_the_fold_of_every_fact_decided(app: MauMau):
    game_id, ada = server_judged(app)
    app.mao_do(game_id, lambda game, rng: Say(0, "hello"), Actor("player", ada))  # table talk: a penalty
    app.mao_do(game_id, lambda game, rng: DrawCard(0), Actor("player", ada))
    stored = app.get_mao_game(game_id)
    assert stored.state == fold(stored.facts)
    assert [type(f).__name__ for f in stored.facts][:3] == ["MatchStarted", "RuleWritten", "RoundDealt"]
    assert "Spoke" in [type(f).__name__ for f in stored.facts]
    assert stored.state.hands[0].bit_count() == 6  # 4 dealt, the penalty card, the card drawn
    assert stored.state.phase == PLAY and stored.state.turn == 1  # Bo's turn: no bot moves before a human


def test_an_act_that_meets_another_save_is_decided_again_on_the_stored_match(app: MauMau):
    game_id, ada = server_judged(app)
    tries: list[int] = []

    def talk(game, rng: random.Random) -> Say:
        tries.append(game.version)
        if len(tries) == 1:  # another process saves this match meanwhile
            other = app.get_mao_game(game_id)
            other.do(Say(1, "psst"), "player:other")
            app.save(other)
        return Say(0, "hello")

    game, events, _ = app.mao_do(game_id, talk, Actor("player", ada))
    assert tries == [tries[0], tries[0] + 1]  # decided a second time, on the match with Bo's words
    assert [type(e).__name__ for e in events][:2] == ["Spoke", "PenaltyGiven"]
    assert app.get_mao_game(game_id).version == game.version


def test_nothing_is_stored_when_the_decider_refuses(app: MauMau):
    game_id, ada = server_judged(app)
    before = app.get_mao_game(game_id).version
    with pytest.raises(RuleError) as refusal:
        app.mao_do(game_id, lambda game, rng: EndPause(0), Actor("player", ada))
    assert refusal.value.code == "not_paused"
    assert app.get_mao_game(game_id).version == before
