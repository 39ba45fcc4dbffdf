"""Bad input on every route: each gets its documented status and code as problem+json, and changes nothing.

The documented answers are the table in ``service.usecases.refusals``: a body, a
parameter or a header that does not decode is 400 ``malformed_request``; a
card, suit or seat the rules cannot read is 400 ``malformed_card`` /
``malformed_suit`` / ``invalid_seat``; a version that is not the game's is
409 ``stale_version``; an ``Idempotency-Key`` sent again with another body is
409 ``idempotency_key_reused`` (with the same body, the first answer comes
back); no token or a bad one is 401 ``unauthorized``.
"""

from dataclasses import dataclass
from typing import Any

import pytest
from litestar.testing import TestClient

from tests.e2e.club import ADMIN, Club
from tests.integration.tables import deck_for

# Ada (seat 0) moves first on the starter 5H; she holds a jack for the suit cases
HANDS = {0: ["9H", "KH", "JC", "3C", "4C"], 1: ["9S", "KS", "2D", "3D", "4D"]}


@dataclass
class Table:
    """A league game in play that no test here changes, its players, referee and a paused twin."""

    game: str
    version: int
    paused: str  # a game of the same two with an open dispute
    paused_version: int
    league: str
    ada: str
    bob: str
    rita: str
    headers: dict[str, dict[str, str]]

    def body_routes(self) -> list[tuple[str, dict[str, str], dict[str, Any]]]:
        """Every route that takes a body: path, who sends it, a body it would accept."""
        ada, rita = self.headers["ada"], self.headers["rita"]
        return [
            ("/players", ADMIN, {"name": "Eve"}),
            ("/referees", ADMIN, {"name": "Rex"}),
            ("/leagues", ADMIN, {"name": "League"}),
            (f"/leagues/{self.league}/members", ADMIN, {"player_id": self.ada}),
            (f"/leagues/{self.league}/referees", ADMIN, {"referee_id": self.rita}),
            ("/games", ADMIN, {"seats": [self.ada, self.bob]}),
            (f"/games/{self.game}/moves", ada, {"kind": "play", "card": "9H", "version": self.version}),
            (f"/games/{self.game}/challenges", ada, {"version": self.version}),
            (f"/games/{self.game}/disputes", ada, {"reason": "why", "version": self.version}),
            (f"/games/{self.paused}/rulings", rita, {"kind": "resume", "version": self.paused_version}),
        ]


def dealt(club: Club, ada: str, bob: str, league: str) -> dict[str, Any]:
    deck = deck_for(HANDS, starter="5H", seats=2, dealer=1)
    return club.game([ada, bob], deck=deck, first_dealer=1, league_id=league)


@pytest.fixture(scope="module")
def table(client: TestClient[Any], club: Club) -> Table:
    ada, ada_headers = club.player("Ada")
    bob, bob_headers = club.player("Bob")
    rita, rita_headers = club.referee("Rita")
    league = club.league(members=[ada, bob], referees=[rita])
    game = dealt(club, ada, bob, league)
    paused = dealt(club, ada, bob, league)
    raised = club.ok("POST", f"/games/{paused['game_id']}/disputes", json={"reason": "a card fell"})
    headers = {"ada": ada_headers, "bob": bob_headers, "rita": rita_headers}
    return Table(
        game["game_id"],
        game["version"],
        paused["game_id"],
        raised["version"],
        league,
        ada,
        bob,
        rita,
        headers,
    )


MALFORMED_JSON = [
    b'{"name": ',
    b"[]",
    b"null",
    b'"Eve"',
    b"\xff\xfe",
    b"",
    b"{'name': 'Eve'}",
    b'{"name": "Eve"} and more',
]


BodyRoutes = list[tuple[str, dict[str, str], dict[str, Any]]]


def check_malformed_json_is_refused(club: Club, routes: BodyRoutes) -> None:
    for path, headers, _ in routes:
        for raw in MALFORMED_JSON:
            found = club.refuses(
                "POST",
                path,
                400,
                "malformed_request",
                headers={**headers, "Content-Type": "application/json"},
                content=raw,
            )
            assert raw or "a JSON body is required" in found["detail"]


def check_an_unknown_field_is_refused_by_name(club: Club, routes: BodyRoutes) -> None:
    for path, headers, body in routes:
        found = club.refuses(
            "POST", path, 400, "malformed_request", headers=headers, json={**body, "colour": 1}
        )
        assert "colour" in found["detail"], path


def test_malformed_json_is_400_malformed_request_on_every_route_with_a_body(client, club, table):
    check_malformed_json_is_refused(club, table.body_routes())


def test_an_unknown_field_is_400_malformed_request_naming_it_on_every_route_with_a_body(client, club, table):
    check_an_unknown_field_is_refused_by_name(club, table.body_routes())


