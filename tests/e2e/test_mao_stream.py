"""A Mao match, live (``GET /mao-games/{id}/stream`` and ``/me/stream``): the public log as the
public sees it, and a seat's own view, each until the match is over.

The match is ``test_mao_match``'s first round in a league of one round a match: Rita's deck, so
every hand is known (Ada "QH QC KC", Bo "8H 5C 6C", the bot "2D 3D 4D"), and the rule is secret
until the round's end reveals it.
"""

import threading
import time
from typing import Any

from tests.e2e.club import problem
from tests.e2e.mao import MaoTable, mao_table
from tests.e2e.test_mao_match import FIRST_RULE, play_round_one
from tests.e2e.test_my_view_stream import views
from tests.e2e.test_stream import messages

MISSING = "9b2f4c1e-6a3d-4e8f-b1c2-7d5e9f0a1b2c"
DEALT = {"ada": {"QH", "QC", "KC"}, "bo": {"8H", "5C", "6C"}, "bot": {"2D", "3D", "4D"}}


def finished(client: Any) -> MaoTable:
    t = mao_table(client, rounds_to_win=1)
    play_round_one(t)
    return t


def while_played(t: MaoTable, path: str, headers: dict[str, str], play: Any) -> Any:
    """The stream at ``path``, opened before ``play`` plays the match on in another thread."""
    playing = threading.Thread(target=lambda: (time.sleep(0.3), play()))
    playing.start()
    try:
        return t.client.get(f"/mao-games/{t.game_id}{path}", headers=headers)
    finally:
        playing.join()


def test_the_public_stream_is_the_public_log_message_for_message_and_ends_with_the_match(client):
    t = finished(client)
    response = client.get(f"/mao-games/{t.game_id}/stream")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    found = messages(response.text)
    log = client.get(f"/mao-games/{t.game_id}/events").json()["events"]
    assert [m["data"] for m in found] == log
    assert [int(m["id"]) for m in found] == [entry["number"] for entry in log] == list(range(1, len(log) + 1))
    assert [m["event"] for m in found] == [entry["type"] for entry in log]
    assert found[-1]["event"] == "MatchEnded"


def test_the_public_stream_names_no_card_of_a_hand_nor_the_rule_before_its_reveal(client):
    t = finished(client)
    found = messages(client.get(f"/mao-games/{t.game_id}/stream").text)
    revealed = [m["event"] for m in found].index("RuleRevealed")
    assert FIRST_RULE not in str([m["data"] for m in found[:revealed]])
    assert found[revealed]["data"]["text"] == FIRST_RULE
    assert "text" not in next(m["data"] for m in found if m["event"] == "RuleWritten")
    for message in found:
        assert not {"hand", "deck", "order", "in_force", "due"} & set(message["data"])
        if message["event"] == "CardTaken":
            assert "card" not in message["data"]  # the card a seat took is its own
    # the judge's log holds what the public's stream never did
    judged = t.ok("rita", "GET", "/events")["events"]
    assert any("deck" in entry for entry in judged) and any(
        "card" in e for e in judged if e["type"] == "CardTaken"
    )


def test_the_public_stream_resumes_after_the_last_event_id(client):
    t = finished(client)
    path = f"/mao-games/{t.game_id}/stream"
    count = len(messages(client.get(path).text))
    resumed = client.get(path, headers={"Last-Event-ID": "5"})
    assert [int(m["id"]) for m in messages(resumed.text)] == list(range(6, count + 1))
    at_end = client.get(path, headers={"Last-Event-ID": str(count)})
    assert at_end.status_code == 200 and messages(at_end.text) == []


def test_a_public_stream_opened_on_a_match_in_play_delivers_the_acts_made_meanwhile_and_ends(client):
    t = mao_table(client, rounds_to_win=1)
    response = while_played(t, "/stream", {}, lambda: play_round_one(t))
    found = messages(response.text)
    log = client.get(f"/mao-games/{t.game_id}/events").json()["events"]
    assert [m["data"] for m in found] == log and found[-1]["event"] == "MatchEnded"
    assert "RoundDealt" in [m["event"] for m in found]  # dealt after the stream opened


def test_a_seat_s_stream_pushes_its_view_after_another_seat_s_act_and_never_another_hand(client):
    t = mao_table(client, rounds_to_win=1)
    acted: list[dict[str, Any]] = []  # Bo's first act is his play out of turn: a penalty card for him
    original = t.ok

    def ok(who: str, method: str, tail: str = "", **kwargs: Any) -> Any:
        answer = original(who, method, tail, **kwargs)
        if who == "bo" and method == "POST":
            acted.append(answer)
            time.sleep(0.3)  # Ada's stream sends the view of Bo's act before the next
        return answer

    t.ok = ok  # type: ignore[method-assign]
    found = views(while_played(t, "/me/stream", t.headers["ada"], lambda: play_round_one(t)))
    versions = [int(m["id"]) for m in found]
    assert versions == sorted(set(versions)) and len(versions) > 2
    assert acted[0]["play"] == "cancelled"
    pushed = {int(m["id"]): m["data"] for m in found}
    assert pushed[acted[0]["version"]]["cards"] == [3, 4, 3]  # Bo's penalty, seen by Ada
    for view in pushed.values():
        assert view["seat"] == 0
        assert not set(view["hand"]) & (DEALT["bo"] | DEALT["bot"])
    assert found[-1]["data"]["winner"] == 0 and found[-1]["data"]["phase"] == "over"
    assert found[-1]["data"] == t.ok("ada", "GET", "/me")


def test_an_official_names_the_seat_to_follow(client):
    t = finished(client)
    (last,) = views(client.get(f"/mao-games/{t.game_id}/me/stream?seat=1", headers=t.headers["rita"]))
    assert last["data"] == t.ok("bo", "GET", "/me") and last["data"]["seat"] == 1
    assert int(last["id"]) == t.ok("bo", "GET", "")["version"]


def test_the_streams_of_an_unknown_match_or_of_a_card_game_are_404(client):
    t = mao_table(client)
    ada, _ = t.club.player("Ada")
    card_game = t.club.game([ada, "bot:random"])["game_id"]
    for game_id in (MISSING, card_game):
        problem(client.get(f"/mao-games/{game_id}/stream"), 404, "game_not_found")
        problem(
            client.get(f"/mao-games/{game_id}/me/stream", headers=t.headers["admin"]), 404, "game_not_found"
        )


def test_a_bad_last_event_id_is_400(client):
    t = mao_table(client)
    for bad in ("seven", "-1", str(2**63)):
        problem(
            client.get(f"/mao-games/{t.game_id}/stream", headers={"Last-Event-ID": bad}),
            400,
            "malformed_request",
        )


def test_only_the_seated_player_or_an_official_may_follow_a_seat(client):
    t = mao_table(client)
    path = f"/mao-games/{t.game_id}/me/stream"
    problem(client.get(path), 401, "unauthorized")
    problem(client.get(path, headers={"Authorization": "Bearer mm_nonsense"}), 401, "unauthorized")
    problem(client.get(path, headers=t.headers["outsider"]), 403, "not_seated")
    problem(client.get(f"{path}?seat=1", headers=t.headers["ada"]), 403, "not_your_seat")
    problem(client.get(path, headers=t.headers["admin"]), 422, "seat_required")
    problem(client.get(f"{path}?seat=3", headers=t.headers["rita"]), 422, "not_a_seat")
    problem(client.get(f"{path}?seat=-1", headers=t.headers["rita"]), 400, "malformed_request")
