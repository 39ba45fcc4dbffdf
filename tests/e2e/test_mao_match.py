"""A whole Mao match over the HTTP API: Rita judges, Ada and Bo play, a learning bot fills seat 2.

The deals are Rita's own decks, so every card is known: the bot never holds a card that matches,
so it draws each time (a draw or a penalty costs the stock one card either way). Round 1 has a
play out of turn, a pause, a wrong play, a missed "mao", table talk and Ada going out; its rule is
then revealed, Ada proposes the next one, Rita approves it, and Ada wins round 2 and the match.
Nothing a player is sent before a rule's reveal holds that rule.
"""

from typing import Any

from tests.e2e.club import problem
from tests.e2e.mao import MaoTable, deck, mao_table

FIRST_RULE = "after Q: next black"
SECOND_RULE = "after K: next red"


def types(answer: dict[str, Any]) -> list[str]:
    return [event["type"] for event in answer["events"]]


def play_round_one(t: MaoTable) -> None:
    # dealer: the bot (seat 2); Ada starts. Stock, top first: what each card owed will be
    first = deck(
        dealer=2,
        hands={0: "QH QC KC", 1: "8H 5C 6C", 2: "2D 3D 4D"},
        starter="7H",
        stock="8D 9D 10D JD 9C KD AD",
    )
    assert t.ok("rita", "PUT", "/rule", json={"text": FIRST_RULE})["events"][0]["text"] == FIRST_RULE
    dealt = t.ok("rita", "POST", "/deals", json={"deck": first})
    assert types(dealt) == ["RoundDealt"]
    assert (
        t.ok("ada", "GET", "/me")["hand"] == ["QC", "KC", "QH"] or len(t.ok("ada", "GET", "/me")["hand"]) == 3
    )

    # Bo plays out of turn: the card comes back with a penalty card, the turn stays Ada's
    out_of_turn = t.ok("bo", "POST", "/plays", json={"card": "8H"})
    assert out_of_turn["play"] == "cancelled" and out_of_turn["reason"] == "out of turn"
    assert t.ok("bo", "GET", "/me")["cards"] == [3, 4, 3]

    # Ada calls a pause: nothing is played until she ends it, then her turn goes on
    t.ok("ada", "POST", "/pause", json={})
    with t.club.unchanged():
        problem(t.ask("bo", "POST", "/utterances", json={"words": "hello"}), 409, "game_paused")
    t.ok("ada", "DELETE", "/pause")

    played = t.ok("ada", "POST", "/plays", json={"card": "QH"})
    assert played["play"] == "accepted"

    # after a queen the next card must be black: Bo's heart is returned with the judge's short reason
    wrong = t.ok("bo", "POST", "/plays", json={"card": "8H"})
    assert wrong["play"] == "returned" and wrong["reason"] == "wrong colour"
    # the bot (seat 2) holds nothing that matches the queen: it draws, in the workers' step
    assert types(wrong)[-1] == "CardTaken" and t.ok("ada", "GET", "/me")["turn"] == 2
    assert t.bots() == ["CardDrawn", "CardTaken"]
    assert t.ok("ada", "GET", "/me")["turn"] == 0

    # Ada plays down to one card and forgets to say "mao"; Bo's talk costs him a card meanwhile
    assert t.ok("ada", "POST", "/plays", json={"card": "QC"})["play"] == "accepted"
    talk = t.ok("bo", "POST", "/utterances", json={"words": "Nice play"})
    assert types(talk) == ["Spoke", "PenaltyGiven", "CardTaken"]
    assert talk["events"][1]["reason"] == "extra_utterance"

    # Bo's play closes Ada's window: the missed "mao" costs her a card before his play
    closed = t.ok("bo", "POST", "/plays", json={"card": "5C"})
    assert types(closed)[:3] == ["CallMissed", "PenaltyGiven", "CardPlayed"]
    assert closed["events"][0]["words"] == "mao"
    t.bots()

    assert t.ok("ada", "POST", "/plays", json={"card": "KC", "says": ["mao"]})["play"] == "accepted"
    assert t.ok("bo", "POST", "/plays", json={"card": "6C"})["play"] == "accepted"
    t.bots()
    assert t.ok("ada", "GET", "/me")["hand"] == ["9C"]
    # the rule is still secret: nothing any player was sent names it
    assert not any(FIRST_RULE in text for text in t.answers["ada"] + t.answers["bo"])

    last = t.ok("ada", "POST", "/plays", json={"card": "9C", "says": ["mao"]})
    assert types(last)[:4] == ["CardPlayed", "CallMade", "RoundEnded", "RuleRevealed"]
    assert last["events"][3]["text"] == FIRST_RULE


