"""Bad input on the tournament routes: each gets its documented status and code as problem+json, and
changes nothing (the table in ``service.usecases.refusals``; the style of test_bad_input.py).

A body that does not decode, an unknown field or a wrong type is 400
``malformed_request``; a value of the right type that the rules refuse is 422
with the rules' own code (test_tournaments_http.py); a query parameter that does
not decode is 400; a path id that is not a UUID matches no route (404
``not_found``).
"""

from dataclasses import dataclass
from typing import Any

import pytest

from tests.e2e.club import ADMIN, Club
from tests.e2e.test_bad_input import (
    check_an_unknown_field_is_refused_by_name,
    check_malformed_json_is_refused,
)


@dataclass
class Cup:
    league: str
    tournament: str  # announced, nobody joined
    ada: str
    ada_headers: dict[str, str]

    def body_routes(self) -> list[tuple[str, dict[str, str], dict[str, Any]]]:
        """Every tournament route that takes a body: path, who sends it, a body it would accept."""
        return [
            (
                f"/leagues/{self.league}/tournaments",
                ADMIN,
                {"name": "Cup", "format": "swiss", "table_size": 4, "rounds": 2},
            ),
            (f"/tournaments/{self.tournament}/entrants", self.ada_headers, {"player_id": self.ada}),
        ]


@pytest.fixture(scope="module")
def cup(club: Club) -> Cup:
    ada, ada_headers = club.player("Ada")
    league = club.league(members=[ada])
    plan = {"name": "Cup", "format": "swiss", "table_size": 4, "rounds": 2}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    return Cup(league, tournament, ada, ada_headers)


def test_malformed_json_is_400_malformed_request_on_every_tournament_route_with_a_body(client, club, cup):
    check_malformed_json_is_refused(club, cup.body_routes())


def test_an_unknown_field_is_400_naming_it_on_every_tournament_route_with_a_body(client, club, cup):
    check_an_unknown_field_is_refused_by_name(club, cup.body_routes())


WRONG_TYPES = {
    "tournaments": [
        {"name": 5},
        {"name": ""},
        {"name": "C" * 81},
        {"format": "knockout"},
        {"format": None},
        {"table_size": "4"},
        {"table_size": 4.5},
        {"rounds": "two"},
        {"rounds": True},
        {"starts_at": "tomorrow"},
        {"starts_at": 1_800_000_000},
        {"interval": "1h"},
        {"target_score": "100"},
        {"single_round": "yes"},
        {"single_round": 1},
        {"turn_clock": 1.5},
        {"late_policy": "forfeit"},
        {"places": [16]},
        {"fill_bot": 5},
        {"fill_bot": "b" * 41},
        {"table_size": 2**63},  # beyond what the stores keep
        {"name": None},
    ],
    "entrants": [{"player_id": "ada"}, {"player_id": 5}, {"player_id": None}, {}],
}
REQUIRED = ("name", "format", "table_size")


def bad_bodies(path: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    """The route's wrong types (on top of a body it would accept) and its bodies missing a required field."""
    if path.endswith("/entrants"):
        return WRONG_TYPES["entrants"]
    wrong = [{**body, **case} for case in WRONG_TYPES["tournaments"]]
    return wrong + [{k: v for k, v in body.items() if k != field} for field in REQUIRED]


def test_wrong_types_and_missing_fields_are_400_malformed_request(client, club, cup):
    for path, headers, body in cup.body_routes():
        for case in bad_bodies(path, body):
            found = club.refuses("POST", path, 400, "malformed_request", headers=headers, json=case)
            assert found["detail"], (path, case)


def test_bad_query_parameters_and_path_ids_get_their_codes(client, club, cup):
    reads = [
        f"/tournaments/{cup.tournament}",
        f"/leagues/{cup.league}/tournaments",
        f"/players/{cup.ada}/next-game",
    ]
    for path in reads:
        for query in ("after=-1", "after=soon", "after=1.5", f"after={2**63}"):
            club.refuses("GET", f"{path}?{query}", 400, "malformed_request", headers={})
    for method, path in (
        ("GET", "/tournaments/not-a-uuid"),
        ("GET", "/leagues/not-a-uuid/tournaments"),
        ("GET", "/players/not-a-uuid/next-game"),
        ("POST", "/tournaments/not-a-uuid/start"),
        ("POST", "/tournaments/not-a-uuid/entrants"),
        ("DELETE", f"/tournaments/{cup.tournament}/entrants/not-a-uuid"),
    ):
        club.refuses(
            method, path, 404, "not_found", json={"player_id": cup.ada} if method == "POST" else None
        )
    club.refuses("PUT", f"/tournaments/{cup.tournament}", 405, "method_not_allowed")
    club.refuses("DELETE", f"/tournaments/{cup.tournament}/entrants", 405, "method_not_allowed")
