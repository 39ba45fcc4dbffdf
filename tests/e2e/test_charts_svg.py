"""Charts as SVG over HTTP, parsed back with ``xml.etree``: each line's points are the figures' own."""

import xml.etree.ElementTree as ET
from itertools import accumulate, pairwise
from typing import Any

from tests.e2e.club import problem
from tests.integration.tables import play_out

NS = {"svg": "http://www.w3.org/2000/svg"}
UNKNOWN = "00000000-0000-0000-0000-0000000000c5"
ODD_NAME = 'Ada <b>"&amp;"</b>'  # markup in a name stays text


def svg(client, path: str) -> tuple[ET.Element, str]:
    answer = client.get(path)  # no token: the charts are public
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert "<script" not in answer.text and "http://" not in answer.text.replace(NS["svg"], "")
    return ET.fromstring(answer.text), answer.text


def lines(root: ET.Element) -> dict[str, list[tuple[float, float]]]:
    """Each polyline's points, by its title."""
    found = {}
    for polyline in root.iterfind("svg:polyline", NS):
        pairs = [point.split(",") for point in polyline.get("points", "").split()]
        found[polyline.findtext("svg:title", namespaces=NS)] = [(float(x), float(y)) for x, y in pairs]
    return found


def assert_drawn(points: list[tuple[float, float]], figures: list[tuple[float, float]]) -> None:
    """The pixels are the figures, in order: x grows with the step, y goes up (smaller) as the figure
    grows, and equal figures share a height."""
    assert len(points) == len(figures)
    assert all(a[0] < b[0] for a, b in pairwise(points))
    for (_, y1), (_, f1) in zip(points, figures, strict=True):
        for (_, y2), (_, f2) in zip(points, figures, strict=True):
            assert (f1 < f2) == (y1 > y2) and (f1 == f2) == (y1 == y2)


def finished_match(club, league: str, seats: list[str], seed: int) -> dict[str, Any]:
    game = club.game(seats, league_id=league)
    play_out(club.app, game["game_id"], seed=seed)
    return game


def test_a_matchs_chart_has_a_line_per_seat_through_its_totals_and_the_target_dashed(client, club):
    ada, _ = club.player(ODD_NAME)
    bob, _ = club.player("Bob")
    league = club.league(members=[ada, bob], options={"target_score": 30})
    game = finished_match(club, league, [ada, bob], seed=5)
    totals = club.ok("GET", f"/games/{game['game_id']}/totals", headers={})
    assert len(totals["rounds"]) >= 2

    root, text = svg(client, f"/games/{game['game_id']}/totals.svg")
    drawn = lines(root)
    assert list(drawn) == [ODD_NAME, "Bob"]  # one line per seat, in seat order, named as the seats are
    assert "&lt;b&gt;" in text and "<b>" not in text
    every = []
    for seat, name in enumerate(drawn):
        running = [0, *accumulate(r["points"][seat] for r in totals["rounds"])]
        assert running[-1] == totals["totals"][seat]
        every += list(zip(drawn[name], [(n, total) for n, total in enumerate(running)], strict=True))
        assert_drawn(drawn[name], list(enumerate(running)))
    # across the seats too: one scale for every line, the target on it
    (target,) = root.iterfind("svg:line[@stroke-dasharray]", NS)
    assert target.findtext("svg:title", namespaces=NS) == "target 30"
    every.append(((0.0, float(target.get("y1"))), (0, 30)))
    for (_, y1), (_, f1) in every:
        for (_, y2), (_, f2) in every:
            assert (f1 < f2) == (y1 > y2)
    legend = [t.text for t in root.iterfind("svg:text", NS)]
    assert ODD_NAME in legend and "round" in legend and "total" in legend


def test_a_match_with_no_round_played_yet_draws_an_empty_chart_that_says_so(client, club):
    ada, _ = club.player()
    game = club.game([ada, "bot:random"])
    root, _ = svg(client, f"/games/{game['game_id']}/totals.svg")
    assert lines(root) == {}
    assert "no rounds yet" in [t.text for t in root.iterfind("svg:text", NS)]


def test_a_players_rating_chart_follows_their_rating_history_in_that_league(client, club):
    ada, _ = club.player("Ada")
    bob, _ = club.player("Bob")
    league = club.league(members=[ada, bob], options={"single_round": True})
    for seed in (1, 2, 3):
        finished_match(club, league, [ada, bob], seed)
    position = club.log_position()
    history = club.ok("GET", f"/players/{ada}/ratings?after={position}", headers={})["history"]
    oldest_first = list(reversed(history))
    assert len(oldest_first) == 3

    root, _ = svg(client, f"/players/{ada}/ratings.svg?league={league}&after={position}")
    drawn = lines(root)
    assert list(drawn) == ["rating (mu - 3 sigma)", "mu"]
    assert_drawn(drawn["rating (mu - 3 sigma)"], [(n, c["rating"]) for n, c in enumerate(oldest_first, 1)])
    assert_drawn(drawn["mu"], [(n, c["mu"]) for n, c in enumerate(oldest_first, 1)])
    assert root.find("svg:polygon", NS) is not None  # the band

    other = club.league(members=[ada])
    root, _ = svg(client, f"/players/{ada}/ratings.svg?league={other}&after={position}")
    assert lines(root) == {} and "no rated matches yet" in [t.text for t in root.iterfind("svg:text", NS)]


def test_a_leagues_progression_chart_has_a_line_per_member_ending_at_their_standings_points(client, club):
    ada, _ = club.player("Ada")
    bob, _ = club.player("Bob")
    cat, _ = club.player("Cat")
    league = club.league(members=[ada, bob, cat], options={"single_round": True})
    games = [finished_match(club, league, [ada, bob], seed) for seed in (11, 12)]
    position = club.log_position()
    standings = club.ok("GET", f"/leagues/{league}/standings?after={position}", headers={})

    root, _ = svg(client, f"/leagues/{league}/progression.svg?after={position}")
    drawn = lines(root)
    assert list(drawn) == [row["name"] for row in standings["rows"]]  # the standings' order
    points = {row["name"]: row["points"] for row in standings["rows"]}
    for name, seat in (("Ada", 0), ("Bob", 1)):
        totals = [club.ok("GET", f"/games/{g['game_id']}/totals", headers={})["totals"][seat] for g in games]
        running = [0, *accumulate(totals)]
        assert running[-1] == points[name]
        assert_drawn(drawn[name], list(enumerate(running)))
    assert len(drawn["Cat"]) == 1  # no match yet: the start only


def test_charts_of_what_does_not_exist_are_refused_with_their_codes(client, club):
    ada, _ = club.player()
    league = club.league(members=[ada])
    with club.unchanged():
        problem(client.get(f"/games/{UNKNOWN}/totals.svg"), 404, "game_not_found")
        problem(client.get(f"/players/{UNKNOWN}/ratings.svg?league={league}"), 404, "player_not_found")
        problem(client.get(f"/players/{ada}/ratings.svg?league={UNKNOWN}"), 404, "league_not_found")
        problem(client.get(f"/players/{ada}/ratings.svg"), 400, "malformed_request")
        problem(client.get(f"/players/{ada}/ratings.svg?league=x"), 400, "malformed_request")
        problem(client.get(f"/leagues/{UNKNOWN}/progression.svg"), 404, "league_not_found")
