"""The Webhook aggregate's refusals and events, the deliveries' signature, and an erased player's name
leaving a payload."""

import json
from uuid import uuid4

import msgspec
import pytest

from service.domain.league import ERASED_NAME
from service.domain.webhook import EVENT_KINDS, Webhook
from service.projections.hooks import erased_from
from tests.refusals import refused
from workers.webhooks import REPLAY_WINDOW, sign, verify

URL = "https://club.example/hook"


def a_hook(**changes: object) -> Webhook:
    given = {"url": URL, "events": ["table_ready"], "players": ()} | changes
    return Webhook.register(uuid4(), given["url"], given["events"], given["players"], "s" * 64)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "url",
    [
        "",
        "ftp://club.example/hook",
        "mailto:club@example.org",
        "//club.example/hook",
        "http:///hook",
        "https://ann:secret@club.example/hook",
        "https://club.example/a\nb",
        "https://club.example:0/hook",
        "https://club.example:http/hook",
        "https://club.example/hook#frag",
        "https://club.example/" + "x" * 2000,
    ],
)
def test_a_url_that_is_not_plain_http_or_https_to_a_host_is_refused(url):
    refused("invalid_webhook_url", lambda: a_hook(url=url))


def test_http_and_https_urls_with_a_port_path_and_query_are_taken_as_given():
    for url in ("http://127.0.0.1:8080/in?club=7", "https://club.example/hook"):
        assert a_hook(url=url).url == url


def test_events_are_known_ones_at_least_one_kept_in_the_documented_order_without_repeats():
    assert a_hook(events=["round_started", "table_ready", "round_started"]).events == (
        "table_ready",
        "round_started",
    )
    refused("unknown_webhook_event", lambda: a_hook(events=[]))
    refused("unknown_webhook_event", lambda: a_hook(events=["table_ready", "card_played"]))
    assert a_hook(events=EVENT_KINDS, players=["p"]).events == EVENT_KINDS


def test_turn_players_come_with_the_turn_event_and_only_with_it():
    assert a_hook(events=["turn"], players=["p", "p"]).players == ("p",)
    refused("invalid_webhook_players", lambda: a_hook(events=["turn"]))
    refused("invalid_webhook_players", lambda: a_hook(events=["table_ready"], players=["p"]))
    many = [str(n) for n in range(65)]
    refused("invalid_webhook_players", lambda: a_hook(events=["turn"], players=many))


def test_disable_enable_rotate_and_remove_record_their_events_and_refusals_record_nothing():
    hook = a_hook()
    hook.collect_events()
    refused("already_enabled", hook.enable)
    hook.disable("its receiver failed")
    assert (hook.enabled, hook.disabled_reason) == (False, "its receiver failed")
    refused("already_disabled", lambda: hook.disable("again"))
    hook.enable()
    hook.rotate_secret("t" * 64)
    assert (hook.enabled, hook.disabled_reason, hook.secret) == (True, "", "t" * 64)
    hook.remove()
    assert [type(event).__name__ for event in hook.collect_events()] == [
        "Disabled",
        "Enabled",
        "SecretRotated",
        "Removed",
    ]
    for change in (hook.enable, hook.remove, lambda: hook.disable("x"), lambda: hook.rotate_secret("u")):
        refused("webhook_not_found", change)
    assert hook.collect_events() == []


def test_a_signature_verifies_for_its_body_and_secret_within_the_replay_window_only():
    body, secret, at = b'{"event":"turn"}', "k" * 64, 1_800_000_000
    header = sign(secret, body, at)
    assert header.startswith(f"t={at},v1=") and len(header.split("v1=")[1]) == 64
    assert verify(secret, body, header, at + REPLAY_WINDOW)
    assert not verify(secret, body, header, at + REPLAY_WINDOW + 1)  # replayed too late
    assert not verify(secret, body + b" ", header, at)
    assert not verify("j" * 64, body, header, at)
    assert not verify(secret, body, header.replace(f"t={at}", f"t={at + 1}"), at)  # the time is signed too
    assert not verify(secret, body, "v1=abc", at) and not verify(secret, body, "t=soon,v1=abc", at)


def test_an_erased_players_name_leaves_a_payload_wherever_it_names_them_and_nothing_else_changes():
    zelda, bob = str(uuid4()), str(uuid4())

    def seat(number: int, player: str, name: str) -> dict[str, object]:
        return {"seat": number, "entrant": player, "player_id": player, "name": name}

    bot = {"seat": 1, "entrant": "bot:heuristic#1", "bot": "heuristic"}
    table = {"table": 0, "game_id": str(uuid4()), "seats": [seat(0, zelda, "Zelda"), bot]}
    data = {
        "round_no": 1,
        "tables": [table, table | {"seats": [seat(0, bob, "Bob")]}],
        "byes": [{"entrant": zelda, "player_id": zelda, "name": "Zelda"}],
    }
    made = msgspec.json.encode({"id": str(uuid4()), "event": "round_started", "data": data})

    rewritten = erased_from(made, zelda)

    assert rewritten is not None
    assert json.loads(rewritten) == json.loads(made.replace(b'"Zelda"', json.dumps(ERASED_NAME).encode()))
    assert b"Zelda" not in rewritten and b'"Bob"' in rewritten
    assert erased_from(rewritten, zelda) is None  # rewritten already
    assert erased_from(made, str(uuid4())) is None  # names someone else
