"""Game records over HTTP: a game's record in each sight, and a record imported as a game played in
person (docs/game-records.md)."""

import random
from typing import Any

import pytest
from litestar.testing import TestClient

from service.application import MauMau
from service.domain.adjudication import Penalty, Void
from service.domain.record import Dealt, Drew, Played, Recycled, RoundEnd
from service.domain.record_parse import parse_record
from service.domain.record_render import render
from service.domain.redaction import PUBLIC
from service.domain.roles import Actor
from tests.e2e.club import ADMIN, Club, bearer, cards_named, problem
from tests.gameplay import next_command
from tests.unit.test_game_records import NAMES, played_game, text_of

TEXT = "text/plain; charset=utf-8"


def play_out_challenged(app: MauMau, game_id: str, seed: int) -> None:
    """Random legal moves until the match ends, each missed call challenged at once.

    Every round's end is then one a sheet could write with a winner who went out; the round of a
    player overtaken after a missed "Mau Mau" is checked in tests/unit/test_scoresheet.py.
    """
    rng = random.Random(seed)
    while not (game := app.get_game(game_id)).over:
        app.execute(game_id, next_command(game.state, rng, challenge_rate=1.0), expected_version=game.version)


def bot_game(club: Club, seed: int = 5, **options: Any) -> str:
    """A game of three bots played to its end on the server; its id."""
    game = club.game(
        ["bot:heuristic", "bot:random", "bot:heuristic"], options={"target_score": 40, **options}
    )
    play_out_challenged(club.app, game["game_id"], seed=seed)
    return game["game_id"]


def record(client: TestClient[Any], game_id: str, sight: str = "public", headers: Any = None) -> str:
    response = client.get(f"/games/{game_id}/record?sight={sight}", headers=headers or {})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == TEXT
    return response.text


class Archive:
    """A league of three players and its referee, to import records into."""

    def __init__(self, club: Club) -> None:
        self.players = [club.player()[0] for _ in range(3)]
        referee, self.referee = club.referee()
        self.league = club.league(self.players, [referee])

    def body(self, text: str, **more: Any) -> dict[str, Any]:
        """An import of ``text``, a copy of a game in the service (as every record played here is)."""
        return {"record": text, "league_id": self.league, "seats": self.players, "copy": True, **more}


@pytest.fixture
def archive(club: Club) -> Archive:
    return Archive(club)


def results(totals: dict[str, Any]) -> tuple[Any, ...]:
    rounds = [(r["round_no"], r["winner"], r["points"]) for r in totals["rounds"]]
    return rounds, totals["totals"], totals["winners"], totals["over"]


def test_a_server_played_games_record_imported_into_a_league_gives_the_same_totals(client, club, archive):
    played = bot_game(club)
    text = record(client, played)
    imported = club.ok("POST", "/games/import", headers=archive.referee, json=archive.body(text))
    assert imported["league_id"] == archive.league and imported["seats"] == archive.players
    original = club.ok("GET", f"/games/{played}/totals")
    again = club.ok("GET", f"/games/{imported['game_id']}/totals?after={imported['position']}")
    assert imported["rounds"] == len(original["rounds"]) >= 1
    assert results(again) == results(original)
    assert again["league_id"] == archive.league
    standings = club.ok("GET", f"/leagues/{archive.league}/standings?after={imported['position']}")
    by_player = {row["player_id"]: (row["matches_played"], row["points"]) for row in standings["rows"]}
    assert by_player == {
        player: (1, total) for player, total in zip(archive.players, original["totals"], strict=True)
    }


def test_a_mau_mau_150_record_imports_to_the_same_totals_though_it_tells_only_the_winners_gain(client, club):
    players = [club.player()[0] for _ in range(3)]
    league = club.league(players, ruleset="mau-mau-150")
    game = club.game(["bot:heuristic", "bot:random", "bot:heuristic"], ruleset="mau-mau-150")
    play_out_challenged(club.app, game["game_id"], seed=8)
    text = record(client, game["game_id"])
    body = {"record": text, "league_id": league, "seats": players, "copy": True}
    imported = club.ok("POST", "/games/import", json=body)
    original = club.ok("GET", f"/games/{game['game_id']}/totals")
    assert results(club.ok("GET", f"/games/{imported['game_id']}/totals")) == results(original)


