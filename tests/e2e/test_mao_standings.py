"""A Mao match played to its end over HTTP counts in its league's standings, read right after."""

from tests.e2e.mao import mao_table
from tests.e2e.test_mao_match import play_round_one


def test_a_mao_match_won_over_http_counts_in_the_leagues_standings(client):
    t = mao_table(client, rounds_to_win=1)
    play_round_one(t)  # Ada goes out: one round won is the match
    assert t.ok("bo", "GET", "")["phase"] == "over"

    standings = t.club.ok("GET", f"/leagues/{t.league}/standings", headers=t.headers["ada"])
    rows = {row["player_id"]: row for row in standings["rows"]}
    ada, bo, outsider = rows[t.ids["ada"]], rows[t.ids["bo"]], rows[t.ids["outsider"]]
    assert (ada["rank"], ada["matches_played"], ada["matches_won"]) == (1, 1, 1)
    assert (ada["rounds_played"], ada["rounds_won"], ada["points"]) == (1, 1, 1)
    assert (bo["matches_played"], bo["matches_won"], bo["rounds_won"], bo["points"]) == (1, 0, 0, 0)
    assert outsider["matches_played"] == 0  # a member who did not play keeps zeros
    assert bo["rank"] == outsider["rank"] == 2
