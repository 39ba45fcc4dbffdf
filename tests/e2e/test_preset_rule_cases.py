"""A sample of each preset's rule cases through the HTTP API, each dealt from an explicit deck: the
signature effect of every preset of the family (docs/rules/). Choosing who draws in
haft-khabis is in test_moves.py."""

from typing import Any

from tests.e2e.club import problem
from tests.e2e.preset_tables import Table


def plays(view: dict[str, Any]) -> set[str]:
    """The cards a seat's view says it may play now."""
    return {move["card"] for move in view["legal"] if move["kind"] == "play"}


def test_a_classic_ace_must_be_followed_by_its_player(client, club):
    hands = {0: ["AH", "KH", "8C", "9C", "10C"], 1: ["8D", "9D", "10D", "QD", "KD"]}
    table = Table(club, "classic", hands, "9H")
    played = table.move(0, "play", card="AH")
    assert played[0]["data"]["turn"] == 0 and table.table()["turn"] == 0
    assert "KH" in plays(table.me(0)) and table.me(1)["legal"] == []
    table.move(0, "play", card="KH")
    assert table.table()["turn"] == 1


def test_a_101_six_is_covered_by_its_player(client, club):
    table = Table(club, "101", {0: ["6H", "KH", "8C", "9C"], 1: ["8D", "9D", "10D", "KD"]}, "9H")
    table.move(0, "play", card="6H")
    assert table.table()["turn"] == 0 and plays(table.me(0)) == {"KH"}
    table.move(0, "play", card="KH")
    assert table.table()["turn"] == 1


def test_a_101_player_whose_total_goes_over_101_is_out_and_the_last_one_in_wins(client, club):
    # Bob can follow neither the 9 nor hearts: he draws until a heart comes, 117 points of cards
    stock = ["AS", "10C", "10D", "10S", "KC", "KD", "7C", "7D", "7S", "6C", "6D", "6S", "7H"]
    table = Table(
        club, "101", {0: ["9H", "8H"], 1: ["AC", "AD"]}, "9C", stock=stock, options={"hand_size": 2}
    )
    table.move(0, "play", card="9H")
    drawn = table.move(1, "draw")
    assert [event["data"]["count"] for event in drawn if event["type"] == "CardsDrawn"] == [len(stock)]
    assert table.me(1)["drawn"] == "7H"
    table.move(1, "keep")
    ended = table.move(0, "play", card="8H")
    kinds = [event["type"] for event in ended]
    assert [kind for kind in kinds if kind in ("RoundEnded", "PlayerEliminated", "MatchEnded")] == [
        "RoundEnded",
        "PlayerEliminated",
        "MatchEnded",
    ]
    eliminated = ended[kinds.index("PlayerEliminated")]["data"]
    assert (eliminated["seat"], eliminated["reason"], eliminated["total"]) == (1, "over_ceiling", 117)
    assert table.table()["winners"] == [0]
    assert [seat["out"] for seat in table.table()["seats"]] == [False, True]
    said = client.get(table.page).text
    assert "is out of the match with 117 points, over the limit" in said and "— out of the match" in said


def test_a_prsi_queen_may_not_be_played_on_a_pending_seven_but_a_seven_passes_it_on(client, club):
    table = Table(club, "prsi", {0: ["7H", "8C", "9C", "10C"], 1: ["QH", "7D", "9D", "10D"]}, "9H")
    with club.unchanged():  # prsi has no call to say
        problem(
            client.post(
                table.moves, json=table.body("play", card="7H", call="mau"), headers=table.headers[0]
            ),
            422,
            "call_not_due",
        )
    table.move(0, "play", card="7H")
    with club.unchanged():
        problem(
            client.post(table.moves, json=table.body("play", card="QH", suit="D"), headers=table.headers[1]),
            422,
            "debt_pending",
        )
    assert "QH" not in plays(table.me(1))
    table.move(1, "play", card="7D")
    assert table.table()["debt"] == 4


def test_a_pesten_two_and_a_joker_stack_and_the_joker_shows_in_its_holders_view(client, club):
    hands = {0: ["2H", "3C", "4C", "5C", "6C", "9C", "10C"], 1: ["X1", "3D", "4D", "5D", "6D", "9D", "10D"]}
    table = Table(club, "pesten", hands, "5H")
    assert "X1" in table.me(1)["cards"] and "X1" not in table.me(0)["cards"]
    table.move(0, "play", card="2H")
    assert "X1" in plays(table.me(1))
    table.move(1, "play", card="X1", suit="C")
    assert (table.table()["debt"], table.table()["turn"], table.table()["named_suit"]) == (7, 0, "C")
    drawn = table.move(0, "draw")
    assert [event["data"]["count"] for event in drawn if event["type"] == "CardsDrawn"] == [7]
    assert len(table.me(0)["cards"]) == 6 + 7
    said = client.get(table.page).text
    assert "plays 2 of hearts: " in said and "owes 2 cards" in said and "owes 7 cards" in said


def test_a_faraon_jack_of_spades_cancels_a_pending_seven(client, club):
    hands = {0: ["7H", "8C", "9C", "10C", "KC"], 1: ["JS", "8D", "9D", "10D", "KD"]}
    table = Table(club, "faraon", hands, "9H")
    table.move(0, "play", card="7H")
    assert table.table()["debt"] == 3 and "JS" in plays(table.me(1))  # a faraon seven draws 3
    table.move(1, "play", card="JS")
    assert (table.table()["debt"], table.table()["turn"]) == (0, 0)


