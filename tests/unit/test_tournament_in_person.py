"""A tournament's tables played with real cards (``Plan.in_person_tables``): the plan option, which
tables of a round it chooses, and how they are recorded."""

import dataclasses
import uuid

import msgspec
import pytest

from service.domain.tournament import Tournament
from service.domain.tournament_entries import BOT_ENTRANT
from service.domain.tournament_plan import MAX_IN_PERSON
from service.persistence.mapper import MsgspecMapper
from tests.refusals import refused
from tests.unit.test_tournament import announce, best_wins, by_number, entered
from tests.unit.test_tournament_lifecycle import rebuilt, recorded, unchanged


@pytest.mark.parametrize("tables", [-1, MAX_IN_PERSON + 1, 1.0, "1", True, None])
def test_a_number_of_in_person_tables_that_is_no_count_of_tables_is_refused_at_the_announcement(tables):
    refused("invalid_in_person_tables", lambda: announce(in_person_tables=tables))


@pytest.mark.parametrize("tables", [-1, 2.5, "2", False])
def test_an_edit_to_an_impossible_number_of_in_person_tables_is_refused_and_changes_nothing(tables):
    tournament = entered(4, in_person_tables=1)
    unchanged(
        "invalid_in_person_tables", tournament, lambda: tournament.edit(None, {"in_person_tables": tables})
    )
    assert tournament.plan.in_person_tables == 1


def test_the_in_person_tables_are_edited_before_the_start_and_kept_by_the_event():
    tournament = entered(4)
    assert tournament.plan.in_person_tables == 0  # by default every table is played on the server
    tournament.edit(None, {"in_person_tables": 2})
    (edited,) = recorded(tournament, Tournament.Edited)
    assert edited.plan.in_person_tables == 2
    assert rebuilt(tournament).plan.in_person_tables == 2


def test_after_the_start_the_in_person_tables_are_no_longer_edited():
    tournament = entered(4, in_person_tables=1)
    tournament.start("seed")
    unchanged("tournament_started", tournament, lambda: tournament.edit(None, {"in_person_tables": 0}))


def test_the_first_tables_seating_no_bot_are_the_in_person_ones():
    # six people and two bots at tables of two: the bots' tables are never played in person
    tournament = entered(6, table_size=2, places=8, in_person_tables=2)
    tournament.start("seed")
    current = tournament.current_round
    assert current is not None
    people = [
        table
        for table, entrants in enumerate(current.tables)
        if not any(entrant.startswith(BOT_ENTRANT) for entrant in entrants)
    ]
    assert len(people) >= 2
    assert tournament.in_person_tables(current) == set(people[:2])


def test_more_in_person_tables_than_tables_of_people_plays_every_table_of_people_in_person():
    tournament = entered(4, table_size=2, places=6, in_person_tables=10)
    tournament.start("seed")
    current = tournament.current_round
    assert current is not None
    bots = {
        t for t, entrants in enumerate(current.tables) if any(e.startswith(BOT_ENTRANT) for e in entrants)
    }
    assert tournament.in_person_tables(current) == set(range(len(current.tables))) - bots


def test_a_table_where_someone_dropped_before_the_games_were_made_is_played_on_the_server():
    # a seat of someone who dropped out goes to the plan's bot, and a bot cannot sit at a real table
    tournament = entered(8, table_size=4, in_person_tables=2)
    tournament.start("seed")
    current = tournament.current_round
    assert current is not None
    assert tournament.in_person_tables(current) == {0, 1}
    tournament.drop(current.tables[0][0])
    assert tournament.in_person_tables(current) == {1}


def test_the_in_person_tables_are_fixed_when_the_games_are_made_and_their_results_close_the_round():
    tournament = entered(8, table_size=4, rounds=2, in_person_tables=1)
    tournament.start("seed")
    current = tournament.current_round
    assert current is not None
    games = [uuid.uuid4(), uuid.uuid4()]
    for table, game in enumerate(games):
        tournament.attach_game(1, table, game, in_person=table == 0)
    made = recorded(tournament, Tournament.TableGameCreated)
    assert [event.in_person for event in made] == [True, False]
    assert current.in_person == {0}
    tournament.drop(current.tables[0][1])  # a drop after the games were made changes nothing here
    assert tournament.in_person_tables(current) == {0}
    assert rebuilt(tournament).rounds[0].in_person == {0}
    # a result recorded for the server table alone leaves the round open
    totals = tuple(by_number(player) for player in current.tables[1])
    tournament.record_result(games[1], totals, best_wins(totals))
    assert tournament.current_round is current
    totals = tuple(by_number(player) for player in current.tables[0])
    tournament.record_result(games[0], totals, best_wins(totals))
    assert current.finished_at is not None and len(tournament.rounds) == 2  # round 2 is paired


def test_a_tournament_stored_before_in_person_tables_decodes_as_played_all_on_the_server():
    mapper = MsgspecMapper()
    tournament = entered(8, table_size=4)
    tournament.start("seed")
    tournament.attach_game(1, 0, uuid.uuid4())
    events = tournament.collect_events()
    announced = mapper.to_stored_event(events[0])
    # the plan as stored before the option: a map without the key
    fields = msgspec.msgpack.decode(announced.state)
    plan = fields[-1]
    assert plan.pop("in_person_tables") == 0
    older = dataclasses.replace(announced, state=msgspec.msgpack.encode(fields))
    assert mapper.to_domain_event(older).plan.in_person_tables == 0
    # a table's game stored before ``in_person``: the same array without its last field
    made = mapper.to_stored_event(events[-1])
    fields = msgspec.msgpack.decode(made.state)
    older = dataclasses.replace(made, state=msgspec.msgpack.encode(fields[:-1]))
    decoded = mapper.to_domain_event(older)
    assert isinstance(decoded, Tournament.TableGameCreated) and decoded.in_person is False
