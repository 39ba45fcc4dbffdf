"""A Mao match played to its end over HTTP counts in its league's standings, read right after."""

from tests.e2e.club import problem
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
    assert outsider["matches_played"] == 0  # a member who did not play keeps zeros, unranked, last
    assert (bo["rank"], outsider["rank"]) == (2, None)
    assert standings["rows"][-1]["player_id"] == t.ids["outsider"]


def test_a_leagues_mao_matches_are_listed_with_their_status_the_newest_first(client):
    t = mao_table(client, rounds_to_win=1)
    play_round_one(t)
    body = {"league_id": t.league, "seats": [t.ids["bo"], t.ids["ada"], "bot:random"], "judge": "server"}
    newer = t.club.ok("POST", "/mao-games", headers=t.headers["rita"], json=body)["game_id"]

    listed = t.club.ok("GET", f"/mao-games?league={t.league}", headers=t.headers["rita"])
    assert [item["game_id"] for item in listed["items"]] == [newer, t.game_id]
    playing, over = listed["items"]
    assert (playing["status"], playing["round_no"], playing["winner"]) == ("playing", 1, None)
    assert (over["status"], over["round_no"], over["wins"], over["winner"]) == ("over", 1, [1, 0, 0], 0)
    names = {seat["entrant"]: seat["name"] for seat in over["seats"]}
    assert names["bot:learning"] == "bot:learning" and names[t.ids["ada"]] != t.ids["ada"]

    finished = t.club.ok("GET", f"/mao-games?league={t.league}&status=over", headers=t.headers["rita"])
    assert [item["game_id"] for item in finished["items"]] == [t.game_id]
    first = t.club.ok("GET", f"/mao-games?league={t.league}&limit=1", headers=t.headers["rita"])
    rest = t.club.ok("GET", f"/mao-games?league={t.league}&limit=1&cursor={first['next']}")
    assert [item["game_id"] for item in first["items"] + rest["items"]] == [newer, t.game_id]
    assert rest["next"] is None
    other = t.club.league([t.ids["ada"]], [t.ids["rita"]], ruleset="mao")
    assert t.club.ok("GET", f"/mao-games?league={other}", headers=t.headers["rita"])["items"] == []


def test_a_mao_listing_with_a_bad_filter_or_cursor_is_refused(client):
    t = mao_table(client)
    for query, status, code in (
        ("league=nope", 400, "invalid_filter"),
        ("status=paused", 400, "invalid_filter"),
        ("cursor=garbage", 422, "invalid_cursor"),
    ):
        problem(client.get(f"/mao-games?{query}"), status, code)
    assert t.club.ok("GET", f"/mao-games?league={t.league}", headers=t.headers["rita"])["items"]
