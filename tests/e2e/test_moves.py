"""Moves and challenges over HTTP: the happy paths, every refusal with its code, idempotency."""

from typing import Any

import pytest

from service.domain.cards import format_cards
from service.domain.rulebook import rulebook
from service.domain.ruleset_options import ruleset
from tests.e2e.club import ADMIN, moves, problem
from tests.integration.tables import deck_for

HANDS = {0: ["9H", "KH", "2C", "3C", "4C"], 1: ["9S", "KS", "2D", "3D", "4D"]}


@pytest.fixture
def table(client, club) -> dict[str, Any]:
    """A fresh game of Ada (seat 0, to move first) and Bob; the starter is 5H."""
    ada, ada_headers = club.player("Ada")
    bob, bob_headers = club.player("Bob")
    _, stranger = club.player("Stranger")
    game = club.game([ada, bob], deck=deck_for(HANDS, starter="5H", seats=2, dealer=1), first_dealer=1)
    return {"game": game, "ada": ada_headers, "bob": bob_headers, "stranger": stranger}


def test_a_player_plays_a_card_and_reads_their_own_write(client, club, table):
    game = table["game"]
    played = client.post(
        moves(game), json={"kind": "play", "card": "9H", "version": game["version"]}, headers=table["ada"]
    )
    assert played.status_code == 200
    result = played.json()
    assert result["version"] == game["version"] + 1 and result["position"] > game["position"]
    assert [event["type"] for event in result["events"]] == ["CardPlayed"]
    assert result["events"][0]["data"]["card"] == "9H"
    assert result["events"][0]["cause"] == {
        "role": "player",
        "actor_id": club.table(game)["seats"][0]["player_id"],
        "command": "PlayCard",
    }
    after = client.get(f"/games/{game['game_id']}?after={result['position']}").json()
    assert after["version"] == result["version"] and after["top"] == "9H" and after["turn"] == 1
    assert after["position"] >= result["position"]


def test_each_refused_move_answers_its_code_and_changes_nothing(client, club, table):
    game, ada, bob = table["game"], table["ada"], table["bob"]
    version = game["version"]
    cases = [
        (ada, {"kind": "play", "card": "9H", "version": version - 1}, 409, "stale_version"),
        (bob, {"kind": "play", "card": "9S", "version": version}, 422, "not_your_turn"),
        (ada, {"kind": "play", "card": "AS", "version": version}, 422, "card_not_in_hand"),
        (ada, {"kind": "play", "card": "2C", "version": version}, 422, "card_does_not_match"),
        (ada, {"kind": "play", "card": "9H", "suit": "S", "version": version}, 422, "suit_not_allowed"),
        (ada, {"kind": "draw", "version": version}, 422, "draw_not_allowed"),
        (ada, {"kind": "keep", "version": version}, 422, "nothing_to_keep"),
        (ada, {"kind": "play", "card": "ZZ", "version": version}, 400, "malformed_card"),
        (ada, {"kind": "name_suit", "suit": "X", "version": version}, 400, "malformed_suit"),
        (ada, {"kind": "play", "card": "9H", "call": "maumau", "version": version}, 400, "malformed_request"),
        (ada, {"kind": "play", "card": "9H", "version": version, "colour": "red"}, 400, "malformed_request"),
        (ada, {"kind": "play", "card": "9H", "version": "three"}, 400, "malformed_request"),
        (ada, {"kind": "play", "card": 9, "version": version}, 400, "malformed_request"),
        (ada, {"kind": "play", "card": "9H"}, 400, "malformed_request"),
        (ada, {"kind": "fly", "version": version}, 400, "malformed_request"),
        (ada, {"card": "9H", "version": version}, 400, "malformed_request"),
        (ada, {"kind": "play", "card": "9H", "version": version, "seat": 1}, 403, "not_your_seat"),
        (table["stranger"], {"kind": "play", "card": "9H", "version": version}, 403, "not_seated"),
        ({}, {"kind": "play", "card": "9H", "version": version}, 401, "unauthorized"),
        (ADMIN, {"kind": "play", "card": "9H", "version": version}, 422, "seat_required"),
        (ADMIN, {"kind": "play", "card": "9H", "version": version, "seat": 7}, 422, "not_a_seat"),
    ]
    for headers, body, status, code in cases:
        with club.unchanged():
            found = problem(client.post(moves(game), json=body, headers=headers), status, code)
        assert not {"KS", "2D", "3D", "4D"} & set(found["detail"].replace(",", " ").split()), found
    for raw in (b'{"kind": "play", "card": "9H"', b"[]", b"null", b"\xff"):
        with club.unchanged():
            response = client.post(
                moves(game), content=raw, headers={**ada, "Content-Type": "application/json"}
            )
        problem(response, 400, "malformed_request")


