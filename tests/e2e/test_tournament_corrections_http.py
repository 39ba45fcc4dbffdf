"""A referee's ruling that changes a tournament table's game after its result was recorded, over HTTP:
the bracket and the ranking follow the game (docs/tournaments.md, "A ruling after a table's result").

Eight people, two rounds of two tables of four, one table played with real cards: the other table's
people are away, so the clock bot plays their turns. The workers' steps run in this process
(``workers.inline``), as in test_tournaments_http.py; the step the API queues after an entry or a
ruling (``maumau.advance_game``, test_in_person_tables.py checks it is queued) is run here by hand.
"""

from typing import Any
from uuid import UUID

import pytest

from service.domain.pairing import Played, rank
from tests.e2e.club import ADMIN, Club
from workers.conduct import Conductor
from workers.inline import Inline

FIRST_ENTRY = {"winner": 0, "points": [0, 5, 7, 12]}
CORRECTED = {"winner": 1, "points": [9, 0, 7, 12]}  # seat 1 went out first after all


class Cup:
    def __init__(self, club: Club) -> None:
        self.club = club
        self.inline = Inline()
        self.conductor = Conductor(club.app, self.inline)
        self.people: dict[str, dict[str, str]] = {}
        for _ in range(8):
            player_id, headers = club.player()
            self.people[player_id] = headers
        # no seat forfeits by clock: the clock bot plays every turn of the people who are away
        league = club.league(members=list(self.people), forfeit_after=0)
        plan = {
            "name": "Corrected cup",
            "format": "swiss",
            "table_size": 4,
            "rounds": 2,
            "single_round": True,
            "turn_clock": 30,
            "in_person_tables": 1,
        }
        self.id = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
        for player_id in self.people:
            club.ok("POST", f"/tournaments/{self.id}/entrants", json={"player_id": player_id})
        club.ok("POST", f"/tournaments/{self.id}/start")
        self.inline.conduct_tournament(UUID(self.id))
        self.work()

    def work(self, game_id: str | None = None) -> None:
        """Run the step the API queued after a change to ``game_id``, and everything it queues."""
        if game_id is not None:
            self.inline.advance_game(UUID(game_id))
        self.inline.run(self.conductor)

    def view(self) -> dict[str, Any]:
        return self.club.ok("GET", f"/tournaments/{self.id}?after={self.club.log_position()}")

    def table(self, round_no: int, in_person: bool) -> dict[str, Any]:
        (found,) = [t for t in self.view()["rounds"][round_no - 1]["tables"] if t["in_person"] is in_person]
        return found

    def enter(self, table: dict[str, Any], entry: dict[str, Any]) -> None:
        scorer = self.people[table["entrants"][0]]
        self.club.ok("POST", f"/games/{table['game_id']}/rounds", headers=scorer, json=entry)
        self.work(table["game_id"])

    def rule(self, table: dict[str, Any], ruling: dict[str, Any], disputed_by: dict[str, str]) -> None:
        """A dispute raised after the match ended, and the referee's ruling on it."""
        game = f"/games/{table['game_id']}"
        self.club.ok("POST", f"{game}/disputes", headers=disputed_by, json={"reason": "that is not right"})
        self.club.ok("POST", f"{game}/rulings", headers=ADMIN, json=ruling)
        self.work(table["game_id"])

    def totals(self, table: dict[str, Any]) -> dict[str, Any]:
        return self.club.ok("GET", f"/games/{table['game_id']}/totals")


def follows_the_games(cup: Cup) -> dict[str, Any]:
    """Every recorded table of the view holds its game's own totals and winners, and the ranking is
    the ranking's rules applied to the games' totals; the view."""
    view = cup.view()
    results = []
    for played in view["rounds"]:
        for table in played["tables"]:
            if not table["finished"]:
                continue
            totals = cup.totals(table)
            assert totals["over"] is True
            assert (table["totals"], table["winners"]) == (totals["totals"], totals["winners"])
            results.append(
                Played(tuple(table["entrants"]), tuple(totals["totals"]), tuple(totals["winners"]))
            )
    again = rank(view["entrants"], results, [], lower_is_better=True)
    assert [(p["entrant"], p["points"], p["wins"]) for p in view["ranking"]] == [
        (p.entrant, p.points, p.wins) for p in again
    ]
    return view


@pytest.fixture(scope="module")
def cup(club: Club) -> Cup:
    """Round 1 played (its real table entered), round 2 paired and its server table played."""
    cup = Cup(club)
    cup.enter(cup.table(1, in_person=True), FIRST_ENTRY)
    assert cup.view()["rounds"][0]["finished"] is True
    assert cup.table(2, in_person=False)["finished"] is True
    return cup


def test_a_corrected_last_entry_of_a_real_table_moves_its_result_and_the_ranking_but_not_round_two(cup):
    real = cup.table(1, in_person=True)
    assert real["totals"] == FIRST_ENTRY["points"] and real["winners"] == [0]
    round_two = [t["entrants"] for t in cup.view()["rounds"][1]["tables"]]
    cup.rule(real, {"kind": "correct", "round": 1, **CORRECTED}, disputed_by=cup.people[real["entrants"][1]])
    after = cup.table(1, in_person=True)
    assert after["totals"] == CORRECTED["points"] and after["winners"] == [1] and after["kept"] is None
    view = follows_the_games(cup)
    wins = {p["entrant"]: p["wins"] for p in view["ranking"]}
    assert wins[real["entrants"][1]] >= 1
    assert [t["entrants"] for t in view["rounds"][1]["tables"]] == round_two  # not paired again


def test_a_server_table_voided_after_its_result_is_recorded_again_as_its_replayed_match_ends(cup):
    server = cup.table(1, in_person=False)
    before = cup.totals(server)
    assert server["totals"] == before["totals"]
    cup.rule(server, {"kind": "void", "from_event": 3}, disputed_by=ADMIN)  # dealt again from a new shuffle
    replayed = cup.totals(server)
    assert replayed["over"] is True and replayed["totals"] != before["totals"]
    assert cup.table(1, in_person=False)["totals"] == replayed["totals"]
    follows_the_games(cup)


def test_a_correction_after_the_tournament_finished_is_kept_out_and_shown_beside_the_table(cup):
    real = cup.table(2, in_person=True)
    cup.enter(real, FIRST_ENTRY)
    final = follows_the_games(cup)
    assert final["status"] == "finished"
    cup.rule(real, {"kind": "correct", "round": 1, **CORRECTED}, disputed_by=cup.people[real["entrants"][1]])
    view = cup.view()
    table = cup.table(2, in_person=True)
    assert table["totals"] == FIRST_ENTRY["points"]  # the tournament's result stays
    assert (
        table["kept"]
        == {"totals": CORRECTED["points"], "winners": [1]}
        == {key: cup.totals(table)[key] for key in ("totals", "winners")}
    )
    assert (view["ranking"], view["winners"]) == (final["ranking"], final["winners"])
