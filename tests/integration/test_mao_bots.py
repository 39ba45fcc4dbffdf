"""A Mao match's bots take their turns in the workers' step (``advance_game``), as a card game's
do: one turn an act of its own, until a person, the judge or nobody is to act; the read models
list a match a bot is to move in, for the tick's look for those that waited too long."""

import time
from uuid import UUID

import pytest

from service.application import MauMau
from service.domain.errors import RuleError
from service.domain.mao.aggregate import MaoGame
from service.domain.mao.autoplay import bot_to_move
from service.domain.mao.commands import DrawCard
from service.domain.mao.state import PLAY
from service.domain.roles import Actor
from service.projections.reader import ReadModels
from service.settings import Settings
from tests.integration.projecting import catch_up
from workers.conduct import Conductor
from workers.inline import Inline

pytestmark = pytest.mark.own_store  # the read models read the whole log: a store of the test's own


def match_of(app: MauMau, seats_after_ada: list[str], first_dealer: int) -> tuple[UUID, str]:
    """A server-judged match of Ada (seat 0) and these seats: its id and Ada's."""
    league = app.found_league("Mao night", "mao", {"hand_size": 4})
    ada = app.register_player("Ada")
    app.admit_member(league, ada)
    game = app.create_mao_game(league, [str(ada), *seats_after_ada], "server", first_dealer=first_dealer)
    return game.id, str(ada)


def bot_decisions(app: MauMau, game_id: UUID, after: int) -> list[MaoGame.Decided]:
    return [e for e in app.events.get(game_id, gt=after) if isinstance(e, MaoGame.Decided) and e.by == "bot"]


def test_the_step_plays_the_bots_turns_until_the_person_is_on_turn(app: MauMau):
    game_id, ada = match_of(app, ["bot:learning", "bot:random"], first_dealer=0)  # seat 1 leads
    created = app.get_mao_game(game_id)
    assert bot_to_move(created) == 1  # the match's start made no bot move
    for _ in range(20):
        Conductor(app, Inline()).advance_game(game_id)
        match = app.get_mao_game(game_id)
        if match.state.phase != PLAY:
            break  # a bot went out: the server deals next
        assert match.state.turn == 0 and bot_to_move(match) is None
        app.mao_do(game_id, lambda game, rng: DrawCard(0), Actor("player", ada))
    decided = bot_decisions(app, game_id, created.version)
    assert {e.facts[0].seat for e in decided} == {1, 2}  # type: ignore[attr-defined]


def test_with_a_think_delay_each_step_plays_one_turn_and_queues_the_next(app: MauMau):
    game_id, _ = match_of(app, ["bot:random", "bot:random"], first_dealer=0)
    inline = Inline()
    version = app.get_mao_game(game_id).version
    Conductor(app, inline, think=0.5).advance_game(game_id)
    # seat 1's turn alone: its play or draw, and the calls a play made due
    assert {e.facts[0].seat for e in bot_decisions(app, game_id, version)} == {1}  # type: ignore[attr-defined]
    assert [(due, name, args) for due, _, name, args in inline.queue] == [(0.5, "advance_game", (game_id,))]


def test_a_bot_turn_decided_on_a_version_that_moved_on_is_stale_and_the_step_then_does_nothing(app: MauMau):
    game_id, _ = match_of(app, ["bot:random", "bot:random"], first_dealer=0)
    version = app.get_mao_game(game_id).version
    Conductor(app, Inline()).advance_game(game_id)  # both bots took their turns
    with pytest.raises(RuleError) as refused:
        app.mao_bot_turn(game_id, expected_version=version)
    assert refused.value.code == "stale_version"
    with pytest.raises(RuleError) as refused:
        app.mao_bot_turn(game_id, expected_version=app.get_mao_game(game_id).version)
    assert refused.value.code == "not_your_turn"  # Ada's turn
    before = app.get_mao_game(game_id).version
    Conductor(app, Inline()).advance_game(game_id)  # a step delivered twice
    assert app.get_mao_game(game_id).version == before


def stalled(settings: Settings) -> list[UUID]:
    catch_up(settings)
    reader = ReadModels(settings)
    try:
        return reader.stalled_bot_turns(time.time() + 1)
    finally:
        reader.close()


def test_a_match_a_bot_is_to_move_in_is_listed_as_stalled_until_the_bot_moved(app, settings):
    waiting, _ = match_of(app, ["bot:random", "bot:random"], first_dealer=0)  # a bot leads
    human, _ = match_of(app, ["bot:random", "bot:random"], first_dealer=2)  # Ada leads
    assert stalled(settings) == [waiting]
    Conductor(app, Inline()).advance_game(waiting)
    assert stalled(settings) == []  # Ada's turn now, as in the other match all along
    assert app.get_mao_game(human).state.turn == 0
