"""The registry of tournament formats: every registered format plays a tournament of bots to its end
through the aggregate, and a format registered here, in a test, is played without touching the aggregate.
"""

import itertools
import random
import typing
import uuid
from collections import Counter
from collections.abc import Sequence

import pytest

from service.domain.bots import BOTS
from service.domain.errors import RuleError
from service.domain.formats import FORMATS, MAX_ROUNDS, Draw, PairedRound
from service.domain.pairing import Pairing, Placing, pair_round_robin
from service.domain.table import Table
from service.domain.tournament import BOT_ENTRANT, Plan, Tournament
from service.projections.tournaments import tournament_view
from service.usecases.queries.crosstables import crosstable
from service.usecases.tournaments import TournamentCreate
from tests.unit.bot_match import played_out
from tests.unit.test_tournament_lifecycle import rebuilt

LEAGUE = uuid.UUID(int=1)
PLACES = 7  # at tables of three: 3 + 2 + 2 in round 1, and a single elimination has byes later


class OneRound:
    """A format only this test knows: one round at tables in the seed order, the best placed wins,
    nobody drops out."""

    name = "one_round"
    eliminates = False

    def check_rounds(self, rounds: int | None) -> None:
        if rounds not in (None, 1):
            raise RuleError("invalid_rounds", why="between_rounds", max_rounds=1)

    def rounds_to_play(self, rounds: int | None, entrants: int, table_size: int) -> int:
        return 1

    def check_drop(self) -> None:
        raise RuleError("cannot_drop")

    def pair(self, draw: Draw) -> Pairing:
        return pair_round_robin(draw.seeded, draw.ranked, draw.history, draw.table_size, draw.salt)

    def knocked_out(
        self, tables: Sequence[Sequence[str]], winners: Sequence[tuple[int, ...]]
    ) -> tuple[str, ...]:
        return ()

    def over(self, rounds: Sequence[PairedRound], planned: int, alive: int) -> bool:
        return len(rounds) >= planned

    def winners(self, placings: Sequence[Placing]) -> tuple[str, ...]:
        return (placings[0].entrant,)


@pytest.fixture
def one_round(monkeypatch: pytest.MonkeyPatch) -> OneRound:
    unit = OneRound()
    monkeypatch.setitem(FORMATS, unit.name, unit)
    return unit


def announced(name: str) -> Tournament:
    """A tournament of ``name`` whose places are all left to bots, one round a match; as few rounds
    planned as the format takes: none, else two."""
    for rounds in (None, 2):
        plan = Plan(format=name, table_size=3, rounds=rounds, places=PLACES, single_round=True)
        try:
            return Tournament.announce(LEAGUE, "Bots' cup", "club", {}, plan)
        except RuleError as error:
            if error.code != "invalid_rounds":
                raise
    raise AssertionError(f"{name} takes neither no rounds nor two")


def play_to_the_end(tournament: Tournament) -> None:
    """Start it and play every table's match with the seats' bots on an engine table, recording each
    game's result, until the tournament finishes."""
    tournament.start("formats")
    while not tournament.finished:
        current = tournament.current_round
        assert current is not None and current.round_no <= MAX_ROUNDS
        for table, entrants in enumerate(current.tables):
            game = uuid.uuid4()
            tournament.attach_game(current.round_no, table, game)
            rng = random.Random(f"{current.round_no}:{table}")
            seats = [tournament.game_seat(entrant) for entrant in entrants]
            bots = [BOTS[seat.removeprefix(BOT_ENTRANT)](rng, forgetfulness=0.1) for seat in seats]
            played = played_out(Table(tournament.rules, len(seats), rng.getrandbits(64)), bots).state
            tournament.record_result(
                game, tuple(played.totals), played.winners, out_round=tuple(played.out_round)
            )


def assert_played_fairly(tournament: Tournament) -> None:
    """Each round seats every entrant still in once (at a table or a bye); the ranking lists everyone
    and the winners are among them; folding the events again comes to the same."""
    out: set[str] = set()
    for played in tournament.rounds:
        seated = [entrant for table in played.tables for entrant in table] + list(played.byes)
        assert sorted(seated) == sorted(entrant for entrant in tournament.order if entrant not in out)
        out.update(played.out)
    assert sorted(tournament.ranking) == sorted(tournament.order)
    assert tournament.winners and set(tournament.winners) <= set(tournament.order)
    again = rebuilt(tournament)
    assert (again.ranking, again.winners) == (tournament.ranking, tournament.winners)


