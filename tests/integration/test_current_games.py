"""A game's own reads folded from the event store at the read, and each actor's last write remembered."""

import random
import uuid
from collections.abc import Iterator

import msgspec
import pytest

from service.application import MauMau
from service.domain.cards import format_cards
from service.domain.errors import RuleError
from service.projections.current import CurrentGames
from service.projections.reader import ReadModels
from service.settings import Settings
from tests.gameplay import SAME_ENTROPY, next_command
from tests.integration.projecting import catch_up
from tests.integration.tables import players


@pytest.fixture
def reading(fresh_settings: Settings) -> Iterator[tuple[MauMau, CurrentGames, ReadModels]]:
    """A writer, and another process's current games and read models (no runner runs meanwhile)."""
    # the writer deals the same every run: a shuffle could end a game within a test's moves
    writer = MauMau(fresh_settings, entropy=lambda: SAME_ENTROPY)
    other, reader = MauMau(fresh_settings), ReadModels(fresh_settings)
    yield writer, CurrentGames(other, reader.views), reader
    reader.close()
    other.close()
    writer.close()


def test_a_game_another_process_just_created_and_moved_in_is_read_at_its_version_before_the_runner_ran(
    reading,
):
    writer, current, reader = reading
    rng = random.Random(16)
    created = writer.create_game(players(writer, 3), seed="current")
    assert reader.table(created.game_id) is None  # the read models have not seen it
    assert current.table(created.game_id).version == created.version
    for _ in range(15):
        outcome = writer.execute(created.game_id, next_command(writer.get_game(created.game_id).state, rng))
        state = writer.get_game(created.game_id).state
        for seat in range(3):
            hand = current.hand(created.game_id, seat)
            assert hand.table.version == outcome.version
            assert sorted(hand.cards) == sorted(format_cards(state.hands[seat]))
            assert hand.position >= outcome.position
        assert current.totals(created.game_id).totals == (list(state.totals) or [0, 0, 0])


def test_a_current_read_answers_what_the_read_models_answer_once_they_caught_up(reading, fresh_settings):
    writer, current, reader = reading
    rng = random.Random(7)
    game_id = writer.create_game(players(writer, 2), seed="alike").game_id
    current.table(game_id)  # folded here from the first event, then brought up to date below
    for _ in range(40):
        writer.execute(game_id, next_command(writer.get_game(game_id).state, rng))
    catch_up(fresh_settings)
    # a fold of another process restores the runner's image; both must render what the runner did
    restored = CurrentGames(current.app, reader.views)
    for reads in (current, restored):
        for seat in range(2):
            live, stored = reads.hand(game_id, seat), reader.hand(game_id, seat)
            assert stored is not None
            assert msgspec.structs.replace(live, position=0, table=None) == msgspec.structs.replace(  # type: ignore[arg-type]
                stored, position=0, table=None
            )
            assert msgspec.structs.replace(live.table, position=0) == msgspec.structs.replace(
                stored.table, position=0
            )
        totals, stored_totals = reads.totals(game_id), reader.totals(game_id)
        assert stored_totals is not None
        assert msgspec.structs.replace(totals, position=0) == msgspec.structs.replace(
            stored_totals, position=0
        )


def test_an_id_that_is_no_game_is_game_not_found(reading):
    writer, current, _ = reading
    (player_id,) = players(writer, 1)
    for game_id in (uuid.uuid4(), player_id):
        with pytest.raises(RuleError) as refused:
            current.table(game_id)
        assert refused.value.code == "game_not_found"


def test_an_actor_s_last_write_is_remembered_and_an_earlier_one_does_not_replace_it(reading):
    _, _, reader = reading
    assert reader.views.last_writes.of("player:ada") == 0
    reader.views.last_writes.note("player:ada", 40)
    reader.views.last_writes.note("player:ada", 12)  # a slower request of the same actor, answered later
    reader.views.last_writes.note("player:bob", 7)
    assert reader.views.last_writes.of("player:ada") == 40
    assert reader.views.last_writes.of("player:bob") == 7