WRONG_TYPES = {
    "/players": [{"name": 5}, {"name": None}, {"name": ["Eve"]}, {"name": ""}, {"name": "E" * 81}, {}],
    "/referees": [{"name": 5}, {}],
    "/leagues": [
        {"name": 5},
        {"name": "L", "options": {"target_score": "high"}},
        {"name": "L", "options": []},
        {"name": "L", "ruleset": 5},
    ],
    "members": [{"player_id": "not-a-uuid"}, {"player_id": 5}, {}],
    "referees": [{"referee_id": "rita"}, {}],
    "/games": [
        {"seats": "ada"},
        {"seats": []},
        {"seats": [5]},
        {"seats": ["bot:random"] * 13},
        {"seats": ["bot:random", "bot:random"], "deck": "2C"},
        {"seats": ["bot:random", "bot:random"], "first_dealer": -1},
        {"seats": ["bot:random", "bot:random"], "first_dealer": "0"},
        {"seats": ["bot:random", "bot:random"], "league_id": "the league"},
        {"seats": ["bot:random", "bot:random"], "options": {"hand_size": "4"}},
        {"seats": ["bot:random", "bot:random"], "seed": 5},
    ],
    "moves": [
        {"kind": "play", "card": "9H", "version": "three"},
        {"kind": "play", "card": "9H", "version": -1},
        {"kind": "play", "card": "9H", "version": ...},
        {"kind": "play", "card": 9},
        {"kind": "play", "card": "9H" * 5},
        {"kind": "play", "card": "JC", "suit": 2},
        {"kind": "play", "card": "9H", "call": 1},
        {"kind": "play", "card": "9H", "call": "MAU"},
        {"kind": "play", "card": "9H", "call": "maumau"},
        {"kind": "play", "card": "9H", "call": ""},
        {"kind": "play", "card": "9H", "seat": -1},
        {"kind": "play", "card": "9H", "seat": "0"},
        {"kind": "fly"},
        {"card": "9H"},
        {"kind": "keep", "card": "9H"},
    ],
    "challenges": [{"version": "now"}, {"seat": "1"}, {"version": -1}],
    "disputes": [{"reason": 5}, {"about": 0}, {"about": "the 7"}, {"version": -1}, {"reason": "x" * 1001}],
    "rulings": [
        {"kind": "pardon"},
        {"kind": "penalty", "seat": 1},
        {"kind": "penalty", "seat": "one", "cards": 2},
        {"kind": "penalty", "seat": 1, "cards": 0},
        {"kind": "void", "from_event": 0},
        {"note": "no kind"},
    ],
}


def test_wrong_types_and_values_out_of_range_are_400_malformed_request(client, club, table):
    for path, headers, body in table.body_routes():
        cases = WRONG_TYPES[path if path in WRONG_TYPES else path.rsplit("/", 1)[-1]]
        for case in cases:
            if "version" in body:  # a command: at the game's version, unless the case says otherwise
                case = {k: v for k, v in {"version": body["version"], **case}.items() if v is not ...}
            before = club.log_position()
            response = client.post(path, json=case, headers=headers)
            assert (response.status_code, response.json().get("code")) == (400, "malformed_request"), (
                path,
                case,
                response.text,
            )
            assert club.log_position() == before, (path, case)


def test_cards_suits_and_seats_the_rules_cannot_read_are_400_with_their_own_codes(client, club, table):
    ada, moves, version = table.headers["ada"], f"/games/{table.game}/moves", table.version
    for card in ("1Z", "", "10", "HH", "9", "11H", "Z9", "9HH", "JX"):
        body = {"kind": "play", "card": card, "version": version}
        club.refuses("POST", moves, 400, "malformed_card", headers=ada, json=body)
    for suit in ("X", "", "Z", "spades!", "CD"):
        body = {"kind": "play", "card": "JC", "suit": suit, "version": version}
        club.refuses("POST", moves, 400, "malformed_suit", headers=ada, json=body)
        body = {"kind": "name_suit", "suit": suit, "version": version}
        club.refuses("POST", moves, 400, "malformed_suit", headers=ada, json=body)
    seats = [table.ada, "bot:random"]
    club.refuses("POST", "/games", 400, "malformed_card", json={"seats": seats, "deck": ["1Z"] * 52})
    club.refuses("POST", "/games", 400, "invalid_seat", json={"seats": [table.ada, "Bob"]})
    # readable, but the rules refuse them: 422 (404 for a player who does not exist)
    club.refuses("POST", "/games", 422, "invalid_deck", json={"seats": seats, "deck": ["2C"] * 52})
    club.refuses("POST", "/games", 422, "unknown_bot", json={"seats": [table.ada, "bot:nobody"]})
    club.refuses("POST", "/games", 422, "player_seated_twice", json={"seats": [table.ada, table.ada]})
    unknown = "00000000-0000-0000-0000-00000000beef"
    club.refuses("POST", "/games", 404, "player_not_found", json={"seats": [table.ada, unknown]})
    club.refuses("POST", "/leagues", 422, "unknown_ruleset", json={"name": "L", "ruleset": "poker"})
    club.refuses("POST", "/leagues", 422, "unknown_option", json={"name": "L", "options": {"jokers": 2}})
    club.refuses(
        "POST",
        moves,
        422,
        "suit_required",
        headers=ada,
        json={"kind": "play", "card": "JC", "version": version},
    )
    body = {"kind": "play", "card": "9H", "call": "mau_mau", "version": version}
    club.refuses("POST", moves, 422, "call_not_due", headers=ada, json=body)


