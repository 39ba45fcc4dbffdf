"""The play page's form, posted as a browser posts it: every refusal says what it is (the API's own
codes) and changes nothing; a move without the script comes back to the page."""

import re
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from tests.e2e.club import ADMIN_TOKEN, Club, problem
from tests.web.conftest import new_scene, sign_in_over_http
from tests.web.playing import DECK_TWO


@contextmanager
def at_the_table(base: str, token: str, game: str) -> Iterator[tuple[httpx.Client, dict[str, str]]]:
    """A signed-in client and the fields of the play page's form as the page wrote them."""
    with httpx.Client(base_url=base, timeout=30) as client:
        sign_in_over_http(client, token)
        html = client.get(f"/web/games/{game}/play").text
        fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', html))
        yield client, fields


def fixed_game(club: Club) -> tuple[str, str]:
    """A game of two players dealt from a known deck (Ada, seat 0, moves first with 7C JH 9S on the
    starter 4C), and Ada's token."""
    scene = new_scene(club)
    ada, bo = scene.players
    seats = [scene.players[ada], scene.players[bo]]
    body = {"seats": seats, "options": {"hand_size": 3}, "deck": DECK_TWO, "first_dealer": 1}
    return club.ok("POST", "/games", json=body)["game_id"], scene.tokens[ada]


def test_a_malformed_move_is_a_400_problem_and_changes_nothing(club: Club, base: str):
    game, token = fixed_game(club)
    with at_the_table(base, token, game) as (client, fields), club_unchanged(club, game):
        malformed = {
            "fly": "malformed_request",
            "play": "malformed_card",
            "name_suit:X": "malformed_suit",
            "choose_player:X": "malformed_request",
            "play:7H:Q": "malformed_suit",
        }
        for move, code in malformed.items():
            answer = client.post(f"/web/games/{game}/play", data={**fields, "move": move, "fragment": "1"})
            problem(answer, 400, code)
        answer = client.post(f"/web/games/{game}/play", data={**fields, "move": "draw", "version": "x"})
        problem(answer, 400, "malformed_request")


def test_a_move_the_rules_refuse_is_shown_on_the_page_with_its_code(club: Club, base: str):
    game, token = fixed_game(club)
    with at_the_table(base, token, game) as (client, fields), club_unchanged(club, game):
        answer = client.post(f"/web/games/{game}/play", data={**fields, "move": "play:AS", "fragment": "1"})
        assert answer.status_code == 422 and answer.headers["content-type"].startswith("text/html")
        assert 'data-code="card_not_in_hand"' in answer.text
        assert 'class="play"' in answer.text  # the table beside it, as it is


def test_a_post_without_the_form_token_or_from_a_stranger_is_refused(club: Club, base: str):
    (game, token), elsewhere = fixed_game(club), new_scene(club)
    with at_the_table(base, token, game) as (client, fields), club_unchanged(club, game):
        without = {name: value for name, value in fields.items() if name != "csrf"}
        problem(client.post(f"/web/games/{game}/play", data={**without, "move": "draw"}), 403, "csrf_failed")
    stranger = next(iter(elsewhere.tokens.values()))
    with at_the_table(base, stranger, elsewhere.game) as (client, fields), club_unchanged(club, game):
        version = str(club.ok("GET", f"/games/{game}")["version"])
        answer = client.post(f"/web/games/{game}/play", data={**fields, "version": version, "move": "draw"})
        problem(answer, 403, "not_seated")
        page = client.get(f"/web/games/{game}/play")
        assert page.status_code == 200 and "You have no seat at this table." in page.text


def test_a_move_sent_without_the_script_comes_back_to_the_page(club: Club, base: str):
    game, token = fixed_game(club)
    version = club.ok("GET", f"/games/{game}")["version"]
    with at_the_table(base, token, game) as (client, fields):
        answer = client.post(f"/web/games/{game}/play", data={**fields, "move": "play:7C"})
        assert answer.status_code == 303 and answer.headers["location"] == f"/web/games/{game}/play"
        # the same form again, its key too: the move is not made twice
        again = client.post(f"/web/games/{game}/play", data={**fields, "move": "play:7C"})
        assert again.status_code == 303
    assert club.ok("GET", f"/games/{game}")["version"] > version
    events = club.ok("GET", f"/games/{game}/events")["events"]
    assert [e["data"]["card"] for e in events if e["type"] == "CardPlayed"] == ["7C"]


@contextmanager
def club_unchanged(club: Club, game: str) -> Iterator[None]:
    before = club.ok("GET", f"/games/{game}")["version"]
    yield
    assert club.ok("GET", f"/games/{game}")["version"] == before


