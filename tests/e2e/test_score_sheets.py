"""Games played in person over HTTP: a league evening of two real tables scored from their sheets.

The expected totals, winners, standings and ratings are worked out here from the entries as the
rules state them (docs/rules/club.md and mau-mau-150.md, sections 8 and 9; openskill's
Plackett-Luce), not by the service's code.
"""

from typing import Any

import pytest
from openskill.models import PlackettLuce

from tests.e2e.club import ADMIN, Club, problem

TARGET = 100  # club's


def post(client: Any, path: str, body: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
    response = client.post(path, json=body, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def club_points(entry: dict[str, Any], seats: int) -> list[int]:
    """A round's scores by club's rule: the winner 0, everyone else the value of the cards left."""
    values = {**{str(n): n for n in range(2, 11)}, "J": 10, "Q": 10, "K": 10, "A": 10}
    if "hands" in entry:
        left = [sum(values[card[:-1]] for card in hand) for hand in entry["hands"]]
    else:
        left = entry["points"]
    return [0 if seat == entry["winner"] else left[seat] for seat in range(seats)]


def expected_match(entries: list[dict[str, Any]], seats: int) -> tuple[list[int], list[int], list[int]]:
    """Totals, winners (lowest total once someone reaches the target) and rounds won, per seat."""
    totals, won = [0] * seats, [0] * seats
    for entry in entries:
        totals = [t + p for t, p in zip(totals, club_points(entry, seats), strict=True)]
        if entry["winner"] is not None:
            won[entry["winner"]] += 1
    assert max(totals) >= TARGET, "the entries must end the match"
    winners = [seat for seat, total in enumerate(totals) if total == min(totals)]
    return totals, winners, won


@pytest.fixture
def evening(client, club: Club) -> dict[str, Any]:
    names = ["Ann", "Ben", "Cid", "Dot", "Eve"]
    players = {name: club.player() for name in names}
    rita, rita_headers = club.referee("Rita")
    ids = [players[name][0] for name in names]
    league = club.league(members=ids, referees=[rita])
    first = club.game(ids[:3], league_id=league, in_person=True)
    second = club.game(ids[3:], league_id=league, in_person=True)
    return {"players": players, "rita": (rita, rita_headers), "league": league, "tables": (first, second)}


def test_a_league_evening_of_two_real_tables_one_corrected_counts_as_the_entries_say(client, club, evening):
    players, league = evening["players"], evening["league"]
    ann, ben, cid, dot, eve = (players[name] for name in ["Ann", "Ben", "Cid", "Dot", "Eve"])
    first, second = evening["tables"]
    rita, rita_headers = evening["rita"]
    one, two = f"/games/{first['game_id']}", f"/games/{second['game_id']}"

    table = club.table(first)
    assert table["in_person"] is True and table["stock"] == 0 and table["top"] is None
    assert table["phase"] == "deal" and table["round_no"] == 0
    mine = club.me(first, ann[1])
    assert mine["cards"] == [] and mine["legal"] == []

    # the second table: a round stopped with nobody out (everyone scores), then Dot goes out
    second_entries = [
        {"winner": None, "points": [12, 30]},
        {"winner": 0, "points": [0, 95]},
    ]
    post(client, f"{two}/rounds", second_entries[0], dot[1])
    post(client, f"{two}/rounds/1/confirmation", {}, eve[1])
    done = post(client, f"{two}/rounds", second_entries[1], eve[1])
    assert [e["type"] for e in done["events"]] == ["RoundEntered", "RoundEnded", "MatchEnded"]

    # the first table: Ann, Ben and Cid
    entered = [
        {"winner": 0, "points": [0, 40, 25], "missed_calls": [0, 1, 0]},
        {"winner": 1, "hands": [["KC", "QC", "JC"], [], ["10H", "9H"]]},
        {"winner": 2, "points": [35, 40, 0]},
    ]
    post(client, f"{one}/rounds", entered[0], ann[1])
    post(client, f"{one}/rounds/1/confirmation", {}, ben[1])
    second_round = post(client, f"{one}/rounds", entered[1], ben[1])
    post(client, f"{one}/rounds", entered[2], rita_headers)  # a referee at the table writes one down

    # Cid disputes round 2: Ann held two cards, not three, and he a 2 more
    about = second_round["events"][0]["number"]
    post(client, f"{one}/disputes", {"reason": "round 2 is wrong", "about": about}, cid[1])
    refused = client.post(f"{one}/rounds", json={"winner": 0, "points": [0, 5, 5]}, headers=ann[1])
    problem(refused, 409, "game_paused")
    corrected = {"winner": 1, "hands": [["KC", "QC"], [], ["10H", "9H", "2S"]]}
    ruling = post(client, f"{one}/rulings", {"kind": "correct", "round": 2, **corrected}, rita_headers)
    assert [e["type"] for e in ruling["events"]] == ["RulingGiven", "RoundEnded", "RoundEnded"]
    last = {"winner": 0, "points": [0, 30, 10]}
    ended = post(client, f"{one}/rounds", last, ann[1])
    first_entries = [entered[0], corrected, entered[2], last]

    first_totals, first_winners, first_won = expected_match(first_entries, 3)
    second_totals, second_winners, second_won = expected_match(second_entries, 2)
    assert first_winners == [0]  # the correction gave Ann the match (before it, Cid was lowest)

    sheet = club.ok("GET", f"{one}/rounds", headers={})
    assert sheet["in_person"] and sheet["over"] and sheet["winners"] == first_winners
    assert sheet["totals"] == first_totals
    assert [r["points"] for r in sheet["rounds"]] == [club_points(e, 3) for e in first_entries]
    assert sheet["rounds"][0]["entered_by"]["name"] == club.ok("GET", f"/players/{ann[0]}")["name"]
    assert sheet["rounds"][0]["confirmed_by"] == [1]
    assert sheet["rounds"][0]["entry"]["missed_calls"] == [0, 1, 0]
    round_two = sheet["rounds"][1]
    assert round_two["entry"]["hands"] == corrected["hands"]
    [correction] = round_two["corrections"]
    assert correction["by"] == {"role": "referee", "id": rita, "name": "Rita"}
    assert correction["replaced"]["hands"] == entered[1]["hands"]
    assert sheet["rounds"][2]["entered_by"]["role"] == "referee"

    # the log keeps the entry replaced and the ruling, each in the open
    log = club.ok("GET", f"{one}/events", headers={})
    kinds = [e["type"] for e in log["events"]]
    assert kinds.count("RoundEntered") == 4 and kinds.count("RulingGiven") == 1
    assert "RoundConfirmed" in kinds
    first_entry = next(e for e in log["events"] if e["type"] == "RoundEntered")
    assert first_entry["data"]["entry"]["points"] == [0, 40, 25]
    ruled = next(e for e in log["events"] if e["type"] == "RulingGiven")
    assert ruled["data"]["ruling"]["entry"]["hands"] == corrected["hands"]
    replay = club.ok("GET", f"{one}/replay", headers=rita_headers)
    assert replay["at"] == ended["version"] and replay["table"]["stock"] == []

    position = max(ended["position"], done["position"])
    totals = club.ok("GET", f"{one}/totals?after={position}", headers={})
    assert totals["totals"] == first_totals and totals["winners"] == first_winners

    standings = club.ok("GET", f"/leagues/{league}/standings?after={position}", headers={})
    rows = {row["player_id"]: row for row in standings["rows"]}
    seats = [
        (ann, 0, first_totals, first_winners, first_won, 4),
        (ben, 1, first_totals, first_winners, first_won, 4),
    ]
    seats += [(cid, 2, first_totals, first_winners, first_won, 4)]
    seats += [
        (dot, 0, second_totals, second_winners, second_won, 2),
        (eve, 1, second_totals, second_winners, second_won, 2),
    ]
    for (player_id, _), seat, match_totals, winners, won, rounds in seats:
        row = rows[player_id]
        assert row["matches_played"] == 1
        assert row["matches_won"] == int(winners == [seat])
        assert row["points"] == match_totals[seat]
        assert row["rounds_played"] == rounds and row["rounds_won"] == won[seat]
    assert rows[ben[0]]["missed_calls"] == 1 and rows[ben[0]]["penalty_cards"] == 2
    assert rows[ann[0]]["missed_calls"] == 0

    history = club.ok("GET", f"/players/{ann[0]}/games?after={position}", headers={})
    [line] = history["games"]
    assert (line["result"], line["total"], line["rounds"]) == ("won", first_totals[0], 4)
    listed = club.ok("GET", f"/games?league={league}&status=over&after={position}", headers={})
    assert {item["game_id"] for item in listed["items"]} == {first["game_id"], second["game_id"]}

    ratings = club.ok("GET", f"/leagues/{league}/ratings?after={position}", headers={})
    rated = {row["player_id"]: row for row in ratings["rows"]}
    model = PlackettLuce()
    for group, match_totals in (([ann, ben, cid], first_totals), ([dot, eve], second_totals)):
        # the lowest total first; equal totals share a place
        ranks = [1 + sum(other < total for other in match_totals) for total in match_totals]
        expected = model.rate([[model.rating()] for _ in group], ranks=ranks)
        for (player_id, _), (new,) in zip(group, expected, strict=True):
            assert (rated[player_id]["mu"], rated[player_id]["sigma"]) == (new.mu, new.sigma)


def in_person_game(club: Club, seats: int = 3, **body: Any) -> tuple[dict[str, Any], list[tuple[str, dict]]]:
    players = [club.player() for _ in range(seats)]
    game = club.game([p for p, _ in players], in_person=True, **body)
    return game, players


IMPOSSIBLE = [
    ({"winner": 0, "points": [0, 5]}, 422, "seat_count"),
    ({"winner": 3, "points": [0, 5, 5]}, 422, "not_a_seat"),
    ({"winner": 0, "points": [0, 5, 5], "hands": [[], ["5C"], ["5D"]]}, 422, "invalid_entry"),
    ({"winner": 0}, 422, "invalid_entry"),
    ({"winner": 0, "hands": [[], ["KC"], ["KC"]]}, 422, "card_entered_twice"),
    ({"winner": 0, "hands": [["2C"], ["KC"], ["QC"]]}, 422, "winner_holds_cards"),
    ({"winner": 0, "hands": [[], [], []]}, 422, "loser_without_cards"),
    ({"winner": None, "points": [0, 0, 5]}, 422, "loser_without_cards"),
    ({"winner": 0, "points": [0, 1, 5]}, 422, "impossible_points"),
    ({"winner": None, "points": [200, 170, 5]}, 422, "impossible_points"),
    ({"winner": 0, "hands": [[], ["1C"], ["5D"]]}, 400, "malformed_request"),
    ({"winner": -1, "points": [0, 5, 5]}, 400, "malformed_request"),
    ({"winner": 0, "points": [0, -5, 5]}, 400, "malformed_request"),
    ({"winner": 0, "points": [0, 5, 5], "seat": 1}, 400, "malformed_request"),
    ({"winner": 0, "points": [0, 5, 5], "version": 99}, 409, "stale_version"),
]


@pytest.mark.parametrize(("body", "status", "code"), IMPOSSIBLE, ids=[c for _, _, c in IMPOSSIBLE])
def test_an_impossible_score_sheet_is_refused_with_its_code_and_stores_nothing(
    client, club, body, status, code
):
    game, players = in_person_game(club)
    path = f"/games/{game['game_id']}"
    with club.unchanged():
        problem(client.post(f"{path}/rounds", json=body, headers=players[1][1]), status, code)
    assert club.ok("GET", f"{path}/rounds", headers={})["version"] == game["version"]


def test_a_card_mau_mau_150_plays_without_is_refused_at_its_tables(client, club):
    game, players = in_person_game(club, ruleset="mau-mau-150")
    body = {"winner": 0, "hands": [[], ["2C"], ["KC"]]}
    with club.unchanged():
        problem(
            client.post(f"/games/{game['game_id']}/rounds", json=body, headers=players[0][1]),
            422,
            "card_not_in_deck",
        )


def test_more_cards_than_the_deck_holds_leave_no_top_card_and_are_refused(client, club):
    game, players = in_person_game(club, seats=2)
    deck = [f"{rank}{suit}" for suit in "CDHS" for rank in [*map(str, range(2, 11)), "J", "Q", "K", "A"]]
    body = {"winner": None, "hands": [deck[:26], deck[26:]]}
    with club.unchanged():
        problem(
            client.post(f"/games/{game['game_id']}/rounds", json=body, headers=players[0][1]),
            422,
            "too_many_cards",
        )


def test_moves_bots_and_a_chosen_deck_are_refused_at_a_real_table(client, club):
    game, players = in_person_game(club, seats=2)
    with club.unchanged():
        move = {"kind": "draw", "version": game["version"]}
        problem(
            client.post(f"/games/{game['game_id']}/moves", json=move, headers=players[0][1]),
            409,
            "played_in_person",
        )
        seats = [players[0][0], "bot:heuristic"]
        problem(
            client.post("/games", json={"seats": seats, "in_person": True}, headers=ADMIN),
            422,
            "bots_not_at_real_tables",
        )
        seats = [players[0][0], players[1][0]]
        body = {"seats": seats, "in_person": True, "first_dealer": 0}
        problem(client.post("/games", json=body, headers=ADMIN), 409, "played_in_person")


def test_a_round_is_confirmed_by_another_player_once_and_never_by_its_scorer(client, club):
    game, players = in_person_game(club)
    path = f"/games/{game['game_id']}"
    post(client, f"{path}/rounds", {"winner": 0, "points": [0, 5, 7]}, players[0][1])
    outsider = club.player()[1]
    with club.unchanged():
        problem(
            client.post(f"{path}/rounds/1/confirmation", json={}, headers=players[0][1]), 403, "own_entry"
        )
        problem(
            client.post(f"{path}/rounds/2/confirmation", json={}, headers=players[1][1]), 404, "no_such_round"
        )
        problem(client.post(f"{path}/rounds/1/confirmation", json={}, headers=outsider), 403, "not_seated")
        problem(client.post(f"{path}/rounds/1/confirmation", json={}, headers=ADMIN), 403, "not_seated")
        problem(client.post(f"{path}/rounds/1/confirmation", json={}), 401, "unauthorized")
        problem(
            client.post(f"{path}/rounds", json={"winner": 0, "points": [0, 5, 7]}, headers=outsider),
            403,
            "not_seated",
        )
    post(client, f"{path}/rounds/1/confirmation", {}, players[2][1])
    with club.unchanged():
        problem(
            client.post(f"{path}/rounds/1/confirmation", json={}, headers=players[2][1]),
            409,
            "already_confirmed",
        )
    assert club.ok("GET", f"{path}/rounds", headers={})["rounds"][0]["confirmed_by"] == [2]


def test_a_round_of_a_game_played_here_is_neither_entered_nor_corrected(client, club):
    ada, ada_headers = club.player()
    game = club.game([ada, "bot:random"])
    path = f"/games/{game['game_id']}"
    with club.unchanged():
        problem(
            client.post(f"{path}/rounds", json={"winner": 0, "points": [0, 5]}, headers=ada_headers),
            409,
            "not_in_person",
        )
    post(client, f"{path}/disputes", {"reason": "?"}, ada_headers)
    with club.unchanged():
        ruling = {"kind": "correct", "round": 1, "winner": 0, "points": [0, 5]}
        problem(client.post(f"{path}/rulings", json=ruling, headers=ADMIN), 409, "not_in_person")


def test_a_retried_entry_with_its_idempotency_key_is_stored_once(client, club):
    game, players = in_person_game(club, seats=2)
    path = f"/games/{game['game_id']}/rounds"
    headers = {**players[0][1], "Idempotency-Key": "sheet-round-1"}
    first = post(client, path, {"winner": 0, "points": [0, 9]}, headers)
    with club.unchanged():
        again = post(client, path, {"winner": 0, "points": [0, 9]}, headers)
    assert again["version"] == first["version"]
    assert len(club.ok("GET", path, headers={})["rounds"]) == 1


def test_a_sheet_may_name_the_card_that_went_out_and_reads_it_back(client, club):
    game, players = in_person_game(club, seats=2)
    path = f"/games/{game['game_id']}"
    body = {"winner": 1, "hands": [["KC", "7D"], []], "last_card": "9D"}
    post(client, f"{path}/rounds", body, players[0][1])
    sheet = club.ok("GET", f"{path}/rounds", headers={})
    assert sheet["rounds"][0]["entry"]["last_card"] == "9D"
    assert sheet["rounds"][0]["points"] == [17, 0]  # club scores no card that went out


LAST_CARD_REFUSED = [
    ({"winner": None, "points": [5, 7], "last_card": "9D"}, 422, "invalid_entry"),
    ({"winner": 1, "hands": [["9D"], []], "last_card": "9D"}, 422, "card_entered_twice"),
    ({"winner": 1, "points": [5, 0], "last_card": "2C"}, 422, "card_not_in_deck"),
    ({"winner": 1, "points": [5, 0], "last_card": "1C"}, 400, "malformed_request"),
]


@pytest.mark.parametrize(
    ("body", "status", "code"), LAST_CARD_REFUSED, ids=[c for _, _, c in LAST_CARD_REFUSED]
)
def test_a_card_that_cannot_have_gone_out_is_refused_and_stores_nothing(client, club, body, status, code):
    game, players = in_person_game(club, seats=2, ruleset="mau-mau-150")
    path = f"/games/{game['game_id']}"
    with club.unchanged():
        problem(client.post(f"{path}/rounds", json=body, headers=players[1][1]), status, code)
