"""A void never leaves a hidden card foretold by public data (issue 13, item 2).

Bot games are voided at many points, across round ends (into rounds whose
shuffles were revealed) and within the round being played; after each ruling,
and after the play that follows it, no revealed deck order and no public log
entry holds the current stock as a run, in either direction.
"""

import random
from uuid import UUID

from service.application import MauMau
from service.domain.adjudication import Void
from service.domain.game import Game
from service.domain.history import FIRST_VOIDABLE
from service.domain.state import OVER
from tests.gameplay import next_command
from tests.integration.tables import REFEREE
from tests.secrecy import foretold_stock


def play(app: MauMau, game_id: UUID, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        game = app.get_game(game_id)
        if game.over:
            return
        app.execute(game_id, next_command(game.state, rng), expected_version=game.version)


def round_ends(app: MauMau, game_id: UUID) -> list[int]:
    return [
        event.originator_version for event in app.game_events(game_id) if isinstance(event, Game.DeckRevealed)
    ]


def test_no_void_leaves_the_stock_a_run_of_a_revealed_order_or_of_a_public_entry(app):
    reopened = 0  # voids into a round whose shuffles were revealed: the case at stake
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        game_id = app.create_game(
            ["bot:random"] * 3, seed=f"void {seed}", options={"target_score": 400}
        ).game_id
        # two rounds over and revealed before the first void
        while len(round_ends(app, game_id)) < 2:
            play(app, game_id, rng, 10)
        for _ in range(12):
            if app.get_game(game_id).state.phase == OVER:
                break
            raised_at = app.raise_dispute(game_id, by=REFEREE).version
            ends = [number for number in round_ends(app, game_id) if number > FIRST_VOIDABLE + 1]
            if ends and rng.random() < 0.7:
                # just before a round's end, or anywhere in the rounds before it
                end = rng.choice(ends)
                from_event = rng.choice([end - 2, end - 3, rng.randrange(FIRST_VOIDABLE, end - 1)])
            else:
                from_event = rng.randrange(max(FIRST_VOIDABLE, raised_at - 15), raised_at)
            before = app.get_game(game_id)
            app.give_ruling(game_id, Void(from_event), by=REFEREE)
            reopened += any(
                shuffle not in before.unrevealed
                for shuffle in app.game_at(game_id, from_event - 1).unrevealed
            )
            assert foretold_stock(app, game_id) == [], f"seed {seed}, void from {from_event}"
            play(app, game_id, rng, rng.randrange(5, 40))
            assert foretold_stock(app, game_id) == [], f"seed {seed}, play after the void from {from_event}"
        # every shuffle, reshuffles included, is committed and verifies once its round is revealed
        assert all(shuffle.verified is not False for shuffle in app.shuffles(game_id))
    assert reopened >= 10  # the sweep did reach back into revealed rounds, many times
