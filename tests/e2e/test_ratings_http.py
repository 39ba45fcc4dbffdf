"""A league's ratings and a player's rating history over HTTP."""

from uuid import uuid4

from openskill.models import PlackettLuce

from tests.e2e.club import problem
from tests.integration.tables import play_out


def test_a_finished_league_match_rates_its_players_as_openskill_does_and_shows_beside_the_standings(
    client, club
):
    ada, _ = club.player("Ada")
    bob, _ = club.player("Bob")
    league = club.league(members=[ada, bob], options={"single_round": True})
    game = club.game([ada, bob], league_id=league)
    play_out(club.app, game["game_id"], seed=21)
    position = club.log_position()

    ratings = club.ok("GET", f"/leagues/{league}/ratings?after={position}", headers={})
    assert ratings["position"] >= position
    assert (ratings["model"], ratings["provisional_matches"]) == ("PlackettLuce", 5)
    totals = club.ok("GET", f"/games/{game['game_id']}/totals", headers={})
    winner = [ada, bob][totals["winners"][0]] if len(totals["winners"]) == 1 else None
    model = PlackettLuce()
    ranks = [1, 1] if winner is None else [1 if player == winner else 2 for player in (ada, bob)]
    expected = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
    rows = {row["player_id"]: row for row in ratings["rows"]}
    for player, (new,) in zip((ada, bob), expected, strict=True):
        row = rows[player]
        assert (row["mu"], row["sigma"]) == (new.mu, new.sigma)
        assert row["rating"] == row["mu"] - 3 * row["sigma"]
        assert row["matches"] == 1 and row["provisional"]
    assert [row["rank"] for row in ratings["rows"]] == ([1, 1] if winner is None else [1, 2])

    standings = club.ok("GET", f"/leagues/{league}/standings?after={position}", headers={})
    assert {row["player_id"]: row["rating"] for row in standings["rows"]} == {
        player: row["rating"] for player, row in rows.items()
    }

    history = club.ok("GET", f"/players/{ada}/ratings?after={position}", headers={})
    assert history["player_id"] == ada
    [change] = history["history"]
    assert (change["league_id"], change["game_id"]) == (league, game["game_id"])
    assert (change["mu"], change["sigma"], change["rating"]) == (
        rows[ada]["mu"],
        rows[ada]["sigma"],
        rows[ada]["rating"],
    )
    assert change["place"] == (1 if winner in (None, ada) else 2) and not change["clock_played"]


def test_a_league_without_a_rated_match_has_no_rows_and_a_player_without_one_no_history(client, club):
    ada, _ = club.player("Ada")
    league = club.league(members=[ada])
    position = club.log_position()
    assert club.ok("GET", f"/leagues/{league}/ratings?after={position}", headers={})["rows"] == []
    assert club.ok("GET", f"/players/{ada}/ratings?after={position}", headers={})["history"] == []


def test_the_ratings_of_an_unknown_league_or_player_are_refused_with_their_codes(client):
    unknown = uuid4()
    problem(client.get(f"/leagues/{unknown}/ratings"), 404, "league_not_found")
    problem(client.get(f"/players/{unknown}/ratings"), 404, "player_not_found")
    problem(client.get(f"/leagues/{unknown}/ratings?after=oops"), 400, "malformed_request")