def test_a_player_draws_and_keeps_and_only_they_see_the_drawn_card(client, club):
    ada, ada_headers = club.player("Ada")
    bob, bob_headers = club.player("Bob")
    hands = {0: ["2C", "3C", "4C", "6C", "KC"], 1: ["9S", "KS", "2D", "3D", "4D"]}
    deck = deck_for(hands, starter="5H", seats=2, dealer=1, stock=["6H"])
    game = club.game([ada, bob], deck=deck, first_dealer=1)
    drawn = club.ok(
        "POST", moves(game), headers=ada_headers, json={"kind": "draw", "version": game["version"]}
    )
    (event,) = drawn["events"]
    assert event["type"] == "CardsDrawn" and event["data"]["cards"] == ["6H"] and event["data"]["count"] == 1
    mine = club.ok("GET", f"/games/{game['game_id']}/me?after={drawn['position']}", headers=ada_headers)
    assert mine["drawn"] == "6H"
    assert {"kind": "keep"} in mine["legal"]
    log = club.ok("GET", f"/games/{game['game_id']}/events?after={game['version']}", headers=bob_headers)
    assert "cards" not in log["events"][0]["data"] and log["events"][0]["data"]["count"] == 1
    kept = club.ok(
        "POST", moves(game), headers=ada_headers, json={"kind": "keep", "version": drawn["version"]}
    )
    assert [e["type"] for e in kept["events"]] == ["CardKept"]


def test_the_dealer_names_the_suit_for_a_jack_starter(client, club):
    ada, ada_headers = club.player("Ada")
    bob, bob_headers = club.player("Bob")
    game = club.game([ada, bob], deck=deck_for(HANDS, starter="JD", seats=2, dealer=1), first_dealer=1)
    assert club.table(game)["phase"] == "name_suit"
    with club.unchanged():
        problem(
            client.post(
                moves(game),
                json={"kind": "name_suit", "suit": "S", "version": game["version"]},
                headers=ada_headers,
            ),
            422,
            "not_your_turn",
        )
    named = club.ok(
        "POST",
        moves(game),
        headers=bob_headers,
        json={"kind": "name_suit", "suit": "S", "version": game["version"]},
    )
    assert named["events"][0]["type"] == "SuitNamed" and named["events"][0]["data"]["suit"] == "S"


def test_an_idempotency_key_sent_again_answers_the_first_result_and_does_nothing(client, club, table):
    game, ada = table["game"], table["ada"]
    body = {"kind": "play", "card": "9H", "version": game["version"]}
    keyed = {**ada, "Idempotency-Key": "play-9h"}
    first = client.post(moves(game), json=body, headers=keyed)
    assert first.status_code == 200
    with club.unchanged():
        again = client.post(moves(game), json=body, headers=keyed)
    assert again.status_code == 200
    assert {k: v for k, v in again.json().items() if k != "position"} == {
        k: v for k, v in first.json().items() if k != "position"
    }
    assert again.json()["position"] >= first.json()["position"]
    with club.unchanged():
        other = client.post(moves(game), json={"kind": "draw", "version": game["version"] + 1}, headers=keyed)
    problem(other, 409, "idempotency_key_reused")
    for version in (game["version"] + 1, game["version"] - 1):  # the same move at another version
        with club.unchanged():
            problem(
                client.post(moves(game), json={**body, "version": version}, headers=keyed),
                409,
                "idempotency_key_reused",
            )
    with club.unchanged():
        problem(
            client.post(moves(game), json=body, headers={**ada, "Idempotency-Key": ""}),
            400,
            "malformed_request",
        )


def test_a_missed_call_is_challenged_and_the_offender_draws_unseen_by_the_challenger(client, club):
    ada, ada_headers = club.player("Ada")
    bob, bob_headers = club.player("Bob")
    hands = {0: ["9H", "KH"], 1: ["9S", "KS"]}
    deck = deck_for(hands, starter="5H", seats=2, dealer=1, hand_size=2)
    game = club.game([ada, bob], deck=deck, first_dealer=1, options={"hand_size": 2})
    challenges = f"/games/{game['game_id']}/challenges"
    with club.unchanged():
        problem(client.post(challenges, json={}, headers=bob_headers), 422, "nothing_to_challenge")
    played = club.ok(
        "POST",
        moves(game),
        headers=ada_headers,
        json={"kind": "play", "card": "9H", "version": game["version"]},
    )
    assert played["events"][0]["data"]["missed"] == "mau"
    with club.unchanged():
        problem(client.post(challenges, json={}, headers=ada_headers), 422, "cannot_challenge_self")
        problem(client.post(challenges, json={"colour": 1}, headers=bob_headers), 400, "malformed_request")
    challenged = club.ok("POST", challenges, headers=bob_headers, json={"version": played["version"]})
    types = [event["type"] for event in challenged["events"]]
    assert types[0] == "MissedCallChallenged" and "CardsDrawn" in types
    penalty = challenged["events"][types.index("CardsDrawn")]["data"]
    assert penalty["seat"] == 0 and penalty["reason"] == "penalty" and penalty["count"] == 2
    assert "cards" not in penalty  # Bob does not see Ada's penalty cards
    mine = club.ok("GET", f"/games/{game['game_id']}/me?after={challenged['position']}", headers=ada_headers)
    assert len(mine["cards"]) == 3


