"""Rankings rank by what was played, over HTTP: the JSON, the CSV and the pages (the club display too).

A league member without a finished match, a tournament entrant without a result yet (their table
still in play, a no-show, one who dropped out before her table's game was made) has `rank: null`,
an empty rank cell and "—" with "not played yet" on a page, and comes after everyone ranked. A bot
that sat in for someone who dropped out plays for nobody: its table's result is the bot's.
"""

import csv
import io
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

from tests.e2e.club import Club
from tests.integration.tables import play_out

NOT_PLAYED = {"en": "not played yet", "uk": "ще не грав", "ru": "ещё не играл"}
DROPPED = {"en": "dropped out", "uk": "вибув", "ru": "выбыл"}
SAT_IN = "A bot that sat in for someone who dropped out plays for nobody."
STAND_IN = {
    "en": "Careful bot for {name}, who dropped out",
    "uk": "Обачний бот замість {name}, що вибув",
    "ru": "Осторожный бот вместо {name}, который выбыл",
}


def named(club: Club, *names: str) -> list[tuple[str, dict[str, str], str]]:
    """Players with names of their own this run: (id, headers, name)."""
    mark = uuid.uuid4().hex[:6]
    return [(*club.player(f"{name} {mark}"), f"{name} {mark}") for name in names]


def page(client: Any, path: str, language: str = "en") -> str:
    """The page in that language, which the session's client then forgets (it keeps the choice in a
    cookie, and other tests read pages in English)."""
    html = client.get(path, params={"lang": language}).text
    client.cookies.delete("lang")
    return html


def page_rows(html: str, table_class: str) -> list[str]:
    """Each row of the page's table of that class, as its text with the tags taken out."""
    body = html.split(f'<table class="{table_class}">', 1)[1].split("</tbody>", 1)[0]
    rows = body.split("<tbody>", 1)[1].split("</tr>")[:-1]
    return [" ".join(" ".join(part.split(">", 1)[-1] for part in row.split("<")).split()) for row in rows]


def test_league_members_who_have_not_played_come_after_one_who_lost_unranked(client, club, same_deals):
    (ada, _, ada_name), (bob, _, bob_name), (cy, _, cy_name), (dee, _, dee_name) = named(
        club, "Ada", "Bob", "Cy", "Dee"
    )
    league = club.league(members=[ada, bob, cy, dee], options={"single_round": True, "hand_size": 3})
    # a seed of its own: with same_deals the deal, and so the match's winner, is the same every run
    game = club.game([ada, bob], league_id=league, seed="one who lost")
    play_out(club.app, UUID(game["game_id"]), seed=3)
    position = club.log_position()
    standings = club.ok("GET", f"/leagues/{league}/standings?after={position}", headers={})
    rows = standings["rows"]
    played = [row for row in rows if row["matches_played"]]
    assert len(played) == 2 and sorted(row["rank"] for row in played) == [1, 2]
    loser = next(row for row in played if row["rank"] == 2)
    # the loser's points per round are worse than an idle member's 0.0: only not having played ranks lower
    assert loser["matches_won"] == loser["matches_shared"] == 0 and loser["average_points"] > 0
    assert [row["player_id"] for row in rows[2:]] == sorted([cy, dee], key={cy: cy_name, dee: dee_name}.get)
    assert all(row["rank"] is None and row["matches_played"] == 0 for row in rows[2:])
    assert "listed after" in standings["rule"]

    answer = client.get(f"/leagues/{league}/standings.csv?after={position}")
    lines = list(csv.DictReader(io.StringIO(answer.text)))
    assert [(line["player_id"], line["rank"]) for line in lines] == [
        (row["player_id"], "" if row["rank"] is None else str(row["rank"])) for row in rows
    ]

    for language, words in NOT_PLAYED.items():
        shown = page_rows(page(client, f"/web/leagues/{league}", language), "standings")
        assert [line.split(" ", 1)[0] for line in shown] == ["1", "2", "—", "—"]
        assert [words in line for line in shown] == [False, False, True, True]
        assert {ada_name, bob_name} == {name for name in (ada_name, bob_name) if name in " ".join(shown[:2])}
        assert {cy_name, dee_name} == {name for name in (cy_name, dee_name) if name in " ".join(shown[2:])}
    # the player's page says so rather than "rank None of 2"
    assert f"</a>: {NOT_PLAYED['en']}</li>" in page(client, f"/web/players/{cy}")


def tournament_of(club: Club, members: list[str], **plan: Any) -> tuple[str, str]:
    league = club.league(members=members, options={"hand_size": 3})
    body = {"name": "Cup", "format": "swiss", "table_size": 2, "rounds": 2, **plan}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=body)["tournament_id"]
    return league, tournament


