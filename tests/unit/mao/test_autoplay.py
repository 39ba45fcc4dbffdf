"""The server's part at a stored Mao table: bots take their turns, the stock is recycled, and no
bot is on turn where a human, the judge or the next deal is awaited."""

import random
import uuid

import pytest

from service.domain.cards import FULL_DECK
from service.domain.errors import RuleError
from service.domain.mao.aggregate import MaoGame
from service.domain.mao.autoplay import bot_to_move, bot_turn, settle_chance
from service.domain.mao.commands import SERVER, DealRound, DrawCard, StartMatch
from service.domain.mao.events import CardDrawn, CardPlayed, PlayReturned, StockRecycled
from service.domain.mao.state import DEAL, PLAY, RECYCLE

HUMAN = "3f1c6c9e-8f7a-4d52-9a53-3e1b1c0b6a77"


def dealt(seed: int, hand_size: int = 5) -> MaoGame:
    """A match of a human (seat 0) and two bots; seat 1, a bot, is first to play."""
    game = MaoGame.start(uuid.uuid4(), (HUMAN, "bot:learning", "bot:random"), SERVER)
    game.do(StartMatch(3, first_dealer=0, hand_size=hand_size), "server")
    deck = list(FULL_DECK)
    random.Random(seed).shuffle(deck)
    game.do(DealRound(tuple(deck)), "server")
    return game


def settle(game: MaoGame, rng: random.Random) -> None:
    """What the workers do after a save: bots' turns, one after the other, while one is on turn."""
    settle_chance(game, rng)
    while bot_to_move(game) is not None:
        bot_turn(game, rng)


def acted(game: MaoGame, seat: int) -> bool:
    return any(isinstance(f, CardPlayed | PlayReturned | CardDrawn) and f.seat == seat for f in game.facts)


@pytest.mark.parametrize("seed", range(6))
def test_the_bots_move_until_the_human_is_on_turn_or_the_round_is_over(seed):
    game = dealt(seed)
    rng = random.Random(seed)
    settle(game, rng)
    for _ in range(300):
        s = game.state
        assert s.phase != RECYCLE
        if s.phase != PLAY:
            break
        assert s.turn == 0  # settle never leaves a bot on turn
        game.do(DrawCard(0), f"player:{HUMAN}")  # the human only ever draws
        settle(game, rng)
    assert game.state.phase == DEAL  # a bot went out: the judge deals next
    assert acted(game, 1) and acted(game, 2)


def test_a_human_who_only_draws_makes_the_server_recycle_the_stock():
    # big hands and a human who never plays: the stock runs out before a bot goes out
    found = False
    for seed in range(20):
        game = dealt(seed, hand_size=8)
        rng = random.Random(seed)
        settle(game, rng)
        while game.state.phase == PLAY:
            game.do(DrawCard(0), f"player:{HUMAN}")
            settle(game, rng)
        if any(isinstance(fact, StockRecycled) for fact in game.facts):
            found = True
            break
    assert found


def test_no_bot_is_on_turn_before_the_human_judges_deal_and_a_bot_turn_then_is_refused():
    game = MaoGame.start(uuid.uuid4(), ("bot:learning", "bot:random", "bot:learning"), "referee")
    game.do(StartMatch(3, first_dealer=0, judge="referee"), "server")
    assert bot_to_move(game) is None
    with pytest.raises(RuleError) as refused:
        bot_turn(game, random.Random(0))
    assert refused.value.code == "not_your_turn"


def test_a_bots_turn_is_stored_as_a_request_of_its_own_and_a_recycle_as_the_servers():
    game = dealt(1)
    game.collect_events()
    bot_turn(game, random.Random(1))
    stored = game.collect_events()
    assert stored and {event.by for event in stored} <= {"bot", "server"} and stored[0].by == "bot"
    assert all(MaoGame.begins_request(event) == (event.by == "bot") for event in stored)
    assert bot_to_move(game) == 2  # the turn passed to the next bot: it is the next step's