def test_every_sight_of_a_record_reads_back_to_the_same_text(client, club):
    played = bot_game(club, seed=6)
    for sight in ("public", "full"):
        text = record(client, played, sight, ADMIN)
        assert render(parse_record(text)) == text


def test_the_public_record_names_no_hidden_card_and_the_full_record_every_one(client, club):
    played = bot_game(club, seed=7)
    public, full = record(client, played), record(client, played, "full", ADMIN)
    shown = parse_record(public)
    on_table = {line.card for line in shown.lines if isinstance(line, Played)}
    on_table |= {line.starter for line in shown.lines if isinstance(line, Dealt)}
    hidden = set()
    for line in parse_record(full).lines:
        if isinstance(line, Dealt):
            hidden |= {card for _, hand in line.hands for card in hand} | set(line.stock_order or ())
        elif isinstance(line, Drew | Recycled):
            hidden |= set(line.cards if isinstance(line, Drew) else line.order or ())
    # a card the full record shows in a hand, a draw or the stock is in the public one only once it
    # is face up on the table: the starter or a card played
    assert len(hidden) >= 51 and cards_named([public]) <= on_table  # the first deal alone hides 51
    assert all(not line.hands and line.stock_order is None for line in shown.lines if isinstance(line, Dealt))
    assert all(line.cards is None for line in shown.lines if isinstance(line, Drew))


def test_the_full_record_is_for_the_games_officials_only(client, club):
    ada, ada_headers = club.player()
    league = club.league([ada])
    game = club.game([ada, "bot:heuristic"], league_id=league)
    _, outsider = club.referee()
    problem(client.get(f"/games/{game['game_id']}/record?sight=full"), 401, "unauthorized")
    problem(client.get(f"/games/{game['game_id']}/record?sight=full", headers=ada_headers), 403, "forbidden")
    problem(client.get(f"/games/{game['game_id']}/record?sight=full", headers=outsider), 403, "forbidden")
    problem(client.get(f"/games/{game['game_id']}/record?sight=seat", headers=outsider), 403, "not_seated")
    problem(client.get(f"/games/{game['game_id']}/record?sight=all"), 400, "malformed_request")
    mine = parse_record(record(client, game["game_id"], "seat", ada_headers))
    (dealt,) = [line for line in mine.lines if isinstance(line, Dealt)]
    assert (mine.header.sight, mine.header.sight_seat) == ("seat", 0)
    assert [seat for seat, _ in dealt.hands] == [0] and len(dealt.hands[0][1]) == 5


def test_the_record_of_an_unknown_game_is_404(client):
    problem(client.get("/games/9b2f4c1e-6a3d-4e8f-b1c2-7d5e9f0a1b2c/record"), 404, "game_not_found")


def test_text_that_is_no_record_is_refused_naming_its_line_and_nothing_is_stored(client, club, archive):
    text = record(client, bot_game(club, seed=9))
    lines = text.split("\n")
    number = lines[20].split(" ", 1)[0]  # line 21 is event 10 (a header of 7 lines, 3 seats, a blank)
    lines[20] = f"{number} heuristic flies away"
    with club.unchanged():
        body = problem(
            client.post("/games/import", headers=archive.referee, json=archive.body("\n".join(lines))),
            422,
            "invalid_record",
        )
    assert body["detail"].startswith("line 21:")