def test_mid_round_one_the_finished_tables_players_lead_and_those_still_playing_are_unranked(
    client, club, same_deals
):
    people = named(club, "Ann", "Ben", "Cat", "Don")
    _, tournament = tournament_of(club, [p[0] for p in people], target_score=20)
    path = f"/tournaments/{tournament}"
    for player_id, headers, _ in people:
        club.ok("POST", f"{path}/entrants", headers=headers, json={"player_id": player_id})
    club.ok("POST", f"{path}/start")
    games = club.app.start_round(UUID(tournament), 1)
    play_out(club.app, games[0], seed=2)
    club.app.record_table_result(UUID(tournament), games[0])

    bracket = club.ok("GET", f"{path}?after={club.log_position()}", headers={})
    first = bracket["rounds"][0]["tables"]
    assert first[0]["finished"] and not first[1]["finished"]
    (won,) = first[0]["winners"]
    winner, loser = first[0]["entrants"][won], first[0]["entrants"][1 - won]
    # the loser reached the target: worse points than the 0 of those still playing, and still above them
    assert first[0]["totals"][1 - won] >= 20
    ranking = bracket["ranking"]
    assert [p["rank"] for p in ranking] == [1, 2, None, None]
    assert [p["entrant"] for p in ranking[:2]] == [winner, loser]
    assert {p["entrant"] for p in ranking[2:]} == set(first[1]["entrants"])
    assert all(p["tables"] == p["points"] == 0 for p in ranking[2:])

    for language, words in NOT_PLAYED.items():
        wall = page(client, f"/web/tournaments/{tournament}?display=1", language)
        shown = page_rows(wall, "ranking")
        assert shown[0].startswith(f"1 {bracket['names'][winner]} ")  # the leader on the wall
        assert [line.split(" ", 1)[0] for line in shown] == ["1", "2", "—", "—"]
        assert [words in line for line in shown] == [False, False, True, True]
        assert SAT_IN not in wall  # said only where a bot sat in


def test_a_bot_that_sat_in_for_a_player_who_dropped_out_plays_for_nobody_and_the_no_show_is_listed(
    client, club, same_deals
):
    people = named(club, "Ann", "Ben", "Cat", "Dana", "Eve")
    dana, dana_headers, dana_name = people[3]
    eve, _, eve_name = people[4]
    starts = datetime.now(UTC) + timedelta(hours=1)
    _, tournament = tournament_of(
        club,
        [p[0] for p in people],
        single_round=True,
        starts_at=starts.isoformat(),
        check_in_minutes=120,
    )
    path = f"/tournaments/{tournament}"
    for player_id, headers, _ in people:
        club.ok("POST", f"{path}/entrants", headers=headers, json={"player_id": player_id})
    for player_id, headers, _ in people[:4]:  # Eve never checks in
        club.ok("POST", f"{path}/check-in", headers=headers, json={"player_id": player_id})
    club.ok("POST", f"{path}/start")
    # Dana drops out after round 1 is paired, before its games are made: a bot takes her seat
    club.ok("POST", f"{path}/drop-out", headers=dana_headers, json={"player_id": dana})
    games = club.app.start_round(UUID(tournament), 1)
    for game_id in games:
        play_out(club.app, game_id, seed=7)
        club.app.record_table_result(UUID(tournament), game_id)
    position = club.log_position()

    bracket = club.ok("GET", f"{path}?after={position}", headers={})
    assert bracket["dropped"] == [eve, dana]
    table = next(t for t in bracket["rounds"][0]["tables"] if dana in t["entrants"])
    seat = table["entrants"].index(dana)
    assert table["stand_ins"] == [seat] and table["finished"]
    opponent = table["entrants"][1 - seat]
    placings = {p["entrant"]: p for p in bracket["ranking"]}
    assert set(placings) == {p[0] for p in people}  # the no-show too
    for gone in (dana, eve):
        assert (placings[gone]["rank"], placings[gone]["dropped"]) == (None, True)
        assert placings[gone]["tables"] == placings[gone]["points"] == placings[gone]["wins"] == 0
    assert [p["entrant"] for p in bracket["ranking"][-2:]] == [dana, eve]  # after everyone ranked
    assert placings[opponent]["tables"] == 1 and placings[opponent]["points"] == table["totals"][1 - seat]
    assert sorted(p["rank"] for p in bracket["ranking"][:3]) == [1, 2, 3]

    results = club.ok("GET", f"{path}/results.json?after={position}", headers={})
    assert results["ranking"] == bracket["ranking"]
    assert all(row["entrant"] != dana for row in results["rows"])
    (sat,) = [row for row in results["rows"] if row["stand_in_for"] is not None]
    assert (sat["entrant"], sat["name"], sat["stand_in_for"]) == ("bot:heuristic", "bot:heuristic", dana)
    assert (sat["table"], sat["seat"], sat["points"]) == (table["table"], seat, table["totals"][seat])
    answer = client.get(f"{path}/results.csv?after={position}")
    (line,) = [line for line in csv.DictReader(io.StringIO(answer.text)) if line["stand_in_for"]]
    assert (line["entrant"], line["stand_in_for"], line["final_place"]) == ("bot:heuristic", dana, "")

    for language in NOT_PLAYED:
        html = page(client, f"/web/tournaments/{tournament}", language)
        shown = page_rows(html, "ranking")
        assert [line.split(" ", 1)[0] for line in shown] == ["1", "2", "3", "—", "—"]
        for name in (dana_name, eve_name):
            (row,) = [line for line in shown if name in line]
            assert row.startswith("— ") and DROPPED[language] in row and NOT_PLAYED[language] in row
        assert STAND_IN[language].format(name=dana_name) in html
    assert SAT_IN in page(client, f"/web/tournaments/{tournament}")