def test_a_puke_two_skips_the_next_player(client, club):
    hands = {0: ["2H", "3C", "4C", "6C", "9C"], 1: ["3D", "4D", "6D", "9D", "10D"]}
    table = Table(club, "puke", hands, "5H")
    played = table.move(0, "play", card="2H")
    assert played[0]["data"]["skipped"] == 1 and table.table()["turn"] == 0


def test_a_russian_seven_makes_the_next_player_draw_one_and_play_on(client, club):
    hands = {0: ["7H", "8C", "9C", "10C", "KC"], 1: ["8D", "9D", "10D", "KD", "AS"]}
    table = Table(club, "russian", hands, "9H", stock=["8H"])
    table.move(0, "play", card="7H")
    assert table.table()["debt"] == 1
    drawn = table.move(1, "draw")
    assert [(event["data"]["reason"], event["data"]["count"]) for event in drawn] == [("debt", 1)]
    assert table.table()["turn"] == 1 and "8H" in plays(table.me(1))


def test_a_neuner_nine_is_wild_and_names_the_suit_to_follow(client, club):
    hands = {0: ["9C", "8C", "10C", "KC", "AC"], 1: ["8D", "10D", "KD", "AS", "KH"]}
    table = Table(club, "neuner", hands, "10H")
    table.move(0, "play", card="9C", suit="S")
    assert table.table()["named_suit"] == "S" and plays(table.me(1)) == {"AS"}


def test_a_missed_pesten_call_is_said_as_last_card_on_the_table_page_and_challenged(client, club):
    table = Table(club, "pesten", {0: ["5C", "6C"], 1: ["3D", "4D"]}, "5H", options={"hand_size": 2})
    played = table.move(0, "play", card="5C")
    assert played[0]["data"]["missed"] == "mau"
    assert "did not say last card: it may be challenged" in client.get(table.page).text
    challenged = club.ok(
        "POST",
        f"/games/{table.game['game_id']}/challenges",
        headers=table.headers[1],
        json={"version": table.game["version"]},
    )
    drawn = [event["data"] for event in challenged["events"] if event["type"] == "CardsDrawn"]
    assert [(data["seat"], data["reason"], data["count"]) for data in drawn] == [(0, "penalty", 5)]


def test_a_classic_sevens_drawer_draws_2_and_then_plays_on_the_seven(client, club):
    hands = {0: ["7H", "8C", "9C", "10C", "KC"], 1: ["KH", "8D", "9D", "10D", "QD"]}
    table = Table(club, "classic", hands, "9H", stock=["8S", "9S"])
    table.move(0, "play", card="7H")
    drawn = table.move(1, "draw")
    assert [(event["data"]["reason"], event["data"]["count"]) for event in drawn] == [("debt", 2)]
    assert table.table()["turn"] == 1 and plays(table.me(1)) == {"KH"}
    table.move(1, "play", card="KH")
    assert table.table()["turn"] == 0


def test_a_prsi_queen_may_not_follow_an_ace_not_even_of_its_suit(client, club):
    hands = {0: ["AH", "8C", "9C", "10C"], 2: ["QH", "QD", "9S", "10S"]}
    table = Table(club, "prsi", hands, "9H", seats=3)
    table.move(0, "play", card="AH")
    assert table.table()["turn"] == 2 and plays(table.me(2)) == set()
    with club.unchanged():
        problem(
            client.post(table.moves, json=table.body("play", card="QH", suit="S"), headers=table.headers[2]),
            422,
            "card_does_not_match",
        )


def test_a_pesten_player_may_end_the_turn_after_a_seven_instead_of_playing_again(client, club):
    hands = {0: ["7H", "4H", "3C", "5C", "6C", "9C", "10C"], 1: ["3D", "4D", "5D", "6D", "9D", "10D", "QD"]}
    table = Table(club, "pesten", hands, "5H")
    table.move(0, "play", card="7H")
    assert table.table()["turn"] == 0
    assert {move["kind"] for move in table.me(0)["legal"]} == {"play", "keep"}
    with club.unchanged():
        problem(
            client.post(table.moves, json=table.body("draw"), headers=table.headers[0]),
            422,
            "draw_not_allowed",
        )
    passed = table.move(0, "keep")
    assert [event["type"] for event in passed] == ["TurnPassed"]
    assert table.table()["turn"] == 1 and len(table.me(0)["cards"]) == 6
    assert "plays no more: " in client.get(table.page).text


def test_a_101_ace_is_answered_with_an_ace_or_its_skip_taken_with_a_draw(client, club):
    hands = {0: ["AH", "8C", "9C", "10C"], 1: ["AD", "8D", "9D", "10D"]}
    table = Table(club, "101", hands, "9H", seats=3)
    table.move(0, "play", card="AH")
    assert table.table()["turn"] == 1 and plays(table.me(1)) == {"AD"}
    table.move(1, "play", card="AD")
    taken = table.move(2, "draw")
    assert [event["type"] for event in taken] == ["SkipTaken"]
    assert table.table()["turn"] == 0
