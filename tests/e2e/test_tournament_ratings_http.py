"""A tournament seeded and tie-broken by the league's ratings, over HTTP: the ratings come from
finished league games, the seed order and the ranking follow ``GET /leagues/{id}/ratings``
(docs/ratings.md, docs/tournaments.md)."""

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import pytest

from tests.e2e.club import Club
from tests.integration.tables import play_out
from workers.conduct import Conductor
from workers.inline import Inline

RATED = {
    "name": "Rated cup",
    "format": "swiss",
    "table_size": 2,
    "rounds": 2,
    "single_round": True,
    "seeding": "rating",
    "rating_tie_break": True,
}
# league games between the rated players, so their ratings differ (Eve plays none: unrated)
MEETINGS = (("ada", "bob", 1), ("cat", "dan", 2), ("ada", "cat", 3), ("bob", "dan", 4), ("ada", "dan", 5))


@pytest.fixture(scope="module")
def rated(club: Club) -> tuple[str, dict[str, str], dict[str, float]]:
    """A league of its own whose players have different ratings: its id, the players' ids by name, and
    the ratings as ``GET /leagues/{id}/ratings`` answers them (player id: rating)."""
    ids = {name: club.player(f"{name.title()} the rated")[0] for name in ("ada", "bob", "cat", "dan", "eve")}
    league = club.league(members=list(ids.values()), options={"single_round": True})
    for first, second, seed in MEETINGS:
        game = club.game([ids[first], ids[second]], league_id=league)
        play_out(club.app, UUID(game["game_id"]), seed=seed)
    found = club.ok("GET", f"/leagues/{league}/ratings?after={club.log_position()}", headers={})
    ratings = {row["player_id"]: row["rating"] for row in found["rows"]}
    assert sorted(ratings) == sorted(ids[name] for name in ("ada", "bob", "cat", "dan"))
    assert len(set(ratings.values())) > 1  # else ordering by them would prove nothing
    return league, ids, ratings


def announced(club: Club, league: str, entrants: list[str], **plan: Any) -> tuple[str, dict[str, Any]]:
    view = club.ok("POST", f"/leagues/{league}/tournaments", json={**RATED, **plan})
    path = f"/tournaments/{view['tournament_id']}"
    for player_id in entrants:
        view = club.ok("POST", f"{path}/entrants", json={"player_id": player_id})
    return path, view


def check_seeded_by(view: dict[str, Any], ratings: dict[str, float]) -> None:
    """The seed order and the ranking before any result: the players by rating, the best first (an
    unrated one at the starting 0.0), the bots last; each placing shows the rating recorded."""
    order = view["entrants"]
    players = [entrant for entrant in order if not entrant.startswith("bot:")]
    assert order[: len(players)] == players  # bots after every player
    recorded = [ratings.get(player, 0.0) for player in players]
    assert recorded == sorted(recorded, reverse=True)
    assert [placing["entrant"] for placing in view["ranking"]] == order
    assert {p["entrant"]: p["rating"] for p in view["ranking"]} == {
        entrant: None if entrant.startswith("bot:") else ratings.get(entrant, 0.0) for entrant in order
    }
    # swiss round 1 seats the two best of the ranking together
    assert sorted(view["rounds"][0]["tables"][0]["entrants"]) == sorted(order[:2])


def test_a_swiss_seeded_by_rating_started_over_http_follows_the_leagues_ratings(client, club, rated):
    league, ids, ratings = rated
    entrants = [ids[name] for name in ("eve", "dan", "cat", "bob", "ada")]  # joining order: no help
    path, view = announced(club, league, entrants, places=6)
    assert (view["seeding"], view["rating_tie_break"]) == ("rating", True)
    assert "rating" in view["tie_breaks"] and "league rating" in view["rule"]

    started = club.ok("POST", f"{path}/start")
    assert started["status"] == "running" and len(started["entrants"]) == 6
    check_seeded_by(started, ratings)
    read = club.ok("GET", f"{path}?after={started['position']}", headers={})
    assert (read["entrants"], read["ranking"]) == (started["entrants"], started["ranking"])


def test_the_workers_start_a_rated_tournament_at_its_time_with_the_ratings_of_the_read_models(
    client, club, rated
):
    league, ids, ratings = rated
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    path, view = announced(club, league, [ids[name] for name in ("bob", "cat", "dan")], starts_at=past)
    reader = client.app.state.services.reader
    Conductor(club.app, Inline(), ratings=reader.ordinals).conduct_tournament(UUID(view["tournament_id"]))
    started = club.ok("GET", f"{path}?after={club.log_position()}", headers={})
    assert started["status"] == "running"
    check_seeded_by(started, ratings)


def test_a_draw_seeded_tournament_records_no_rating_and_does_not_name_it_in_its_rule(client, club, rated):
    league, ids, _ = rated
    path, view = announced(club, league, [ids["ada"], ids["bob"]], seeding="draw", rating_tie_break=False)
    assert "rating" not in view["tie_breaks"] and "rating" not in view["rule"]
    started = club.ok("POST", f"{path}/start")
    assert [placing["rating"] for placing in started["ranking"]] == [None, None]


def test_seeding_and_the_tie_break_are_edited_before_the_start(client, club, rated):
    league, ids, ratings = rated
    path, view = announced(club, league, [ids["ada"], ids["cat"]], seeding="draw", rating_tie_break=False)
    edited = club.ok("PATCH", path, json={"seeding": "rating", "rating_tie_break": True})
    assert (edited["seeding"], edited["rating_tie_break"]) == ("rating", True)
    assert edited["position"] > view["position"]
    check_seeded_by(club.ok("POST", f"{path}/start"), ratings)


@pytest.mark.parametrize(
    "bad",
    [
        {"seeding": "elo"},
        {"seeding": None},
        {"seeding": 1},
        {"rating_tie_break": "yes"},
        {"rating_tie_break": 1},
    ],
)
def test_bad_seeding_or_tie_break_values_are_refused_and_change_nothing(client, club, rated, bad):
    league, ids, _ = rated
    club.refuses("POST", f"/leagues/{league}/tournaments", 400, "malformed_request", json={**RATED, **bad})
    path, _ = announced(club, league, [ids["ada"], ids["bob"]])
    found = club.refuses("PATCH", path, 400, "malformed_request", json=bad)
    assert found["detail"]
