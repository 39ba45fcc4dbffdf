"""Every refusal of the Mao routes: problem+json with its stable code, and nothing stored."""

from typing import Any

import pytest

from tests.e2e.club import ADMIN, Club, problem
from tests.e2e.mao import MaoTable, deck, mao_table
from tests.e2e.test_mao_match import play_round_one

Cell = tuple[str, str, str, dict[str, Any] | None, int, str]


def dealt(t: MaoTable) -> MaoTable:
    """Round 1 dealt as in the whole match: Ada (seat 0) to play, holding QH QC KC."""
    first = deck(dealer=2, hands={0: "QH QC KC", 1: "8H 5C 6C", 2: "2D 3D 4D"}, starter="7H", stock="8D 9D")
    t.ok("rita", "POST", "/deals", json={"deck": first})
    return t


BEFORE_THE_DEAL: list[Cell] = [
    ("ada", "POST", "/plays", {"card": "QH"}, 409, "round_not_dealt"),
    ("ada", "POST", "/pause", {}, 409, "round_not_dealt"),
    ("ada", "PUT", "/rule", {"text": "after K: next red"}, 403, "forbidden"),
    ("rita", "PUT", "/rule", {"text": "after Q: next blue"}, 422, "malformed_rule"),
    (
        "rita",
        "PUT",
        "/rule",
        {"text": "after Q: next not Q; after hearts: next not hearts"},
        422,
        "rule_incompatible",
    ),
    ("rita", "PUT", "/rule", {"text": "after Q: next black", "by": "me"}, 400, "malformed_request"),
    ("rita", "POST", "/deals", {"deck": ["QH"] * 52}, 422, "invalid_deck"),
    ("rita", "POST", "/deals", {"deck": ["ZZ"]}, 422, "invalid_deck"),
    ("rita", "POST", "/deals", {"deck": ["X1"]}, 422, "invalid_deck"),
    ("ada", "POST", "/deals", {}, 403, "forbidden"),
    ("outsider", "POST", "/deals", {}, 403, "forbidden"),
    ("rita", "POST", "/proposal/approval", None, 409, "no_proposal"),
    ("rita", "POST", "/proposal/refusal", None, 409, "no_proposal"),
    ("ada", "POST", "/proposals", {"text": "after K: next red"}, 403, "not_round_winner"),
    ("ada", "GET", "/judge", None, 403, "forbidden"),
    ("ada", "GET", "/replay", None, 403, "forbidden"),
    ("outsider", "GET", "/me", None, 403, "not_seated"),
    ("rita", "GET", "/me", None, 422, "seat_required"),
]

DURING_PLAY: list[Cell] = [
    ("ada", "POST", "/plays", {"card": "ZZ"}, 400, "malformed_request"),
    ("ada", "POST", "/plays", {"card": "X1"}, 400, "malformed_request"),
    ("ada", "POST", "/plays", {"card": "2S"}, 422, "card_not_in_hand"),
    ("ada", "POST", "/plays", {"card": "QH", "seat": 1}, 403, "not_your_seat"),
    ("ada", "POST", "/plays", {"card": "QH", "says": ["   "]}, 422, "malformed_utterance"),
    ("outsider", "POST", "/plays", {"card": "QH"}, 403, "not_seated"),
    ("rita", "POST", "/plays", {"card": "QH"}, 422, "seat_required"),
    ("rita", "POST", "/plays", {"card": "QH", "seat": 7}, 422, "not_a_seat"),
    ("bo", "POST", "/draws", {}, 422, "not_your_turn"),
    ("bo", "POST", "/utterances", {"words": "x" * 81}, 400, "malformed_request"),
    ("ada", "POST", "/plays", {"card": "QH", "says": ["x" * 81]}, 422, "malformed_utterance"),
    ("bo", "DELETE", "/pause", None, 409, "not_paused"),
    ("bo", "POST", "/utterances", {"words": "whose turn is it", "about": "order"}, 409, "not_paused"),
    ("rita", "PUT", "/rule", {"text": "after K: next red"}, 422, "round_in_progress"),
    ("rita", "POST", "/deals", {}, 422, "round_in_progress"),
    ("ada", "POST", "/proposals", {"text": "after K: next red"}, 422, "round_in_progress"),
]