def test_a_stale_version_is_409_stale_version_on_every_command(client, club, table):
    ada, rita = table.headers["ada"], table.headers["rita"]
    for version in (table.version - 1, table.version + 1, 0):
        for tail, body in (
            ("moves", {"kind": "play", "card": "9H"}),
            ("moves", {"kind": "draw"}),
            ("challenges", {}),
            ("disputes", {"reason": "late"}),
        ):
            path = f"/games/{table.game}/{tail}"
            club.refuses("POST", path, 409, "stale_version", headers=ada, json={**body, "version": version})
    path = f"/games/{table.paused}/rulings"
    club.refuses("POST", path, 409, "stale_version", headers=rita, json={"kind": "resume", "version": 1})


def keyed(headers: dict[str, str], key: str) -> dict[str, str]:
    return {**headers, "Idempotency-Key": key}


def same_answer(first: Any, again: Any) -> None:
    """A replay answers what the first request did (its position may be later: the reader caught up)."""
    assert again.status_code == first.status_code
    one, two = first.json(), again.json()
    one.pop("position", None), two.pop("position", None)
    assert one == two


def test_an_idempotency_key_sent_again_answers_the_first_result_or_409_with_another_body(client, club, table):
    ada, bob, rita = table.headers["ada"], table.headers["bob"], table.headers["rita"]
    deck = deck_for({0: ["9H", "KH"], 1: ["9S", "KS"]}, starter="5H", seats=2, dealer=1, hand_size=2)
    game = club.game([table.ada, table.bob], deck=deck, first_dealer=1, options={"hand_size": 2})
    path = f"/games/{game['game_id']}"

    def twice(
        tail: str, headers: dict[str, str], body: dict[str, Any], other: tuple[str, dict[str, Any]]
    ) -> Any:
        """Send; send again (the first answer, nothing stored); send another command with the same key
        (409, nothing stored)."""
        first = client.post(f"{path}/{tail}", json=body, headers=headers)
        assert first.status_code == 200, first.text
        with club.unchanged():
            same_answer(first, client.post(f"{path}/{tail}", json=body, headers=headers))
        club.refuses(
            "POST", f"{path}/{other[0]}", 409, "idempotency_key_reused", headers=headers, json=other[1]
        )
        return first

    start = game["version"]
    played = twice(
        "moves",
        keyed(ada, "first move"),
        {"kind": "play", "card": "9H", "version": start},  # and no "mau": a missed call
        ("moves", {"kind": "play", "card": "KH", "version": start}),
    )
    version = played.json()["version"]
    # Bob's key is his own, even when it is the same text
    twice(
        "challenges",
        keyed(bob, "first move"),
        {"version": version},
        ("moves", {"kind": "draw", "version": 5}),
    )
    raised = twice(
        "disputes",
        keyed(ada, "dispute"),
        {"reason": "a card fell"},
        ("disputes", {"reason": "another card fell"}),
    )
    twice(
        "rulings",
        keyed(rita, "ruling"),
        {"kind": "resume", "version": raised.json()["version"]},
        ("rulings", {"kind": "penalty", "seat": 0, "cards": 1}),
    )
    # long after, the first move's key still answers what it did then
    with club.unchanged():
        same_answer(
            played,
            client.post(
                f"{path}/moves",
                json={"kind": "play", "card": "9H", "version": game["version"]},
                headers=keyed(ada, "first move"),
            ),
        )
    for bad_key in ("", "k" * 201):
        body = {"kind": "draw", "version": version}
        club.refuses(
            "POST", f"{path}/moves", 400, "malformed_request", headers=keyed(ada, bad_key), json=body
        )

    created = client.post(
        "/games", json={"seats": [table.ada, "bot:random"]}, headers=keyed(ADMIN, "new game")
    )
    assert created.status_code == 201
    with club.unchanged():
        again = client.post(
            "/games", json={"seats": [table.ada, "bot:random"]}, headers=keyed(ADMIN, "new game")
        )
    assert again.json()["game_id"] == created.json()["game_id"]
    body = {"seats": [table.bob, "bot:random"]}
    club.refuses("POST", "/games", 409, "idempotency_key_reused", headers=keyed(ADMIN, "new game"), json=body)


