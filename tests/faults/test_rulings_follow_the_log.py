"""Disputes and rulings where the read models have already settled: on finished games, on games of a
tournament, and on the last move of a match. After each ruling (resume, penalty, void) the projection
runner, running as in production, reaches the log's head within a bounded wait, and every read model
(the public table, the hands, the totals, the standings, the players' histories, the bracket) equals the
recomputation from the events.

A runner that cannot apply a ruling and retries it for ever (issue 13, defect 1) fails here with the
position it is stuck at, instead of leaving ``/ready`` to say ready over stale read models.
"""

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from uuid import UUID

import pytest

from service.application import MauMau
from service.domain.adjudication import Penalty, Resume, Ruling, Void
from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.domain.tournament_plan import Plan
from service.projections.reader import ReadModels
from service.projections.runner import Running, start_projections
from service.settings import Settings
from tests.integration.tables import play_out, players
from tests.integration.test_projections import assert_read_models_match
from tests.integration.test_projections_tournaments import assert_tournaments_match
from workers.conduct import Conductor
from workers.inline import Inline

pytestmark = pytest.mark.own_store  # the runner reads the whole log: a store of the test's own

OFFICIAL = Actor("admin", "club-secretary")
CATCH_UP = 20.0  # seconds the runner has to apply a ruling


@dataclass
class Games:
    """What ``assert_read_models_match`` recomputes: the players, the leagues and the games made."""

    players: list[UUID]
    leagues: dict[UUID, str]
    games: list[UUID] = field(default_factory=list)


@pytest.fixture
def following(settings: Settings, app: MauMau) -> Iterator[tuple[ReadModels, Running]]:
    """The read models and a runner keeping them, as in the API process (on ``app``'s store)."""
    reader = ReadModels(settings)
    running = start_projections(settings)
    yield reader, running
    running.stop()
    reader.close()


def caught_up(app: MauMau, reader: ReadModels, after: str) -> None:
    head = app.recorder.max_notification_id() or 0
    deadline = time.monotonic() + CATCH_UP
    reached = reader.wait_for(head, timeout=CATCH_UP)
    # the position the checks read (``reader.position()``) is the watch's, told a moment after the
    # database's that ``wait_for`` may have read while the watch was only starting to listen
    while reached >= head and reader.position() < head and time.monotonic() < deadline:
        time.sleep(0.01)
    assert reached >= head and reader.position() >= head, (
        f"after {after} the projection runner is stuck at event {min(reached, reader.position())} of "
        f"{head} (not applied in {CATCH_UP:.0f} s)"
    )


def last_card_played(app: MauMau, game_id: UUID) -> int:
    """The number of the match's last move: the card that ended it (its round's end, the match's end
    and the deck's reveal follow it as events of their own)."""
    return max(e.originator_version for e in app.game_events(game_id) if type(e).__name__ == "CardPlayed")


def rule(app: MauMau, game_id: UUID, ruling: Ruling) -> int:
    """A dispute and this ruling on it; the game's version after."""
    app.raise_dispute(game_id, reason="the score sheet is wrong", by=OFFICIAL)
    try:
        return app.give_ruling(game_id, ruling, note="ruled", by=OFFICIAL).version
    except RuleError as refused:
        # a penalty has no round to be drawn in once the match is over: the dispute stays open, the
        # official resumes instead, and that ruling on a finished game is still to be followed
        assert isinstance(ruling, Penalty) and refused.code == "invalid_ruling", refused
        return app.give_ruling(game_id, Resume(), by=OFFICIAL).version


def test_every_ruling_on_finished_league_games_and_on_a_matchs_last_move_is_followed_by_the_read_models(
    app, following
):
    reader, _ = following
    ids = players(app, 3)
    league = app.found_league("Friday club", "club")
    for player in ids:
        app.admit_member(league, player)
    club = Games(players=ids, leagues={league: "club"})
    rng = random.Random(13)
    for number in range(5):
        seats: list[str | UUID] = [*rng.sample(ids, 2), "bot:random"]
        game_id = app.create_game(
            seats, league_id=league, options={"single_round": True}, seed=number
        ).game_id
        play_out(app, game_id, seed=number)
        club.games.append(game_id)
    caught_up(app, reader, "the games were played")
    assert_read_models_match(app, club, reader)

    resumed, penalised, last_voided, deep_voided, twice = club.games
    last_move = {game_id: last_card_played(app, game_id) for game_id in club.games}
    rulings: list[tuple[UUID, Ruling]] = [
        (resumed, Resume()),
        (penalised, Penalty(0, 2)),
        (last_voided, Void(last_move[last_voided])),  # the move that ended the match: it is open again
        (deep_voided, Void(last_move[deep_voided] - 6)),
        (twice, Resume()),
        (twice, Void(last_move[twice])),  # a second ruling on the same finished game
    ]
    for game_id, ruling in rulings:
        version = rule(app, game_id, ruling)
        caught_up(app, reader, f"{ruling} on game {game_id}")
        table = reader.table(game_id)
        assert table is not None and table.version == version, (ruling, table)
        assert_read_models_match(app, club, reader)
    for game_id in (last_voided, deep_voided, twice):
        assert not app.get_game(game_id).over
        play_out(app, game_id, seed=99)  # the reopened matches end again
    caught_up(app, reader, "the reopened matches were played out")
    assert_read_models_match(app, club, reader)
    assert reader.standings(league).rows


def test_rulings_on_a_tournaments_games_are_followed_by_the_bracket_and_the_tables(app, following):
    reader, _ = following
    league = app.found_league("Cup club", "club")
    plan = Plan(format="swiss", table_size=2, rounds=2, single_round=True, places=4)
    tournament_id = app.create_tournament(league, "Ruled cup", plan)
    inline = Inline()
    conductor = Conductor(app, inline)
    app.start_tournament(tournament_id, seed="ruled")
    conductor.conduct_tournament(tournament_id)
    inline.run(conductor)
    tournament = app.get_tournament(tournament_id)
    assert tournament.finished
    first_round, last_round = tournament.rounds[0], tournament.rounds[-1]
    caught_up(app, reader, "the tournament was played")
    assert_tournaments_match(app, reader, [tournament_id])

    final = last_round.games[0]
    rulings: list[tuple[UUID, Ruling]] = [
        (first_round.games[0], Resume()),
        (first_round.games[1], Penalty(1, 1)),
        (final, Void(last_card_played(app, final))),  # the last move of the tournament's last match
    ]
    for game_id, ruling in rulings:
        version = rule(app, game_id, ruling)
        caught_up(app, reader, f"{ruling} on tournament game {game_id}")
        table = reader.table(game_id)
        assert table is not None and table.version == version, (ruling, table)
        assert_tournaments_match(app, reader, [tournament_id])
    # the reopened final is played out again; its table follows it to its new end (whether the
    # tournament takes a second, different result is the Tournament's rule, not the read models')
    play_out(app, final, seed=8)
    assert app.get_game(final).over
    caught_up(app, reader, "the reopened final was played out")
    assert_tournaments_match(app, reader, [tournament_id])
    assert reader.table(final).version == app.get_game(final).version