def test_officials_move_for_a_seat_referees_only_in_games_they_officiate(client, club):
    ada, _ = club.player("Ada")
    bob, _ = club.player("Bob")
    referee, referee_headers = club.referee()
    _, other_referee = club.referee()
    league = club.league(members=[ada, bob], referees=[referee])
    deck = deck_for(HANDS, starter="5H", seats=2, dealer=1)
    game = club.game([ada, bob], deck=deck, first_dealer=1, league_id=league)
    body = {"kind": "play", "card": "9H", "version": game["version"], "seat": 0}
    with club.unchanged():
        problem(client.post(moves(game), json=body, headers=other_referee), 403, "not_allowed")
    played = club.ok("POST", moves(game), headers=referee_headers, json=body)
    assert played["events"][0]["cause"]["role"] == "referee"
    friendly = club.game([ada, bob], deck=deck, first_dealer=1)
    assert (
        client.post(
            moves(friendly), json={**body, "version": friendly["version"]}, headers=other_referee
        ).status_code
        == 200
    )


def test_a_haft_khabis_two_lets_its_player_choose_over_http_who_draws(client, club):
    ada, ada_headers = club.player("Ada")
    bob, _ = club.player("Bob")
    cid, _ = club.player("Cid")
    hands = {
        0: ["2H", "3C", "4C", "6C", "9C"],
        1: ["3D", "4D", "6D", "9D", "10D"],
        2: ["3S", "4S", "6S", "9S", "10S"],
    }
    deck = deck_for(hands, starter="5H", seats=3, dealer=2, stock=["KD"])
    game = club.game([ada, bob, cid], deck=deck, first_dealer=2, ruleset="haft-khabis")
    played = club.ok(
        "POST",
        moves(game),
        headers=ada_headers,
        json={"kind": "play", "card": "2H", "version": game["version"]},
    )
    assert played["events"][0]["data"]["phase"] == "choose_player"
    mine = club.me({**game, "position": played["position"]}, ada_headers)
    assert mine["legal"] == [{"kind": "choose_player", "player": 1}, {"kind": "choose_player", "player": 2}]
    with club.unchanged():
        problem(
            client.post(
                moves(game),
                json={"kind": "choose_player", "player": 0, "version": played["version"]},
                headers=ada_headers,
            ),
            422,
            "invalid_choice",
        )
    chosen = club.ok(
        "POST",
        moves(game),
        headers=ada_headers,
        json={"kind": "choose_player", "player": 2, "version": played["version"]},
    )
    assert [event["type"] for event in chosen["events"]] == ["PlayerChosen", "CardsDrawn"]
    assert "cards" not in chosen["events"][1]["data"] and chosen["events"][1]["data"]["reason"] == "effect"
    assert club.table({**game, "position": chosen["position"]})["turn"] == 1


def classic_deck(hands: dict[int, list[str]], starter: str, seats: int, dealer: int) -> list[str]:
    """A 32-card classic deck order dealing these hands of 5 and this starter; the rest lowest first."""
    named = {card for cards in hands.values() for card in cards} | {starter}
    spare = iter(c for c in format_cards(rulebook(ruleset("classic")).sorted_deck) if c not in named)
    wanted = {seat: list(cards) for seat, cards in hands.items()}
    order = [
        wanted[seat].pop(0) if wanted.get(seat) else next(spare)
        for seat in ((dealer + 1 + i) % seats for i in range(seats * 5))
    ]
    return [*order, starter, *spare]


def test_a_classic_eight_with_stack_eights_waits_and_the_next_player_takes_it_over_http(client, club):
    ada, ada_headers = club.player("Ada")
    bob, bob_headers = club.player("Bob")
    cid, _ = club.player("Cid")
    hands = {
        0: ["8H", "9C", "10C", "KC", "QC"],
        1: ["8C", "9D", "10D", "KD", "QD"],
        2: ["9S", "10S", "KS", "QS", "7S"],
    }
    deck = classic_deck(hands, starter="9H", seats=3, dealer=2)
    game = club.game(
        [ada, bob, cid], deck=deck, first_dealer=2, ruleset="classic", options={"stack_eights": True}
    )
    played = club.ok(
        "POST",
        moves(game),
        headers=ada_headers,
        json={"kind": "play", "card": "8H", "version": game["version"]},
    )
    assert club.table({**game, "position": played["position"]})["turn"] == 1
    mine = club.me({**game, "position": played["position"]}, bob_headers)
    assert mine["legal"] == [{"kind": "play", "card": "8C"}, {"kind": "draw"}]
    with club.unchanged():
        problem(
            client.post(
                moves(game),
                json={"kind": "play", "card": "9D", "version": played["version"]},
                headers=bob_headers,
            ),
            422,
            "skip_pending",
        )
    taken = club.ok(
        "POST", moves(game), headers=bob_headers, json={"kind": "draw", "version": played["version"]}
    )
    assert [event["type"] for event in taken["events"]] == ["SkipTaken"]
    assert club.table({**game, "position": taken["position"]})["turn"] == 2
    assert len(club.me({**game, "position": taken["position"]}, bob_headers)["cards"]) == 5  # nothing drawn