def test_no_token_or_a_bad_one_is_401_unauthorized_on_every_route_that_needs_one(client, club, table):
    ada = table.headers["ada"]["Authorization"].removeprefix("Bearer ")
    for path, _, body in table.body_routes():
        for headers in (
            {},
            {"Authorization": "Bearer"},
            {"Authorization": f"Token {ada}"},
            {"Authorization": ada},
        ):
            found = club.refuses("POST", path, 401, "unauthorized", headers=headers, json=body)
            assert "token" in found["detail"]
        response = client.post(path, json=body)
        assert response.headers["www-authenticate"] == 'Bearer realm="maumau"'
    mine = client.get(f"/games/{table.game}/me", headers={"Authorization": f"bearer  {ada} "})
    assert mine.status_code == 200  # the scheme's case and spaces around the token do not matter


def test_bad_paths_methods_query_parameters_headers_and_sizes_get_their_codes(client, club, table):
    game, ada = f"/games/{table.game}", table.headers["ada"]
    club.refuses("GET", "/no/such/route", 404, "not_found")
    club.refuses("GET", "/games/not-a-uuid", 404, "not_found")
    club.refuses("GET", "/games/00000000-0000-0000-0000-00000000beef", 404, "game_not_found")
    club.refuses(
        "POST",
        "/games/00000000-0000-0000-0000-00000000beef/moves",
        404,
        "game_not_found",
        json={"kind": "draw", "version": 3},
    )
    club.refuses("PUT", "/players", 405, "method_not_allowed", json={"name": "Eve"})
    club.refuses("DELETE", game, 405, "method_not_allowed")
    for query in ("after=-1", "after=soon", "after=1.5"):
        club.refuses("GET", f"{game}?{query}", 400, "malformed_request")
        club.refuses("GET", f"{game}/totals?{query}", 400, "malformed_request")
        club.refuses("GET", f"/leagues/{table.league}/standings?{query}", 400, "malformed_request")
    for query in ("seat=-1", "seat=first", "after=-1"):
        club.refuses("GET", f"{game}/me?{query}", 400, "malformed_request", headers=ada)
    for query in ("limit=0", "limit=1001", "after=-1", "limit=all"):
        club.refuses("GET", f"{game}/events?{query}", 400, "malformed_request")
    for query in ("at=0", "at=-3", "at=last"):
        club.refuses("GET", f"{game}/replay?{query}", 400, "malformed_request")
    club.refuses("GET", f"{game}/stream", 400, "malformed_request", headers={"Last-Event-ID": "-1"})
    too_large = b'{"name": "' + b"x" * (11 * 1024 * 1024) + b'"}'
    club.refuses(
        "POST",
        "/players",
        413,
        "request_too_large",
        headers={**ADMIN, "Content-Type": "application/json"},
        content=too_large,
    )


def test_numbers_beyond_what_the_stores_keep_are_400_not_a_server_error(client, club, table):
    game, huge = f"/games/{table.game}", 2**63  # one past the largest signed 64-bit integer
    club.refuses("GET", f"{game}/events?after={huge}", 400, "malformed_request")
    club.refuses("GET", f"{game}/replay?at={huge}", 400, "malformed_request")
    club.refuses("GET", f"{game}?after={huge}", 400, "malformed_request")
    club.refuses("GET", f"{game}/stream", 400, "malformed_request", headers={"Last-Event-ID": str(huge)})
    seats = [table.ada, "bot:random"]
    for body in (
        {"seats": seats, "first_dealer": 2**64 + 5},
        {"seats": seats, "options": {"target_score": huge}},
        {"seats": seats, "options": {"target_score": -huge - 1}},
    ):
        found = club.refuses("POST", "/games", 400, "malformed_request", json=body)
        assert "first_dealer" in found["detail"] or "options.target_score" in found["detail"]
    club.refuses(
        "POST", "/leagues", 400, "malformed_request", json={"name": "L", "options": {"hand_size": huge}}
    )
    largest = client.get(f"{game}/events?after={huge - 1}")
    assert largest.status_code == 200 and largest.json()["events"] == []


def test_a_page_of_the_log_past_its_last_event_is_empty_not_an_error(client, club, table):
    for after in (3, 4, 1000):
        page = client.get(f"/games/{table.game}/events?after={after}&limit=1")
        assert page.status_code == 200 and page.json() == {"game_id": table.game, "events": [], "next": None}