@pytest.mark.parametrize(("who", "method", "tail", "body", "status", "code"), BEFORE_THE_DEAL)
def test_a_refusal_before_the_deal_changes_nothing(client, who, method, tail, body, status, code):
    mao_table(client).refuses(who, method, tail, status, code, json=body)


@pytest.mark.parametrize(("who", "method", "tail", "body", "status", "code"), DURING_PLAY)
def test_a_refusal_during_play_changes_nothing(client, who, method, tail, body, status, code):
    dealt(mao_table(client)).refuses(who, method, tail, status, code, json=body)


def test_a_pause_refuses_acts_a_second_pause_and_an_end_by_another(client):
    t = dealt(mao_table(client))
    t.ok("ada", "POST", "/pause", json={})
    t.refuses("ada", "POST", "/plays", 409, "game_paused", json={"card": "QH"})
    t.refuses("bo", "POST", "/pause", 409, "already_paused", json={})
    t.refuses("bo", "DELETE", "/pause", 403, "not_pause_caller")


def test_in_a_pause_talk_about_the_turn_order_or_safety_is_allowed_for_all_to_see_and_other_talk_refused(
    client,
):
    t = dealt(mao_table(client))
    t.ok("ada", "POST", "/pause", json={})
    talk = t.ok("bo", "POST", "/utterances", json={"words": "Is it my turn?", "about": "order"})
    expected = {"type": "TalkedInPause", "seat": 1, "about": "order", "words": "is it my turn?"}
    assert [{k: v for k, v in event.items() if k != "number"} for event in talk["events"]] == [expected]
    assert talk["events"][0] in t.ok("ada", "GET", "/events")["events"]
    assert t.ok("bo", "GET", "/me")["cards"] == [3, 3, 3]  # no penalty card
    t.ok("rita", "POST", "/utterances", json={"words": "mind the coffee", "about": "safety", "seat": 0})
    t.refuses("bo", "POST", "/utterances", 409, "game_paused", json={"words": "is it the queens"})
    t.refuses(
        "bo",
        "POST",
        "/utterances",
        400,
        "malformed_request",
        json={"words": "is it the queens", "about": "rule"},
    )


def test_a_deal_waits_for_the_judge_to_answer_a_proposal_and_a_second_proposal_waits_too(client):
    t = mao_table(client)
    play_round_one(t)
    t.ok("ada", "POST", "/proposals", json={"text": "after K: next red"})
    t.refuses("rita", "POST", "/deals", 409, "proposal_pending", json={})
    t.refuses("ada", "POST", "/proposals", 409, "proposal_pending", json={"text": "after J: next red"})
    t.refuses("ada", "POST", "/proposals/approval", 404, "not_found")
    t.refuses("ada", "POST", "/proposal/approval", 403, "forbidden")
    refusal = t.ok("rita", "POST", "/proposal/refusal")
    assert [event["type"] for event in refusal["events"]] == ["RuleRefused"]


def test_every_act_after_the_match_is_over_is_refused(client):
    t = mao_table(client, rounds_to_win=1)
    play_round_one(t)
    for who, method, tail, body in (
        ("ada", "POST", "/plays", {"card": "QH"}),
        ("rita", "POST", "/deals", {}),
        ("rita", "PUT", "/rule", {"text": "after K: next red"}),
        ("ada", "POST", "/proposals", {"text": "after K: next red"}),
    ):
        t.refuses(who, method, tail, 409, "game_over", json=body)


def test_the_server_as_judge_leaves_no_rule_to_write_nor_proposal_to_answer(client):
    t = mao_table(client, judge="server")
    assert t.ok("ada", "GET", "")["phase"] == "play"  # dealt at once
    t.refuses("rita", "PUT", "/rule", 409, "server_judges", json={"text": "after K: next red"})
    t.refuses("admin", "POST", "/proposal/approval", 409, "server_judges")
    t.refuses("ada", "POST", "/deals", 403, "not_allowed", json={"deck": deck(0, {}, "5H")})


def mao_league(club: Club, **body: Any) -> Any:
    return club.client.post("/leagues", headers=ADMIN, json={"name": "Mao night", "ruleset": "mao", **body})