def test_a_whole_mao_match_with_a_human_judge_two_players_and_a_bot(client):
    t = mao_table(client)
    play_round_one(t)

    table = t.ok("bo", "GET", "")
    assert table["wins"] == [1, 0, 0] and table["revealed_rule"] == FIRST_RULE and table["phase"] == "deal"

    # only the round's winner proposes; the judge approves; the proposal stays between them
    problem(t.ask("bo", "POST", "/proposals", json={"text": SECOND_RULE}), 403, "not_round_winner")
    assert t.ok("ada", "POST", "/proposals", json={"text": SECOND_RULE})["events"][0]["text"] == SECOND_RULE
    assert t.ok("ada", "GET", "/me")["my_proposal"] == SECOND_RULE
    assert t.judge_view()["proposal"] == SECOND_RULE
    approved = t.ok("rita", "POST", "/proposal/approval")
    assert types(approved) == ["RuleApproved", "RuleWritten"]
    assert t.judge_view()["rule"] == SECOND_RULE

    # round 2: Ada deals, Bo starts; Bo and the bot draw while Ada plays her hearts out
    second = deck(
        dealer=0, hands={0: "6H 7H 8H", 1: "2C 3C 4C", 2: "2S 3S 4S"}, starter="5H", stock="9C 2D 10C 3D"
    )
    t.ok("rita", "POST", "/deals", json={"deck": second})
    for card, says in (("6H", []), ("7H", ["mao"])):
        assert types(t.ok("bo", "POST", "/draws", json={})) == ["CardDrawn", "CardTaken"]
        assert t.bots() == ["CardDrawn", "CardTaken"]  # the bot's draw after Bo's
        assert t.ok("ada", "POST", "/plays", json={"card": card, "says": says})["play"] == "accepted"
    t.ok("bo", "POST", "/draws", json={})
    t.bots()
    assert not any(
        SECOND_RULE in text for text in t.answers if "my_proposal" not in text and "RuleProposed" not in text
    )
    won = t.ok("ada", "POST", "/plays", json={"card": "8H", "says": ["mao"]})
    assert types(won)[-3:] == ["RoundEnded", "RuleRevealed", "MatchEnded"]

    over = t.ok("bo", "GET", "")
    assert over["phase"] == "over" and over["winner"] == 0 and over["wins"] == [2, 0, 0]
    assert over["revealed_rule"] == SECOND_RULE

    # the referee's replay says why each penalty was given
    steps = t.ok("rita", "GET", "/replay")["steps"]
    why = [step["why"] for step in steps if step["type"] == "PenaltyGiven"]
    assert [w["reason"] for w in why] == ["out_of_turn", "wrong_colour", "extra_utterance", "missed_call"]
    assert why[0]["card"] == "8H" and why[0]["top"] == "7H"
    assert why[1]["card"] == "8H" and why[1]["top"] == "QH" and why[1]["in_force"] == [FIRST_RULE]
    assert why[1]["rule"] == FIRST_RULE and why[1]["text"] == "wrong colour"
    assert why[2]["words"] == "nice play" and why[3]["words"] == "mao"

    # the public log: every play and word, the rules only as revealed, no hand
    public = client.get(f"/mao-games/{t.game_id}/events").json()["events"]
    written = [event for event in public if event["type"] == "RuleWritten"]
    assert written and all("text" not in event for event in written)
    assert [event["text"] for event in public if event["type"] == "RuleRevealed"] == [FIRST_RULE, SECOND_RULE]
    assert all("hand" not in event and "deck" not in event for event in public)


def test_a_mao_league_is_founded_with_its_options_and_listed_by_the_read_models(client):
    t = mao_table(client)
    league = client.get(f"/leagues/{t.league}").json()
    assert league["ruleset"] == "mao" and league["options"] == {"hand_size": 3, "rounds_to_win": 2}
    assert league["referees"] == [t.ids["rita"]]
    position = t.club.log_position()
    standings = client.get(f"/leagues/{t.league}/standings?after={position}")
    assert standings.status_code == 200, standings.text
    # the read models folded the league past its founding: it is listed with its ruleset
    listed = client.get(f"/leagues?limit=100&after={position}").json()
    assert listed["position"] >= position
    pages = [listed]
    while pages[-1]["next"]:
        pages.append(client.get(f"/leagues?limit=100&cursor={pages[-1]['next']}").json())
    found = [item for page in pages for item in page["items"] if item["league_id"] == t.league]
    assert [item["ruleset"] for item in found] == ["mao"]


def test_a_player_who_judges_writes_the_rule_and_deals_but_sees_no_other_hand(client):
    t = mao_table(client)
    body = {"league_id": t.league, "seats": [t.ids["ada"], t.ids["bo"], "bot:learning"], "judge_seat": 0}
    created = t.club.ok("POST", "/mao-games", headers=t.headers["rita"], json=body)
    assert created["judge"] == "referee" and created["judge_seat"] == 0
    t.game_id = created["game_id"]

    problem(t.ask("bo", "PUT", "/rule", json={"text": SECOND_RULE}), 403, "forbidden")
    assert t.ok("ada", "PUT", "/rule", json={"text": SECOND_RULE})["events"][0]["type"] == "RuleWritten"
    with t.club.unchanged():
        problem(t.ask("ada", "POST", "/deals", json={"deck": deck(2, {}, "5H")}), 403, "not_allowed")
    dealt = t.ok("ada", "POST", "/deals", json={})
    assert "RoundDealt" in types(dealt)
    assert t.judge_view()["rule"] == SECOND_RULE  # the rule she wrote is the round's
    problem(t.ask("ada", "GET", "/judge"), 403, "forbidden")
    problem(t.ask("ada", "GET", "/replay"), 403, "forbidden")
    assert "hands" not in t.ok("ada", "GET", "/me")
    for event in t.ok("ada", "GET", "/events")["events"]:
        assert "deck" not in event  # her own cards only
