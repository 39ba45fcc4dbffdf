"""The lists (players, leagues, games, tournaments, open disputes), ``/me`` and names beside ids, over HTTP.

Every list is read with ``?after=`` the log's position, so it shows what was just written.
"""

import uuid
from typing import Any

from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.e2e.club import ADMIN, ADMIN_TOKEN, Club, problem
from tests.integration.tables import play_out


def every_page(club: Club, path: str, limit: int, headers: dict[str, str] = ADMIN) -> list[list[Any]]:
    """Each page's items, from the first page to the one whose ``next`` is null."""
    joiner = "&" if "?" in path else "?"
    after = club.log_position()
    pages: list[list[Any]] = []
    cursor = None
    while True:
        tail = f"{joiner}limit={limit}&after={after}" + (f"&cursor={cursor}" if cursor else "")
        page = club.ok("GET", path + tail, headers=headers)
        assert len(page["items"]) <= limit and page["position"] >= after
        pages.append(page["items"])
        cursor = page["next"]
        if cursor is None:
            return pages
        assert len(pages) < 1000, "the pages never end"


def ids(pages: list[list[Any]], key: str) -> list[str]:
    return [item[key] for page in pages for item in page]


def test_paging_through_players_found_by_name_gives_each_exactly_once_by_name(client, club):
    mark = uuid.uuid4().hex[:8]
    made = {club.player(f"Pager {mark} {n:02d}")[0]: f"Pager {mark} {n:02d}" for n in reversed(range(23))}
    pages = every_page(club, f"/players?q=PAGER%20{mark.upper()}", limit=5)
    assert [len(page) for page in pages] == [5, 5, 5, 5, 3]
    listed = [(item["player_id"], item["name"]) for page in pages for item in page]
    assert listed == sorted(made.items(), key=lambda pair: pair[1])  # by name, each once
    assert every_page(club, f"/players?q=pager%20{mark}", limit=5) == pages  # the same again
    assert every_page(club, f"/players?q={mark}%25", limit=5) == [[]]  # % is a character, not a wildcard


def finds_names_in_any_case_and_script(club: Club) -> None:
    """Names in Cyrillic, with an ß and with accents are found by a part in any case (``q``)."""
    mark = uuid.uuid4().hex[:6]
    names = {
        "yuriy": f"Юрій {mark}",
        "olena": f"Олена ЮРЧЕНКО {mark}",
        "strasse": f"Straße {mark}",
        "odon": f"Ödön {mark}",
        "ada": f"Ada {mark}",
    }
    made = {club.player(name)[0]: key for key, name in names.items()}

    def found(q: str) -> set[str]:
        items = [item for page in every_page(club, f"/players?q={q}", limit=100) for item in page]
        return {made[item["player_id"]] for item in items if item["player_id"] in made}

    for q in ("Юр", "ЮР", "юр", "юР"):
        assert found(q) == {"yuriy", "olena"}, q
    assert found("ій") == found("ІЙ") == {"yuriy"}
    assert found("STRASSE") == found("straße") == found("STRAẞE") == {"strasse"}
    assert found("ÖDÖN") == found("o\u0308d") == {"odon"}  # the second typed decomposed
    assert found(f"ADA {mark.upper()}") == {"ada"}


def test_a_player_is_found_by_a_part_of_the_name_in_any_case_and_script_on_postgresql(client, club):
    finds_names_in_any_case_and_script(club)


def test_a_player_is_found_by_a_part_of_the_name_in_any_case_and_script_on_sqlite(tmp_path):
    settings = Settings(data_dir=tmp_path / "var", admin_token=ADMIN_TOKEN)
    with TestClient(create_app(settings)) as embedded:
        finds_names_in_any_case_and_script(Club(embedded))


def test_paging_through_every_league_gives_each_once_in_name_then_id_order(client, club):
    mark = uuid.uuid4().hex[:8]
    made = {club.league(name=f"{mark} league {n}") for n in range(3)}
    made.add(club.league(name=f"{mark} league 1"))  # two leagues of one name: the id orders them
    listed = [
        (item["name"], item["league_id"]) for page in every_page(club, "/leagues", limit=4) for item in page
    ]
    assert len(listed) == len(set(listed)) and listed == sorted(listed)
    assert made <= {league_id for _, league_id in listed}
    ours = [league_id for name, league_id in listed if name.startswith(mark)]
    assert len(ours) == 4 and ours == [
        league_id for _, league_id in sorted((n, i) for n, i in listed if i in made)
    ]