def test_an_inconsistent_record_is_refused_and_no_game_is_stored(client, club, archive):
    text = record(client, bot_game(club, seed=10))
    ended = next(line for line in text.split("\n") if " round 1 ended: " in line)
    points = ended.split("; points ")[1].split(";")[0]
    wrong = [int(p) + 1 if int(p) else 0 for p in points.split(" ")]
    broken = text.replace(
        ended, ended.replace(f"; points {points};", f"; points {' '.join(map(str, wrong))};")
    )
    games = len(club.ok("GET", f"/games?league={archive.league}&after={club.log_position()}")["items"])
    with club.unchanged():
        body = problem(
            client.post("/games/import", headers=archive.referee, json=archive.body(broken)),
            422,
            "record_inconsistent",
        )
    assert "round 1" in body["detail"]
    assert (
        len(club.ok("GET", f"/games?league={archive.league}&after={club.log_position()}")["items"]) == games
    )


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda text: text.rsplit("\n", 3)[0] + "\n", "record_inconsistent"),  # no match end
        (
            # a target no total reaches: the match cannot have ended by it, whatever was dealt
            lambda text: text.replace('club {"target_score":40}', 'club {"target_score":1000}'),
            "record_inconsistent",
        ),
    ],
    ids=["unfinished", "other rules"],
)
def test_a_record_that_does_not_add_up_by_the_leagues_rules_is_refused(client, club, archive, change, code):
    text = change(record(client, bot_game(club, seed=11)))
    with club.unchanged():
        problem(client.post("/games/import", headers=archive.referee, json=archive.body(text)), 422, code)


def test_a_record_with_bots_needs_the_players_named_and_as_many_as_its_seats(client, club, archive):
    text = record(client, bot_game(club, seed=12))
    with club.unchanged():
        body = {"record": text, "league_id": archive.league}
        problem(client.post("/games/import", headers=archive.referee, json=body), 422, "record_has_bots")
        short = archive.body(text, seats=archive.players[:2])
        problem(client.post("/games/import", headers=archive.referee, json=short), 422, "record_inconsistent")


def test_importing_is_for_admins_and_the_leagues_referees(client, club, archive):
    text = record(client, bot_game(club, seed=13))
    _, outsider = club.referee()
    player_headers = bearer(club.ok("POST", f"/players/{archive.players[0]}/tokens")["token"])
    with club.unchanged():
        problem(client.post("/games/import", json=archive.body(text)), 401, "unauthorized")
        problem(client.post("/games/import", headers=outsider, json=archive.body(text)), 403, "forbidden")
        problem(
            client.post("/games/import", headers=player_headers, json=archive.body(text)), 403, "forbidden"
        )


def test_an_import_sent_again_with_its_idempotency_key_makes_one_game(client, club, archive):
    text = record(client, bot_game(club, seed=14))
    headers = {**archive.referee, "Idempotency-Key": "import-1"}
    first = club.ok("POST", "/games/import", headers=headers, json=archive.body(text))
    again = club.ok("POST", "/games/import", headers=headers, json=archive.body(text))
    assert again["game_id"] == first["game_id"] and again["version"] == first["version"]


def test_a_record_with_a_voided_round_end_and_a_penalty_imports_to_the_games_own_totals(
    client, club, archive
):
    """A referee voids the last play of round 1 after its end (the round is played again, its hidden
    cards dealt anew) and later gives a penalty: the record holds both round ends, the import counts
    the one in force."""
    game_id = club.game(["bot:heuristic", "bot:random", "bot:heuristic"], options={"target_score": 40})[
        "game_id"
    ]
    app, referee, rng = club.app, Actor("admin", "records-test"), random.Random(15)
    ended = None
    while ended is None:
        game = app.get_game(game_id)
        app.execute(game_id, next_command(game.state, rng, challenge_rate=1.0), expected_version=game.version)
        ended = next((e for e in app.game_events(game_id) if type(e).__name__ == "RoundEnded"), None)
    last_play = max(
        e.originator_version for e in app.game_events(game_id) if type(e).__name__ == "CardPlayed"
    )
    app.raise_dispute(game_id, reason="the last card was misdealt", about=last_play, by=referee)
    app.give_ruling(game_id, Void(last_play), note="play it again", by=referee)
    app.raise_dispute(game_id, reason="a card shown", by=referee)
    app.give_ruling(game_id, Penalty(app.get_game(game_id).seat_to_move, 1), by=referee)
    play_out_challenged(app, game_id, seed=16)
    text = record(client, game_id)
    assert text.count(" round 1 ended: ") == 2 and f"ruling on dispute 1: void from event {last_play}" in text
    for sight in ("public", "full"):
        assert render(parse_record(record(client, game_id, sight, ADMIN))) == record(
            client, game_id, sight, ADMIN
        )
    imported = club.ok("POST", "/games/import", headers=archive.referee, json=archive.body(text))
    original = club.ok("GET", f"/games/{game_id}/totals")
    assert results(club.ok("GET", f"/games/{imported['game_id']}/totals")) == results(original)


