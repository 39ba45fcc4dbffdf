"""No answer to a player, a spectator or the public holds a Mao rule before its reveal: not the
views, the log, the answers to acts nor the refusals (its live stream: test_mao_stream).

The rule has a play clause and a call clause; Ada plays a king and leaves its secret call
unsaid, Bo breaks the play clause, and both try what they may not do.
"""

from tests.e2e.mao import deck, mao_table

RULE = 'after 7: next not 7; on K: say "long live the king"'
TELLS = ("long live", "not 7", "after 7", "king")


def test_no_answer_to_anyone_but_the_judge_holds_the_rule_before_it_is_revealed(client):
    t = mao_table(client)
    t.ok("rita", "PUT", "/rule", json={"text": RULE})
    first = deck(
        dealer=2, hands={0: "KH 7H 2C", 1: "3H 7C 9D", 2: "2S 4S 6S"}, starter="5H", stock="10C 8D 9S"
    )
    t.ok("rita", "POST", "/deals", json={"deck": first})

    assert t.ok("ada", "POST", "/plays", json={"card": "KH"})["play"] == "accepted"
    missed = t.ok("bo", "POST", "/plays", json={"card": "3H"})
    assert missed["events"][0]["type"] == "CallMissed" and "words" not in missed["events"][0]
    assert missed["events"][1]["reason"] == "missed_call"
    t.bots()  # its turn, as the workers would play it
    assert t.ok("ada", "POST", "/plays", json={"card": "7H"})["play"] == "accepted"
    wrong = t.ok("bo", "POST", "/plays", json={"card": "7C"})
    assert wrong["play"] == "returned" and wrong["reason"] == "wrong rank"

    for who, method, tail, body, status in (
        ("bo", "POST", "/plays", {"card": "AS"}, 422),
        ("bo", "PUT", "/rule", {"text": "after K: next red"}, 403),
        ("ada", "POST", "/proposals", {"text": RULE}, 422),
        ("ada", "GET", "/judge", None, 403),
        ("bo", "GET", "/replay", None, 403),
        ("outsider", "GET", "/me", None, 403),
    ):
        assert t.ask(who, method, tail, json=body).status_code == status
    for who in ("ada", "bo", "outsider", "anon"):
        t.ask(who, "GET", "")
        t.ask(who, "GET", "/events")
    for who in ("ada", "bo"):
        t.ask(who, "GET", "/me")

    told = [text for texts in t.answers.values() for text in texts]
    assert len(told) >= 20
    assert not [tell for tell in TELLS for text in told if tell in text.lower()]
    # the judge's log holds what the others' never did
    judged = t.ok("rita", "GET", "/events")["events"]
    assert any(event.get("words") == "long live the king" for event in judged)
    assert t.judge_view()["rule"] == RULE
