"""The webhook routes over HTTP: registering, listing, the secret shown once and rotated, removing,
disabling and enabling, and every refusal, each a problem+json with its code that changes nothing.

No worker serves this session's broker, so deliveries made here stay pending (sending them is
tests/e2e/test_webhooks.py's).
"""

import time
import uuid

import pytest

from tests.e2e.club import ADMIN, Club


def league_of(club: Club, members: int = 1) -> tuple[str, list[str]]:
    players = [club.player()[0] for _ in range(members)]
    return club.league(members=players), players


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"url": "ftp://club.example/hook", "events": ["table_ready"]}, "invalid_webhook_url"),
        ({"url": "club.example/hook", "events": ["table_ready"]}, "invalid_webhook_url"),
        ({"url": "http:///hook", "events": ["table_ready"]}, "invalid_webhook_url"),
        ({"url": "https://ann:pw@club.example/hook", "events": ["table_ready"]}, "invalid_webhook_url"),
        ({"url": "https://club.example/a hook", "events": ["table_ready"]}, "invalid_webhook_url"),
        ({"url": "https://club.example:99999/hook", "events": ["table_ready"]}, "invalid_webhook_url"),
        ({"url": "https://club.example/hook#part", "events": ["table_ready"]}, "invalid_webhook_url"),
        ({"url": "https://club.example/hook", "events": ["card_played"]}, "unknown_webhook_event"),
        ({"url": "https://club.example/hook", "events": []}, "unknown_webhook_event"),
        ({"url": "https://club.example/hook", "events": ["turn"]}, "invalid_webhook_players"),
        (
            {"url": "https://club.example/hook", "events": ["turn"], "players": ["ann"]},
            "invalid_webhook_players",
        ),
    ],
)
def test_a_bad_url_an_unknown_event_or_turns_without_players_are_refused_and_change_nothing(club, body, code):
    league, _ = league_of(club)
    club.refuses("POST", f"/leagues/{league}/webhooks", 422, code, json=body)
    assert club.ok("GET", f"/leagues/{league}/webhooks")["webhooks"] == []


def test_players_without_the_turn_event_or_not_of_the_league_are_refused(club):
    league, (ann,) = league_of(club)
    stranger = club.player()[0]
    body = {"url": "https://club.example/hook", "events": ["table_ready"], "players": [ann]}
    club.refuses("POST", f"/leagues/{league}/webhooks", 422, "invalid_webhook_players", json=body)
    body = {"url": "https://club.example/hook", "events": ["turn"], "players": [stranger]}
    club.refuses("POST", f"/leagues/{league}/webhooks", 422, "not_a_member", json=body)


def test_only_an_admin_registers_or_reads_a_league_s_webhooks(club):
    league, _ = league_of(club)
    _, ann_headers = club.player()
    body = {"url": "https://club.example/hook", "events": ["table_ready"]}
    club.refuses("POST", f"/leagues/{league}/webhooks", 403, "forbidden", json=body, headers=ann_headers)
    club.refuses("POST", f"/leagues/{league}/webhooks", 401, "unauthorized", json=body, headers={})
    club.refuses("GET", f"/leagues/{league}/webhooks", 403, "forbidden", headers=ann_headers)
    club.refuses("POST", f"/leagues/{uuid.uuid4()}/webhooks", 404, "league_not_found", json=body)
    club.refuses(
        "POST", f"/leagues/{league}/webhooks", 400, "malformed_request", json={**body, "secret": "x"}
    )


def test_the_secret_is_shown_at_registration_and_rotation_only_and_a_listing_never_holds_it(club):
    league, (ann,) = league_of(club)
    body = {"url": "https://club.example/hook?club=7", "events": ["turn", "round_started"], "players": [ann]}
    made = club.ok("POST", f"/leagues/{league}/webhooks", json=body)
    hook, secret = made["webhook"]["webhook_id"], made["secret"]
    assert len(secret) == 64
    assert made["webhook"] == made["webhook"] | {
        "league_id": league,
        "url": body["url"],
        "events": ["turn", "round_started"],
        "players": [ann],
        "enabled": True,
        "disabled_reason": "",
    }
    for path in (f"/leagues/{league}/webhooks", f"/webhooks/{hook}", f"/webhooks/{hook}/deliveries"):
        assert secret not in club.client.get(path, headers=ADMIN).text
    rotated = club.ok("POST", f"/webhooks/{hook}/secret")
    assert rotated["secret"] != secret and len(rotated["secret"]) == 64
    assert [found["webhook_id"] for found in club.ok("GET", f"/leagues/{league}/webhooks")["webhooks"]] == [
        hook
    ]


def test_a_removed_webhook_is_gone_and_a_disabled_one_says_why_until_it_is_enabled(club):
    league, _ = league_of(club)
    body = {"url": "http://127.0.0.1:9/hook", "events": ["tournament_finished"]}
    kept = club.ok("POST", f"/leagues/{league}/webhooks", json=body)["webhook"]["webhook_id"]
    gone = club.ok("POST", f"/leagues/{league}/webhooks", json=body)["webhook"]["webhook_id"]
    assert club.client.delete(f"/webhooks/{gone}", headers=ADMIN).status_code == 204
    club.refuses("GET", f"/webhooks/{gone}", 404, "webhook_not_found")
    club.refuses("DELETE", f"/webhooks/{gone}", 404, "webhook_not_found")
    club.refuses("GET", f"/webhooks/{uuid.uuid4()}", 404, "webhook_not_found")
    assert [found["webhook_id"] for found in club.ok("GET", f"/leagues/{league}/webhooks")["webhooks"]] == [
        kept
    ]

    club.refuses("POST", f"/webhooks/{kept}/enable", 409, "already_enabled")
    disabled = club.ok("POST", f"/webhooks/{kept}/disable")
    assert (disabled["enabled"], disabled["disabled_reason"]) == (False, "disabled by an admin")
    club.refuses("POST", f"/webhooks/{kept}/disable", 409, "already_disabled")
    assert club.ok("POST", f"/webhooks/{kept}/enable") == {**disabled, "enabled": True, "disabled_reason": ""}


def test_a_resend_of_a_pending_or_unknown_delivery_is_refused(club):
    league, (ann, bob) = league_of(club, 2)
    body = {"url": "http://127.0.0.1:9/hook", "events": ["dispute_raised"]}
    hook = club.ok("POST", f"/leagues/{league}/webhooks", json=body)["webhook"]["webhook_id"]
    game = club.game([ann, bob], league_id=league)
    club.ok("POST", f"/games/{game['game_id']}/disputes", json={})
    deadline = time.monotonic() + 10
    while not (listed := club.ok("GET", f"/webhooks/{hook}/deliveries")["deliveries"]):
        assert time.monotonic() < deadline, "the read models made no delivery"
        time.sleep(0.02)
    (delivery,) = listed
    assert delivery["status"] == "pending" and delivery["attempts"] == []
    assert delivery["event"] == "dispute_raised" and delivery["next_try_at"] is not None
    path = f"/webhooks/{hook}/deliveries"
    club.refuses("POST", f"{path}/{delivery['delivery_id']}/resend", 409, "delivery_pending")
    club.refuses("POST", f"{path}/{uuid.uuid4()}/resend", 404, "delivery_not_found")