def test_the_record_of_a_game_played_in_person_tells_its_sheet_and_imports_to_the_same_totals(
    client, club, archive
):
    """Rounds entered by an official, one confirmed by a player, one disputed and corrected by a ruling:
    the record names who entered each, and the correction's round counts, not the first entry."""
    ada, bob = archive.players[:2]
    bob_headers = bearer(club.ok("POST", f"/players/{bob}/tokens")["token"])
    body = {
        "seats": [ada, bob],
        "league_id": archive.league,
        "in_person": True,
        "options": {"target_score": 30},
    }
    game_id = club.ok("POST", "/games", headers=archive.referee, json=body)["game_id"]
    path = f"/games/{game_id}"
    entered = club.ok(
        "POST", f"{path}/rounds", headers=archive.referee, json={"winner": 0, "points": [0, 12]}
    )
    about = entered["events"][0]["number"]
    club.ok("POST", f"{path}/disputes", headers=bob_headers, json={"reason": "I went out", "about": about})
    correct = {"kind": "correct", "round": 1, "winner": 1, "hands": [["8C"], []], "note": "Bob went out"}
    club.ok("POST", f"{path}/rulings", headers=archive.referee, json=correct)
    club.ok("POST", f"{path}/rounds", headers=archive.referee, json={"winner": 0, "points": [0, 30]})
    club.ok("POST", f"{path}/rounds/2/confirmation", headers=bob_headers, json={})
    text, full = record(client, game_id), record(client, game_id, "full", ADMIN)
    assert render(parse_record(text)) == text and render(parse_record(full)) == full
    assert 'round 1 entered by referee "' in text and ": winner Ada" not in text
    assert "ruling on dispute 1: correct round 1: winner " in text and "; hand " in text
    assert text.count(" round 1 ended: ") == 2 and " confirms round 2" in text
    imported = club.ok("POST", "/games/import", json=archive.body(text, seats=[ada, bob]))
    original = club.ok("GET", f"{path}/totals")
    assert original["totals"] == [8, 30] and original["winners"] == [0]
    assert results(club.ok("GET", f"/games/{imported['game_id']}/totals")) == results(original)


@pytest.mark.parametrize(("preset", "seed"), [("101", 3), ("faraon", 4)])
def test_an_elimination_matchs_record_reads_back_in_every_sight_and_imports_to_the_same_result(
    client, club, same_deals, preset, seed
):
    # the same shuffles every run (``same_deals``): a match whose last two seats fell out in one
    # round would deal no smaller hand, and the record would show none
    players = [club.player()[0] for _ in range(3)]
    league = club.league(players, ruleset=preset)
    game = club.game(["bot:heuristic", "bot:random", "bot:heuristic"], ruleset=preset, seed=f"table {seed}")
    play_out_challenged(club.app, game["game_id"], seed=seed)
    texts = {sight: record(client, game["game_id"], sight, ADMIN) for sight in ("public", "full")}
    for text in texts.values():
        assert render(parse_record(text)) == text
    deals = [line for line in parse_record(texts["full"]).lines if isinstance(line, Dealt)]
    assert any(line.sizes is not None for line in deals), "every deal gave each seat the same hand"
    state = club.app.get_game(game["game_id"]).state
    assert bin(state.out).count("1") == 2
    imported = club.ok(
        "POST",
        "/games/import",
        json={"record": texts["public"], "league_id": league, "seats": players, "copy": True},
    )
    original = club.ok("GET", f"/games/{game['game_id']}/totals")
    again = club.ok("GET", f"/games/{imported['game_id']}/totals?after={imported['position']}")
    assert results(again) == results(original)