def test_games_are_listed_newest_first_by_league_player_and_status(client, club):
    ada, _ = club.player()
    bea, _ = club.player()
    cyd, _ = club.player()
    league = club.league(members=[ada, bea, cyd])
    games = [club.game([ada, bea], league_id=league, options={"single_round": True}) for _ in range(4)]
    games.append(club.game([bea, cyd], league_id=league))
    friendly = club.game([ada, "bot:random"])
    play_out(club.app, uuid.UUID(games[0]["game_id"]), seed=1)
    club.ok("POST", f"/games/{games[1]['game_id']}/disputes", json={"reason": "a card fell"})

    newest_first = [game["game_id"] for game in reversed(games)]
    assert ids(every_page(club, f"/games?league={league}", limit=2), "game_id") == newest_first
    by_ada = ids(every_page(club, f"/games?player={ada}", limit=2), "game_id")
    assert by_ada == [friendly["game_id"], *newest_first[1:]]
    by_status = {
        status: ids(every_page(club, f"/games?league={league}&status={status}", limit=10), "game_id")
        for status in ("playing", "paused", "over")
    }
    assert by_status == {
        "over": [games[0]["game_id"]],
        "paused": [games[1]["game_id"]],
        "playing": [game["game_id"] for game in reversed(games[2:])],
    }
    both = every_page(club, f"/games?league={league}&player={cyd}&status=playing", limit=10)
    assert ids(both, "game_id") == [games[4]["game_id"]]
    (item,) = both[0]
    assert item["status"] == "playing" and item["league_id"] == league
    assert [(seat["player_id"], seat["name"]) for seat in item["seats"]] == [
        (bea, club.ok("GET", f"/players/{bea}")["name"]),
        (cyd, club.ok("GET", f"/players/{cyd}")["name"]),
    ]
    assert "hands" not in str(item) and "cards" in item["seats"][0]  # a count, never which


def test_tournaments_are_listed_latest_first_by_league_and_status(client, club):
    ada, _ = club.player()
    league = club.league(members=[ada])
    plan = {"format": "swiss", "table_size": 2, "rounds": 1, "places": 2}
    made = [
        club.ok("POST", f"/leagues/{league}/tournaments", json={"name": f"Cup {n}", **plan})["tournament_id"]
        for n in range(3)
    ]
    club.ok("POST", f"/tournaments/{made[1]}/start")
    listed = every_page(club, f"/tournaments?league={league}", limit=2)
    assert ids(listed, "tournament_id") == made[::-1]
    assert [item["name"] for item in listed[0]] == ["Cup 2", "Cup 1"]
    running = every_page(club, f"/tournaments?league={league}&status=running", limit=2)
    assert ids(running, "tournament_id") == [made[1]]
    assert running[0][0]["entrants"] == 2 and running[0][0]["rounds"] == 1
    announced = ids(
        every_page(club, f"/tournaments?league={league}&status=announced", limit=2), "tournament_id"
    )
    assert announced == [made[2], made[0]]
    everywhere = ids(every_page(club, "/tournaments?status=running", limit=50), "tournament_id")
    assert made[1] in everywhere and made[0] not in everywhere


def test_open_disputes_are_listed_to_those_who_may_rule_on_them(client, club):
    ada, ada_headers = club.player()
    bea, _ = club.player()
    rita, rita_headers = club.referee("Rita")
    otto, otto_headers = club.referee("Otto")
    ours = club.league(members=[ada, bea], referees=[rita])
    club.league(referees=[otto])
    league_game = club.game([ada, bea], league_id=ours)
    friendly = club.game([ada, "bot:random"])
    quiet = club.game([ada, bea], league_id=ours)  # no dispute: never listed
    for game in (league_game, friendly):
        club.ok("POST", f"/games/{game['game_id']}/disputes", json={"reason": "why?"}, headers=ada_headers)

    def listed(headers: dict[str, str]) -> list[str]:
        return ids(every_page(club, "/disputes", limit=1, headers=headers), "game_id")

    by_rita, by_otto, by_admin = listed(rita_headers), listed(otto_headers), listed(ADMIN)
    assert by_rita.index(league_game["game_id"]) < by_rita.index(friendly["game_id"])  # longest waiting first
    assert league_game["game_id"] not in by_otto and friendly["game_id"] in by_otto
    assert {league_game["game_id"], friendly["game_id"]} <= set(by_admin)
    assert quiet["game_id"] not in by_admin
    page = club.ok("GET", f"/disputes?limit=100&after={club.log_position()}", headers=rita_headers)
    (item,) = [item for item in page["items"] if item["game_id"] == league_game["game_id"]]
    assert item["league_id"] == ours and item["raised_by"] == "player" and item["raised_by_id"] == ada
    assert item["raised_by_name"] == club.ok("GET", f"/players/{ada}")["name"] and item["reason"] == "why?"
    assert item["seat"] == 0 and item["number"] == 1

    club.ok("POST", f"/games/{league_game['game_id']}/rulings", json={"kind": "resume"}, headers=rita_headers)
    assert league_game["game_id"] not in listed(rita_headers)  # ruled on: no longer open
    with club.unchanged():
        problem(client.get("/disputes", headers=ada_headers), 403, "forbidden")
        problem(client.get("/disputes"), 401, "unauthorized")