def test_a_mao_league_refuses_an_option_it_does_not_have_or_out_of_range(client):
    club = Club(client)
    with club.unchanged():
        problem(mao_league(club, options={"target_score": 100}), 422, "unknown_option")
        problem(mao_league(club, options={"hand_size": 9}), 422, "invalid_option")
        problem(mao_league(club, options={"rounds_to_win": True}), 422, "invalid_option")


def test_the_secret_rule_is_no_league_option_its_text_is_not_read_and_its_name_is_unknown(client):
    # a league's options are public: the rule is written for each match by its judge (PUT .../rule)
    club = Club(client)
    with club.unchanged():
        text = mao_league(club, options={"secret_rule": "after Q: next black"})
        assert "options" in problem(text, 400, "malformed_request")["detail"]
        problem(mao_league(club, options={"secret_rule": 1}), 422, "unknown_option")


def test_a_card_game_in_a_mao_league_is_refused(client):
    t = mao_table(client)
    with t.club.unchanged():
        answer = client.post(
            "/games", headers=ADMIN, json={"seats": [t.ids["ada"], t.ids["bo"]], "league_id": t.league}
        )
        problem(answer, 422, "mao_league")


def test_making_a_mao_match_is_refused_for_each_wrong_table(client):
    t = mao_table(client)
    club = t.club
    other_league = club.league([t.ids["ada"], t.ids["bo"]])
    no_referee = club.league([t.ids["ada"], t.ids["bo"]], ruleset="mao")
    stranger = club.player()[0]
    ada, bo = t.ids["ada"], t.ids["bo"]
    cases = [
        ({"league_id": other_league, "seats": [ada, bo, "bot:random"]}, ADMIN, 422, "not_a_mao_league"),
        ({"league_id": t.league, "seats": [ada, bo]}, ADMIN, 422, "player_count"),
        ({"league_id": t.league, "seats": [ada, bo, stranger]}, ADMIN, 422, "not_a_member"),
        ({"league_id": t.league, "seats": [ada, bo, "bot:clever"]}, ADMIN, 422, "unknown_bot"),
        ({"league_id": t.league, "seats": [ada, ada, bo]}, ADMIN, 422, "player_seated_twice"),
        ({"league_id": t.league, "seats": [ada, bo, "x"]}, ADMIN, 404, "player_not_found"),
        ({"league_id": no_referee, "seats": [ada, bo, "bot:random"]}, ADMIN, 422, "no_referee"),
        (
            {"league_id": t.league, "seats": [ada, bo, "bot:random"], "first_dealer": 3},
            ADMIN,
            422,
            "not_a_seat",
        ),
        (
            {"league_id": t.league, "seats": [ada, bo, "bot:random"], "judge": "me"},
            ADMIN,
            400,
            "malformed_request",
        ),
        ({"league_id": t.league, "seats": [ada, bo, "bot:random"]}, t.headers["ada"], 403, "forbidden"),
        (
            {"league_id": "5d8e2a47-1b3c-4f6d-8e9a-0c2b4d6f8a1e", "seats": [ada]},
            ADMIN,
            404,
            "league_not_found",
        ),
    ]
    for body, headers, status, code in cases:
        with club.unchanged():
            problem(client.post("/mao-games", headers=headers, json=body), status, code)


def test_a_match_that_does_not_exist_is_not_found(client):
    missing = "9b2f4c1e-6a3d-4e8f-b1c2-7d5e9f0a1b2c"
    problem(client.get(f"/mao-games/{missing}"), 404, "game_not_found")
    problem(client.get(f"/mao-games/{missing}/events"), 404, "game_not_found")
    problem(
        client.post(f"/mao-games/{missing}/plays", headers=ADMIN, json={"card": "QH", "seat": 0}),
        404,
        "game_not_found",
    )


def test_a_judging_seat_must_be_a_players_seat_of_a_human_judged_match(client):
    t = mao_table(client)
    seats = [t.ids["ada"], t.ids["bo"], "bot:learning"]
    for extra, code in (
        ({"judge_seat": 2}, "not_a_seat"),
        ({"judge_seat": 5}, "not_a_seat"),
        ({"judge_seat": 0, "judge": "server"}, "invalid_option"),
    ):
        with t.club.unchanged():
            answer = client.post(
                "/mao-games", headers=ADMIN, json={"league_id": t.league, "seats": seats, **extra}
            )
            problem(answer, 422, code)