def test_the_record_of_a_game_in_the_service_is_refused_unless_a_copy_is_asked_for(client, club, archive):
    game_id = club.game(archive.players, league_id=archive.league, options={"target_score": 40})["game_id"]
    play_out_challenged(club.app, game_id, seed=17)
    text = record(client, game_id)

    def standings() -> dict[str, int]:
        found = club.ok("GET", f"/leagues/{archive.league}/standings?after={club.log_position()}")
        return {row["player_id"]: row["matches_played"] for row in found["rows"]}

    assert standings() == dict.fromkeys(archive.players, 1)
    with club.unchanged():
        for body in (archive.body(text, copy=False), {"record": text, "league_id": archive.league}):
            refused = problem(
                client.post("/games/import", headers=archive.referee, json=body), 409, "game_exists"
            )
            assert game_id in refused["detail"] and "copy" in refused["detail"]
    assert standings() == dict.fromkeys(archive.players, 1)  # the match counts once
    copied = club.ok("POST", "/games/import", headers=archive.referee, json=archive.body(text, copy=True))
    assert copied["game_id"] != game_id
    assert standings() == dict.fromkeys(archive.players, 2)  # asked for: the copy counts as a game of its own
    with club.unchanged():
        malformed = archive.body(text, copy="yes")
        problem(
            client.post("/games/import", headers=archive.referee, json=malformed), 400, "malformed_request"
        )


def test_a_record_written_elsewhere_keeps_its_game_id_and_is_imported_once(client, club, archive):
    game_id = club.game(archive.players, league_id=archive.league, options={"target_score": 40})["game_id"]
    play_out_challenged(club.app, game_id, seed=18)
    elsewhere = "0b6c2f1e-2d3a-4c5b-8e9f-1a2b3c4d5e6f"  # a game of another service: not in this one
    text = record(client, game_id).replace(f"game {game_id}\n", f"game {elsewhere}\n", 1)
    headers = {**archive.referee, "Idempotency-Key": "import-elsewhere"}
    first = club.ok("POST", "/games/import", headers=headers, json=archive.body(text, copy=False))
    assert first["game_id"] == elsewhere
    again = club.ok("POST", "/games/import", headers=headers, json=archive.body(text, copy=False))
    assert (again["game_id"], again["version"]) == (first["game_id"], first["version"])  # a retry
    with club.unchanged():
        for body in (archive.body(text, copy=False), archive.body(record(client, elsewhere), copy=False)):
            problem(client.post("/games/import", headers=archive.referee, json=body), 409, "game_exists")
    written = "maumau game record 1\ngame archive-2019-17\n"  # an id that is no UUID names one game too
    renamed = text.replace(f"maumau game record 1\ngame {elsewhere}\n", written, 1)
    club.ok("POST", "/games/import", headers=archive.referee, json=archive.body(renamed, copy=False))
    with club.unchanged():
        problem(
            client.post("/games/import", headers=archive.referee, json=archive.body(renamed, copy=False)),
            409,
            "game_exists",
        )


def test_a_101_record_with_a_round_won_on_a_queen_imports_to_the_same_totals(client, club):
    # seed 28 of the unit tests' four-seat match wins a round on a queen: the winner scores -20
    game, events = played_game(28, "101")
    text = text_of(game, events, PUBLIC, NAMES)
    ended = [line for line in parse_record(text).lines if isinstance(line, RoundEnd)]
    assert any(line.winner is not None and line.points[line.winner] < 0 for line in ended)
    players = [club.player()[0] for _ in range(4)]
    league = club.league(players, ruleset="101")
    imported = club.ok("POST", "/games/import", json={"record": text, "league_id": league, "seats": players})
    totals = club.ok("GET", f"/games/{imported['game_id']}/totals?after={imported['position']}")
    assert [r["points"] for r in totals["rounds"]] == [list(points) for points in game.state.round_points]
    assert totals["totals"] == game.state.totals and totals["winners"] == list(game.state.winners)