def test_an_official_chooses_the_seat_and_sees_that_seats_hand(club: Club, base: str):
    game, _ = fixed_game(club)
    with at_the_table(base, ADMIN_TOKEN, game) as (client, _fields):
        page = client.get(f"/web/games/{game}/play")
        assert page.status_code == 200 and "choose the seat to play" in page.text
        assert f'href="/web/games/{game}/play?seat=1"' in page.text
        seat = client.get(f"/web/games/{game}/play", params={"seat": 0})
    assert seat.status_code == 200
    assert {"Play 7 of clubs", "Play jack of hearts"} <= set(
        re.findall(r'class="hidden-text">([^<]+)<', seat.text)
    )
    assert 'name="seat" value="0"' in seat.text  # its moves are made for that seat


def modified_game(club: Club) -> tuple[str, str]:
    """The game of ``fixed_game`` (Ada 7C JH 9S on the starter 4C) with the quick and blind modifiers."""
    scene = new_scene(club)
    ada, bo = scene.players
    seats = [scene.players[ada], scene.players[bo]]
    options = {"hand_size": 3, "quick": True, "blind": True}
    body = {"seats": seats, "options": options, "deck": DECK_TWO, "first_dealer": 1}
    return club.ok("POST", "/games", json=body)["game_id"], scene.tokens[ada]


def test_a_face_down_play_or_a_laid_card_malformed_is_a_400_problem_and_changes_nothing(
    club: Club, base: str
):
    game, token = modified_game(club)
    with at_the_table(base, token, game) as (client, fields), club_unchanged(club, game):
        malformed = [
            ({"move": "face_down", "declared": "7C"}, "malformed_request"),  # no card laid
            ({"move": "face_down", "face_down_card": "9S"}, "malformed_request"),  # declared as nothing
            ({"move": "face_down", "face_down_card": "9S", "declared": "7X"}, "malformed_card"),
            ({"move": "face_down", "face_down_card": "9Q", "declared": "7C"}, "malformed_card"),
            ({"move": "play:7C", "more:7C:": "on"}, "malformed_request"),  # a box that names no card
            ({"move": "play:7C", "more:7C:7Z": "on"}, "malformed_card"),
        ]
        for form, code in malformed:
            answer = client.post(f"/web/games/{game}/play", data={**fields, **form, "fragment": "1"})
            problem(answer, 400, code)


def refused_on_the_page(answer: httpx.Response, code: str) -> None:
    assert answer.status_code == 422 and answer.headers["content-type"].startswith("text/html"), answer.text
    assert f'data-code="{code}"' in answer.text and 'class="play"' in answer.text


def test_a_face_down_play_or_cards_laid_together_the_rules_refuse_are_shown_on_the_page(
    club: Club, base: str
):
    game, token = modified_game(club)
    with at_the_table(base, token, game) as (client, fields), club_unchanged(club, game):
        refused = [
            # KH does not follow 4C, face down or not
            ({"move": "face_down", "face_down_card": "9S", "declared": "KH"}, "card_does_not_match"),
            ({"move": "face_down", "face_down_card": "QD", "declared": "7C"}, "card_not_in_hand"),
            ({"move": "challenge_declaration"}, "nothing_to_challenge"),  # no card before Ada is face down
            ({"move": "play:7C", "more:7C:JH": "on"}, "cards_of_different_ranks"),
            ({"move": "play:7C", "more:7C:7D": "on"}, "card_not_in_hand"),  # Bo holds it
        ]
        for form, code in refused:
            refused_on_the_page(
                client.post(f"/web/games/{game}/play", data={**fields, **form, "fragment": "1"}), code
            )


def test_a_table_without_the_modifiers_refuses_their_moves_on_the_page(club: Club, base: str):
    game, token = fixed_game(club)
    with at_the_table(base, token, game) as (client, fields), club_unchanged(club, game):
        page = client.get(f"/web/games/{game}/play").text
        assert 'value="face_down"' not in page and 'name="more:' not in page
        refused = [
            ({"move": "face_down", "face_down_card": "9S", "declared": "7C"}, "declaration_not_allowed"),
            ({"move": "play:7C", "more:7C:7D": "on"}, "several_cards_not_allowed"),
            ({"move": "challenge_declaration"}, "nothing_to_challenge"),
        ]
        for form, code in refused:
            refused_on_the_page(
                client.post(f"/web/games/{game}/play", data={**fields, **form, "fragment": "1"}), code
            )


def test_a_refused_move_is_said_in_the_readers_language_from_the_refusals_catalogue(club: Club, base: str):
    game, token = fixed_game(club)
    with at_the_table(base, token, game) as (client, fields), club_unchanged(club, game):
        for language, sentence in (("uk", "AS немає у вашій руці"), ("ru", "AS нет у вас в руке")):
            answer = client.post(
                f"/web/games/{game}/play",
                data={**fields, "move": "play:AS", "fragment": "1"},
                headers={"Accept-Language": language},
            )
            assert answer.status_code == 422 and 'data-code="card_not_in_hand"' in answer.text
            assert sentence in answer.text
            assert "is not in your hand" not in answer.text
