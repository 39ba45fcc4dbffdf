"""The live stream of a game's public events (Server-Sent Events)."""

import json
import threading
import time
from typing import Any

from tests.e2e.club import problem
from tests.integration.tables import play_out


def messages(text: str) -> list[dict[str, Any]]:
    """The events of an SSE body: id, event and the decoded data of each."""
    found = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields: dict[str, Any] = {}
        for line in block.splitlines():
            name, _, value = line.partition(": ")
            if name in ("id", "event", "data"):
                fields[name] = value
        if "data" in fields:
            fields["data"] = json.loads(fields["data"])
            found.append(fields)
    return found


def finished_game(club) -> tuple[dict[str, Any], int]:
    ada, _ = club.player("Ada")
    bob, _ = club.player("Bob")
    game = club.game([ada, bob], options={"single_round": True})
    play_out(club.app, game["game_id"], seed=11)
    club.table({**game, "position": club.log_position()})  # the read models have the end
    return game, len(club.app.game_events(game["game_id"]))


def test_the_stream_of_a_finished_game_delivers_its_public_events_and_ends(client, club):
    game, count = finished_game(club)
    response = client.get(f"/games/{game['game_id']}/stream")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    found = messages(response.text)
    assert [int(m["id"]) for m in found] == list(range(1, count + 1))
    assert [m["event"] for m in found] == [m["data"]["type"] for m in found]
    assert "MatchEnded" in [m["event"] for m in found]
    dealt = next(m["data"]["data"] for m in found if m["event"] == "RoundDealt")
    assert "deck" not in dealt and "hand" not in dealt and "salt" not in dealt
    for message in found:
        if message["event"] == "CardsDrawn":
            assert "cards" not in message["data"]["data"]


def test_the_stream_resumes_after_the_last_event_id(client, club):
    game, count = finished_game(club)
    response = client.get(f"/games/{game['game_id']}/stream", headers={"Last-Event-ID": "5"})
    assert [int(m["id"]) for m in messages(response.text)] == list(range(6, count + 1))
    at_end = client.get(f"/games/{game['game_id']}/stream", headers={"Last-Event-ID": str(count)})
    assert at_end.status_code == 200 and messages(at_end.text) == []


def test_the_stream_of_an_unknown_game_is_404_and_a_bad_last_event_id_400(client, club):
    problem(client.get("/games/00000000-0000-0000-0000-0000000000ee/stream"), 404, "game_not_found")
    game, _ = finished_game(club)
    problem(
        client.get(f"/games/{game['game_id']}/stream", headers={"Last-Event-ID": "seven"}),
        400,
        "malformed_request",
    )


def test_a_stream_opened_on_a_game_in_play_delivers_the_moves_made_meanwhile_and_ends_with_the_match(
    client, club
):
    ada, _ = club.player("Ada")
    game = club.game([ada, "bot:random"], options={"single_round": True})
    playing = threading.Thread(target=lambda: (time.sleep(0.3), play_out(club.app, game["game_id"], seed=12)))
    playing.start()
    try:
        response = client.get(f"/games/{game['game_id']}/stream")
    finally:
        playing.join()
    numbers = [int(m["id"]) for m in messages(response.text)]
    assert numbers == list(range(1, len(club.app.game_events(game["game_id"])) + 1))
    assert numbers[-1] > game["version"]