@pytest.mark.parametrize("name", list(FORMATS))
def test_every_registered_format_plays_a_tournament_of_bots_to_its_end(name):
    tournament = announced(name)
    play_to_the_end(tournament)
    assert len(tournament.order) == PLACES
    assert_played_fairly(tournament)
    assert tournament_view(tournament).status == "finished"


def test_a_format_registered_in_a_test_is_announced_played_and_drawn_without_touching_the_aggregate(
    one_round,
):
    tournament = announced("one_round")
    assert tournament.plan.rounds is None
    play_to_the_end(tournament)
    assert len(tournament.rounds) == 1
    assert tournament.winners == (tournament.ranking[0],)
    assert_played_fairly(tournament)
    view = tournament_view(tournament)
    assert (view.format, view.planned_rounds, view.status) == ("one_round", 1, "finished")


def test_a_registered_formats_own_refusals_are_the_tournaments(one_round):
    with pytest.raises(RuleError) as error:
        Tournament.announce(LEAGUE, "Long", "club", {}, Plan(format="one_round", table_size=3, rounds=3))
    assert (error.value.code, error.value.message) == ("invalid_rounds", "between 1 and 1 rounds")
    tournament = Tournament.announce(LEAGUE, "Short", "club", {}, Plan(format="one_round", table_size=3))
    for n in range(4):
        tournament.join(f"p{n}")
    tournament.start("formats")
    with pytest.raises(RuleError) as error:
        tournament.drop("p0")
    assert error.value.code == "cannot_drop"


def test_a_format_not_registered_is_refused_with_every_registered_name():
    with pytest.raises(RuleError) as error:
        Tournament.announce(LEAGUE, "Cup", "club", {}, Plan(format="one_round", table_size=3))
    assert error.value.code == "invalid_format"
    assert error.value.message == (
        "the format is one of round_robin, double_round_robin, swiss, single_elimination"
    )


def test_the_formats_the_api_takes_are_the_registered_ones_in_their_order():
    annotated = typing.get_type_hints(TournamentCreate, include_extras=True)["format"]
    literal = typing.get_args(annotated)[0]
    assert typing.get_args(literal) == tuple(FORMATS)


def test_a_double_round_robin_takes_no_rounds_and_plays_every_pair_twice_the_seats_swapped():
    with pytest.raises(RuleError) as error:
        Tournament.announce(
            LEAGUE, "Finals", "club", {}, Plan(format="double_round_robin", table_size=2, rounds=4)
        )
    assert (error.value.code, error.value.message) == (
        "invalid_rounds",
        "a double round robin plays every pairing twice: its rounds follow from the entrants",
    )
    plan = Plan(format="double_round_robin", table_size=2, places=5, single_round=True)
    tournament = Tournament.announce(LEAGUE, "Finals", "club", {}, plan)
    play_to_the_end(tournament)
    assert len(tournament.rounds) == tournament.planned_rounds == 10  # an odd field: 5 rounds a cycle
    assert_played_fairly(tournament)
    games = [table for played in tournament.rounds for table in played.tables]
    for a, b in itertools.combinations(tournament.order, 2):
        first, second = [table for table in games if set(table) == {a, b}]
        assert second == first[::-1]
    assert Counter(bye for played in tournament.rounds for bye in played.byes) == dict.fromkeys(
        tournament.order, 2
    )
    view = tournament_view(tournament)
    assert (view.format, view.planned_rounds, view.status) == ("double_round_robin", 10, "finished")
    found = crosstable(view)
    assert found is not None
    # both meetings of each pair in its cell, from each side
    assert [len(cell) for row in found.rows for cell in row.cells] == [
        0 if row == column else 2 for row in range(5) for column in range(5)
    ]


def test_one_who_drops_out_of_a_double_round_robin_misses_the_rest_and_the_others_play_on():
    plan = Plan(format="double_round_robin", table_size=2, single_round=True)
    tournament = Tournament.announce(LEAGUE, "Finals", "club", {}, plan)
    for n in range(4):
        tournament.join(f"p{n}")
    tournament.start("formats")
    quitter = tournament.order[0]
    tournament.drop(quitter)
    while not tournament.finished:
        current = tournament.current_round
        assert current is not None
        for table, entrants in enumerate(current.tables):
            game = uuid.uuid4()
            tournament.attach_game(current.round_no, table, game)
            tournament.record_result(game, tuple(range(len(entrants))), (0,))
    assert len(tournament.rounds) == 6
    assert all(quitter not in table for played in tournament.rounds[1:] for table in played.tables)
    assert all(quitter not in played.byes for played in tournament.rounds)
    assert tournament.ranking[-1] == quitter
