"""The pages' refusals: problem+json with a stable code, nothing changed."""

import httpx
import pytest

from tests.e2e.club import Club, bearer
from tests.web.conftest import Scene, sign_in_over_http

UNKNOWN = "00000000-0000-4000-8000-000000000000"


@pytest.mark.parametrize(
    ("path", "code"),
    [
        (f"/web/leagues/{UNKNOWN}", "league_not_found"),
        (f"/web/tournaments/{UNKNOWN}", "tournament_not_found"),
        (f"/web/games/{UNKNOWN}", "game_not_found"),
        (f"/web/players/{UNKNOWN}", "player_not_found"),
        ("/web/leagues/not-an-id", "not_found"),
        ("/web/static/nothing.css", "not_found"),
    ],
)
def test_a_page_of_nothing_is_a_404_problem(base: str, path: str, code: str):
    answer = httpx.get(base + path)
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["code"] == code


def test_a_sign_in_with_a_token_that_is_not_valid_is_401_and_sets_no_session(base: str):
    answer = httpx.get(f"{base}/signin", params={"token": "mm_not_a_token"})
    assert (answer.status_code, answer.json()["code"]) == (401, "unauthorized")
    assert "maumau_session" not in answer.cookies


def test_a_form_post_without_the_sessions_token_is_403_and_signs_nobody_in(base: str, scene: Scene):
    token = next(iter(scene.tokens.values()))
    with httpx.Client(base_url=base) as browser:
        assert browser.get("/signin").status_code == 200  # the session's form token is made
        refused = browser.post("/signin", data={"token": token, "csrf": "guessed"})
        assert (refused.status_code, refused.json()["code"]) == (403, "csrf_failed")
        assert "Sign out" not in browser.get("/").text


def test_the_bearer_api_ignores_the_session_cookie(base: str, scene: Scene, club: Club):
    name = next(iter(scene.tokens))
    with httpx.Client(base_url=base) as browser:
        sign_in_over_http(browser, scene.tokens[name])
        assert "maumau_session" in browser.cookies
        assert browser.get("/me").status_code == 401  # the API wants its bearer token, as before
        assert browser.get("/me", headers=bearer(scene.tokens[name])).status_code == 200


def test_a_page_switch_that_is_not_a_yes_or_no_is_a_400_problem(base: str, scene: Scene):
    answer = httpx.get(f"{base}/web/tournaments/{scene.tournament}", params={"display": "maybe"})
    assert (answer.status_code, answer.json()["code"]) == (400, "malformed_request")


def test_a_language_the_club_has_not_is_no_error_the_page_is_in_english(base: str):
    answer = httpx.get(f"{base}/", params={"lang": "xx"}, headers={"Accept-Language": "de"})
    assert answer.status_code == 200 and '<html lang="en">' in answer.text
    assert "lang" not in answer.cookies  # nothing remembered
