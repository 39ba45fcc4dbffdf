"""The play page's form, posted as a browser posts it: every refusal says what it is (the API's own
codes) and changes nothing; a move without the script comes back to the page."""

import re
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from service.domain.cards import FULL_DECK, format_cards
from tests.e2e.club import Club, problem
from tests.web.conftest import new_scene


@contextmanager
def at_the_table(base: str, token: str, game: str) -> Iterator[tuple[httpx.Client, dict[str, str]]]:
    """A signed-in client and the fields of the play page's form as the page wrote them."""
    with httpx.Client(base_url=base, timeout=30) as client:
        client.get("/signin", params={"token": token})
        html = client.get(f"/web/games/{game}/play").text
        fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', html))
        yield client, fields


def mover(club: Club, game: str, tokens: dict[str, str]) -> tuple[str, dict]:
    """The token of the player to move and their view (read as the admin)."""
    table = club.ok("GET", f"/games/{game}")
    seat = table["seats"][table["turn"]]
    return tokens[seat["name"]], club.ok("GET", f"/games/{game}/me", params={"seat": table["turn"]})


def test_a_malformed_move_is_a_400_problem_and_changes_nothing(club: Club, base: str):
    scene = new_scene(club)
    token, _ = mover(club, scene.game, scene.tokens)
    with at_the_table(base, token, scene.game) as (client, fields), club_unchanged(club, scene.game):
        malformed = {
            "fly": "malformed_request",
            "play": "malformed_card",
            "name_suit:X": "malformed_suit",
            "play:7H:Q": "malformed_suit",
        }
        for move, code in malformed.items():
            answer = client.post(
                f"/web/games/{scene.game}/play", data={**fields, "move": move, "fragment": "1"}
            )
            problem(answer, 400, code)
        answer = client.post(f"/web/games/{scene.game}/play", data={**fields, "move": "draw", "version": "x"})
        problem(answer, 400, "malformed_request")


def test_a_move_the_rules_refuse_is_shown_on_the_page_with_its_code(club: Club, base: str):
    scene = new_scene(club)
    token, view = mover(club, scene.game, scene.tokens)
    absent = next(
        card for card in format_cards(FULL_DECK) if card not in view["cards"] and card != view["table"]["top"]
    )
    with at_the_table(base, token, scene.game) as (client, fields), club_unchanged(club, scene.game):
        answer = client.post(
            f"/web/games/{scene.game}/play", data={**fields, "move": f"play:{absent}", "fragment": "1"}
        )
        assert answer.status_code == 422 and answer.headers["content-type"].startswith("text/html")
        assert 'data-code="card_not_in_hand"' in answer.text
        assert 'class="play"' in answer.text  # the table beside it, as it is


def test_a_post_without_the_form_token_or_from_a_stranger_is_refused(club: Club, base: str):
    scene, elsewhere = new_scene(club), new_scene(club)
    token, _ = mover(club, scene.game, scene.tokens)
    with at_the_table(base, token, scene.game) as (client, fields), club_unchanged(club, scene.game):
        without = {name: value for name, value in fields.items() if name != "csrf"}
        problem(
            client.post(f"/web/games/{scene.game}/play", data={**without, "move": "draw"}), 403, "csrf_failed"
        )
    stranger = next(iter(elsewhere.tokens.values()))
    with at_the_table(base, stranger, elsewhere.game) as (client, fields), club_unchanged(club, scene.game):
        version = str(club.ok("GET", f"/games/{scene.game}")["version"])
        answer = client.post(
            f"/web/games/{scene.game}/play", data={**fields, "version": version, "move": "draw"}
        )
        problem(answer, 403, "not_seated")
        page = client.get(f"/web/games/{scene.game}/play")
        assert page.status_code == 200 and "You have no seat at this table." in page.text


def test_a_move_sent_without_the_script_comes_back_to_the_page(club: Club, base: str):
    scene = new_scene(club)
    token, view = mover(club, scene.game, scene.tokens)
    move = next(m for m in view["legal"] if m["kind"] in ("play", "draw"))
    value = (
        "draw"
        if move["kind"] == "draw"
        else ":".join(["play", move["card"], *filter(None, [move.get("suit")])])
    )
    with at_the_table(base, token, scene.game) as (client, fields):
        answer = client.post(f"/web/games/{scene.game}/play", data={**fields, "move": value})
        assert answer.status_code == 303 and answer.headers["location"] == f"/web/games/{scene.game}/play"
        # the same key again: the move is not made twice
        again = client.post(f"/web/games/{scene.game}/play", data={**fields, "move": value})
        assert again.status_code == 303
    assert club.ok("GET", f"/games/{scene.game}")["version"] > view["table"]["version"]
    moved = [
        e
        for e in club.ok("GET", f"/games/{scene.game}/events")["events"]
        if e["type"] in ("CardPlayed", "CardsDrawn")
    ]
    assert len(moved) == 1


@contextmanager
def club_unchanged(club: Club, game: str) -> Iterator[None]:
    before = club.ok("GET", f"/games/{game}")["version"]
    yield
    assert club.ok("GET", f"/games/{game}")["version"] == before
