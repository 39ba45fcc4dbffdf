"""The ``tournament_finished`` webhook's ranking marks who has no result: unranked, and who dropped out."""

import json
from uuid import uuid4

import msgspec

from service.domain.tournament import Tournament
from service.projections.hooks import HookFold, HookState
from tests.unit.test_tournament import LEAGUE, NOW, attach_all, best_wins, by_number, entered, play_round


def finished_payload(tournament: Tournament) -> dict:
    """The ``tournament_finished`` delivery a hook of the league gets for the tournament's end."""
    state = HookState(hook_id=uuid4(), league_id=LEAGUE, events=("tournament_finished",), players=())
    fold = HookFold([msgspec.msgpack.encode(state)], names=lambda ids: {})
    fold.names = {entrant: f"Player {entrant}" for entrant in tournament.entrants}
    (finished,) = [event for event in tournament.pending_events if isinstance(event, Tournament.Finished)]
    out: list = []
    fold.tournament_event(tournament, finished, 1, out)
    (delivery,) = out
    return json.loads(delivery[4])["data"]


def test_a_no_show_and_one_whose_seat_a_bot_took_are_in_the_ranking_unranked_and_dropped():
    tournament = entered(5, rounds=1, table_size=2, starts_at=NOW, check_in_minutes=60)
    for entrant in ("p00", "p01", "p02", "p03"):  # p04 never checks in
        tournament.check_in(entrant, NOW)
    tournament.start("seed")
    tournament.drop("p03")  # before round 1's games are made: a bot takes her seat
    for table, game in zip(tournament.rounds[0].tables, attach_all(tournament), strict=True):
        totals = tuple(by_number(entrant) for entrant in table)
        tournament.record_result(game, totals, best_wins(totals))
    assert tournament.finished

    ranking = finished_payload(tournament)["ranking"]
    assert [(row["entrant"], row["rank"], row["dropped"]) for row in ranking[-2:]] == [
        ("p03", None, True),
        ("p04", None, True),
    ]
    assert [row["rank"] for row in ranking[:3]] == [1, 2, 3]
    assert not any(row["dropped"] for row in ranking[:3])
    assert ranking[0] == {
        "entrant": "p00",
        "player_id": "p00",
        "name": "Player p00",
        "rank": 1,
        "dropped": False,
    }


def test_a_tournament_everyone_played_ranks_everyone_as_before():
    tournament = entered(4, rounds=2, table_size=2)
    tournament.start("seed")
    while not tournament.finished:
        play_round(tournament, by_number)
    ranking = finished_payload(tournament)["ranking"]
    assert [row["entrant"] for row in ranking] == list(tournament.ranking)
    assert [row["rank"] for row in ranking] == [1, 2, 3, 4] and not any(row["dropped"] for row in ranking)


def test_a_table_ready_for_a_seat_a_bot_took_names_the_bot_and_whom_it_stood_in_for():
    tournament = entered(4, rounds=1, table_size=2)
    tournament.start("seed")
    tournament.drop("p03")  # before round 1's games are made: a bot takes her seat
    state = HookState(hook_id=uuid4(), league_id=LEAGUE, events=("table_ready", "round_started"), players=())
    fold = HookFold([msgspec.msgpack.encode(state)], names=lambda ids: {})
    fold.names = {entrant: f"Player {entrant}" for entrant in tournament.entrants}
    out: list = []
    current = tournament.current_round
    assert current is not None
    for table in range(len(current.tables)):  # as the projection folds them: one game at a time
        tournament.attach_game(current.round_no, table, uuid4())
        (made,) = [
            event for event in tournament.collect_events() if isinstance(event, Tournament.TableGameCreated)
        ]
        fold.tournament_event(tournament, made, made.originator_version, out)
    bodies = [json.loads(delivery[4]) for delivery in out]
    seats = [seat for body in bodies if body["event"] == "table_ready" for seat in body["data"]["seats"]]
    (stood_in,) = [seat for seat in seats if "stand_in_for" in seat]
    bot = tournament.plan.fill_bot
    assert stood_in["entrant"] == f"bot:{bot}" and stood_in["bot"] == bot and "player_id" not in stood_in
    assert stood_in["stand_in_for"] == {"entrant": "p03", "player_id": "p03", "name": "Player p03"}
    assert sorted(seat["player_id"] for seat in seats if "player_id" in seat) == ["p00", "p01", "p02"]
    (started,) = [body["data"] for body in bodies if body["event"] == "round_started"]
    assert [seat for table in started["tables"] for seat in table["seats"] if "stand_in_for" in seat] == [
        stood_in
    ]