def test_me_says_who_each_token_is(client, club):
    ada, ada_headers = club.player("Ada Me")
    rita, rita_headers = club.referee("Rita Me")
    member_of = club.league(name="Me league", members=[ada], referees=[rita])
    club.league(name="Another league", referees=[rita])
    after = club.log_position()
    me = club.ok("GET", f"/me?after={after}", headers=ada_headers)
    assert (me["role"], me["id"], me["name"]) == ("player", ada, "Ada Me")
    assert me["leagues"] == [{"league_id": member_of, "name": "Me league"}]
    me = club.ok("GET", f"/me?after={after}", headers=rita_headers)
    assert (me["role"], me["id"], me["name"]) == ("referee", rita, "Rita Me")
    assert [league["name"] for league in me["leagues"]] == ["Another league", "Me league"]
    me = club.ok("GET", "/me")
    assert (me["role"], me["id"], me["name"], me["leagues"]) == ("admin", "env", None, [])
    minted = club.ok("POST", "/players", json={"name": "Fresh"})  # read at once: no ?after=
    me = club.ok("GET", "/me", headers={"Authorization": f"Bearer {minted['token']['token']}"})
    assert me["name"] == "Fresh"
    problem(client.get("/me"), 401, "unauthorized")


def test_bad_filters_cursors_and_limits_are_refused_and_change_nothing(client: TestClient[Any], club):
    league = club.league()
    first = club.ok("GET", "/players?limit=1")
    assert first["next"] is not None
    games_cursor = club.ok("GET", "/games?limit=1")["next"]
    for path, status, code in (
        ("/games?status=finished", 400, "invalid_filter"),
        ("/tournaments?status=over", 400, "invalid_filter"),
        ("/games?league=not-a-uuid", 400, "invalid_filter"),
        ("/games?player=1234", 400, "invalid_filter"),
        ("/tournaments?league=xyz", 400, "invalid_filter"),
        ("/players?cursor=garbage!", 422, "invalid_cursor"),
        ("/games?cursor=AAAA", 422, "invalid_cursor"),
        (f"/players?cursor={games_cursor}", 422, "invalid_cursor"),  # another list's
        (f"/games?league={league}&cursor={games_cursor}", 422, "invalid_cursor"),  # other filters
        (f"/players?q=zz&cursor={first['next']}", 422, "invalid_cursor"),
        ("/players?limit=0", 400, "malformed_request"),
        ("/leagues?limit=101", 400, "malformed_request"),
        ("/games?limit=x", 400, "malformed_request"),
        ("/players?q=", 400, "malformed_request"),
    ):
        with club.unchanged():
            problem(client.get(path, headers=ADMIN), status, code)
    assert club.ok("GET", f"/players?limit=1&cursor={first['next']}")["items"] != first["items"]


def test_names_stand_beside_ids_in_leagues_histories_replays_views_standings_and_brackets(client, club):
    ada, ada_headers = club.player("Ada Named")
    bea, _ = club.player("Bea Named")
    rita, rita_headers = club.referee("Rita Named")
    league = club.league(members=[ada, bea], referees=[rita])
    assert club.ok("GET", f"/leagues/{league}")["names"] == {
        ada: "Ada Named",
        bea: "Bea Named",
        rita: "Rita Named",
    }
    game = club.game([ada, bea, "bot:random"], league_id=league, options={"single_round": True})
    play_out(club.app, uuid.UUID(game["game_id"]), seed=2)
    after = club.log_position()
    (line,) = club.ok("GET", f"/players/{ada}/games?after={after}")["games"]
    assert line["opponent_ids"] == [bea, "bot:random"] and line["opponents"] == ["Bea Named", "bot:random"]
    replay = club.ok("GET", f"/games/{game['game_id']}/replay", headers=rita_headers)
    assert replay["names"] == {ada: "Ada Named", bea: "Bea Named"}
    assert [seat["occupant"] for seat in replay["table"]["seats"]][:2] == [["player", ada], ["player", bea]]
    seats = club.ok("GET", f"/games/{game['game_id']}?after={after}")["seats"]
    assert [(seat["player_id"], seat["name"]) for seat in seats[:2]] == [
        (ada, "Ada Named"),
        (bea, "Bea Named"),
    ]
    standings = club.ok("GET", f"/leagues/{league}/standings?after={after}")["rows"]
    assert {(row["player_id"], row["name"]) for row in standings} == {(ada, "Ada Named"), (bea, "Bea Named")}

    mine = club.ok("GET", f"/games/{game['game_id']}/me?after={after}", headers=ada_headers)
    assert [seat["name"] for seat in mine["table"]["seats"]] == ["Ada Named", "Bea Named", "bot:random"]
    plan = {"name": "Named cup", "format": "swiss", "table_size": 2, "rounds": 1}
    cup = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    for player_id in (ada, bea):
        club.ok("POST", f"/tournaments/{cup}/entrants", json={"player_id": player_id})
    club.ok("POST", f"/tournaments/{cup}/start")
    bracket = club.ok("GET", f"/tournaments/{cup}?after={club.log_position()}")
    assert bracket["rounds"][0]["tables"][0]["entrants"] in ([ada, bea], [bea, ada])
    assert {entrant: bracket["names"][entrant] for entrant in (ada, bea)} == {
        ada: "Ada Named",
        bea: "Bea Named",
    }
    assert {(placing["entrant"], placing["name"]) for placing in bracket["ranking"]} == {
        (ada, "Ada Named"),
        (bea, "Bea Named"),
    }
