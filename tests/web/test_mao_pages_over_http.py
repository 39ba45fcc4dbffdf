"""Mao's pages without a browser: the league's page and a seated player's own page link the match;
and their refusals: a match that does not exist is the 404 problem, a program asking for the judge's
console without being the judge gets the 403 problem, and a form posted without the session's form
token, one that is no act, a judge's act by a player or a rule the judge may not write changes
nothing."""

import html
import re
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from tests.e2e.club import Club, bearer
from tests.web.conftest import sign_in_over_http
from tests.web.mao_match import Match, deck, mao_match
from tests.web.test_catalogues import english_messages

UNKNOWN = "00000000-0000-4000-8000-000000000000"
HTML = {"Accept": "text/html"}


@pytest.fixture(scope="module")
def match(club: Club) -> Match:
    """A match dealt: Ada to play."""
    found = mao_match(club)
    dealt = deck({0: "5H 9H KH", 1: "8C 5C 4H"}, starter="3H", stock="10D")
    club.ok("POST", f"/mao-games/{found.game}/deals", headers=bearer(found.referee), json={"deck": dealt})
    return found


@contextmanager
def signed_in(base: str, token: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base, timeout=30) as browser:
        sign_in_over_http(browser, token)
        yield browser


def form_token(browser: httpx.Client, path: str) -> str:
    page = browser.get(path, headers=HTML)
    assert page.status_code == 200, page.text
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found is not None
    return found.group(1)


def version(club: Club, match: Match) -> int:
    found: int = club.ok("GET", f"/mao-games/{match.game}")["version"]
    return found


def test_the_leagues_page_and_a_seated_players_own_page_link_the_match(base: str, match: Match):
    league = httpx.get(f"{base}/web/leagues/{match.league}").text
    assert f'href="/web/mao-games/{match.game}"' in league
    with signed_in(base, match.tokens[0]) as browser:
        own = browser.get(f"/web/players/{match.ids[0]}").text
    assert f'href="/web/mao-games/{match.game}/play"' in own
    # someone else's page links the table to watch, not a seat
    other = httpx.get(f"{base}/web/players/{match.ids[0]}").text
    assert f'href="/web/mao-games/{match.game}"' in other and f"/mao-games/{match.game}/play" not in other


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_mao_pages_in_ukrainian_or_russian_show_no_english_message(
    base: str, match: Match, language: str
):
    english = english_messages()
    shown = []
    for token, tail in ((None, ""), (match.tokens[0], "/play"), (match.referee, "/judge")):
        with httpx.Client(base_url=base, timeout=30) as browser:
            if token is not None:
                sign_in_over_http(browser, token)
            page = browser.get(f"/web/mao-games/{match.game}{tail}", params={"lang": language}, headers=HTML)
            assert page.status_code == 200
            main = page.text.split('<main id="main">', 1)[1]  # the page's own words, not the bar's
            # a rule, a call and the words said are the game's own English ("after Q: next black",
            # “mao”): in code or in quotes, they are no message of the page
            main = re.sub(r"<code>.*?</code>", " ", main)
            text = html.unescape(re.sub(r"<[^>]+>", " ", main))
            shown.append(re.sub(r"«[^»]*»|“[^”]*”", " ", text))
    assert "5" in shown[1] and "Мао" in shown[1]
    assert [m for m in english for text in shown if re.search(rf"(?<!\w){re.escape(m)}(?!\w)", text)] == []


def refused_code(page: httpx.Response) -> str:
    """A browser is answered a refusal's page (``service/web/errors.py``): its code."""
    assert page.headers["content-type"].startswith("text/html")
    (code,) = re.findall(r'data-code="(\w+)"', page.text)
    return code


@pytest.mark.parametrize("tail", ["", "/play", "/judge"])
def test_a_page_of_a_match_that_does_not_exist_is_the_404_problem(base: str, tail: str):
    answer = httpx.get(f"{base}/web/mao-games/{UNKNOWN}{tail}")
    assert (answer.status_code, answer.json()["code"]) == (404, "game_not_found")


def test_a_program_asking_for_the_console_without_being_the_judge_gets_the_403_problem(
    base: str, match: Match
):
    answer = httpx.get(f"{base}/web/mao-games/{match.game}/judge")
    assert answer.status_code == 403
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["code"] == "forbidden"


def test_a_person_without_a_seat_is_told_so_and_sent_to_the_spectators_table(base: str, match: Match):
    answer = httpx.get(f"{base}/web/mao-games/{match.game}/play")
    assert answer.status_code == 200
    assert "Sign in to play at your table." in answer.text
    assert f'href="/web/mao-games/{match.game}"' in answer.text


def test_an_act_posted_without_the_sessions_form_token_is_403_and_changes_nothing(
    base: str, club: Club, match: Match
):
    before = version(club, match)
    with signed_in(base, match.tokens[0]) as browser:
        form_token(browser, f"/web/mao-games/{match.game}/play")
        refused = browser.post(
            f"/web/mao-games/{match.game}/play", data={"act": "pause", "csrf": "guessed"}, headers=HTML
        )
    assert (refused.status_code, refused_code(refused)) == (403, "csrf_failed")
    assert version(club, match) == before


@pytest.mark.parametrize(
    "form",
    [{"act": "shout"}, {"act": "play:ZZ"}, {"act": "say"}, {"act": "say", "words": "hi", "about": "weather"}],
)
def test_a_form_that_is_no_act_is_a_400_problem_and_changes_nothing(
    base: str, club: Club, match: Match, form: dict[str, str]
):
    before = version(club, match)
    with signed_in(base, match.tokens[0]) as browser:
        csrf = form_token(browser, f"/web/mao-games/{match.game}/play")
        refused = browser.post(f"/web/mao-games/{match.game}/play", data={**form, "csrf": csrf}, headers=HTML)
    assert refused.status_code == 400
    assert refused_code(refused) in ("malformed_request", "malformed_card")
    assert version(club, match) == before


def test_a_players_post_to_the_console_is_refused_with_the_page_and_writes_no_rule(
    base: str, club: Club, match: Match
):
    before = version(club, match)
    with signed_in(base, match.tokens[1]) as browser:
        csrf = form_token(browser, f"/web/mao-games/{match.game}/play")
        refused = browser.post(
            f"/web/mao-games/{match.game}/judge",
            data={"act": "rule", "rule": "after K: next red", "csrf": csrf},
            headers=HTML,
        )
    assert refused.status_code == 403
    assert 'data-code="forbidden"' in refused.text and "This console is for the match" in refused.text
    assert version(club, match) == before


def test_a_rule_refused_on_the_console_is_said_in_the_judges_language_and_stored_nowhere(
    base: str, club: Club, match: Match
):
    before = version(club, match)
    with signed_in(base, match.referee) as browser:
        csrf = form_token(browser, f"/web/mao-games/{match.game}/judge?lang=ru")
        for act, rule, status, code in (
            ("check", "after Z: next purple", 422, "malformed_rule"),
            ("check", "after Q: next not Q; after hearts: next not hearts", 422, "rule_incompatible"),
            ("rule", "after K: next red", 422, "round_in_progress"),  # dealt: too late for this round
        ):
            refused = browser.post(
                f"/web/mao-games/{match.game}/judge",
                data={"act": act, "rule": rule, "csrf": csrf},
                headers=HTML,
            )
            assert refused.status_code == status
            assert f'data-code="{code}"' in refused.text and "Отказано" in refused.text
    assert version(club, match) == before


def test_with_the_server_judging_the_console_shows_the_judges_view_and_offers_no_rule_to_write(
    base: str, club: Club
):
    served = mao_match(club, judge="server")
    with signed_in(base, served.referee) as browser:
        page = browser.get(f"/web/mao-games/{served.game}/judge", headers=HTML)
    assert page.status_code == 200
    assert "The server judges this match" in page.text and 'class="rule-text"' in page.text
    assert 'name="rule"' not in page.text and 'value="deal"' in page.text


def test_a_judge_who_plays_gets_the_consoles_forms_and_their_own_seats_table_only(base: str, club: Club):
    played = mao_match(club, judge_seat=0)
    with signed_in(base, played.tokens[0]) as browser:
        page = browser.get(f"/web/mao-games/{played.game}/judge", headers=HTML)
        assert page.status_code == 200
        assert 'name="rule"' in page.text and 'value="deal"' in page.text
        assert 'class="rule-text"' not in page.text and 'class="hands"' not in page.text
        assert 'name="deck"' not in page.text  # the server's shuffle only
        csrf = form_token(browser, f"/web/mao-games/{played.game}/judge")
        written = browser.post(
            f"/web/mao-games/{played.game}/judge",
            data={"act": "rule", "rule": "after K: next red", "csrf": csrf},
            headers=HTML,
            follow_redirects=True,
        )
    assert written.status_code == 200 and 'class="notice done"' in written.text
    assert club.ok("GET", f"/mao-games/{played.game}/judge")["rule"] == "after K: next red"


def test_a_pause_is_called_and_ended_on_the_page_and_only_talk_about_the_order_is_taken_meanwhile(
    base: str, club: Club, match: Match
):
    play = f"/web/mao-games/{match.game}/play"
    with signed_in(base, match.tokens[0]) as ada, signed_in(base, match.tokens[1]) as bo:
        called = ada.post(play, data={"act": "pause", "csrf": form_token(ada, play)}, headers=HTML)
        assert called.status_code == 303 and called.headers["location"] == play
        page = ada.get(play, headers=HTML).text
        assert 'value="end_pause"' in page and "Paused by" in page
        before = version(club, match)
        talk = {"act": "say", "words": "nice weather", "csrf": form_token(bo, play)}
        refused = bo.post(play, data=talk, headers={**HTML, "Accept-Language": "uk"})
        assert refused.status_code == 409 and 'data-code="game_paused"' in refused.text
        assert "Відмовлено" in refused.text and version(club, match) == before
        order = {"act": "say", "words": "whose turn is it", "about": "order", "csrf": form_token(bo, play)}
        assert bo.post(play, data=order, headers=HTML).status_code == 303
        assert "in the pause, about the turn order: “whose turn is it”" in bo.get(play, headers=HTML).text
        ended = ada.post(play, data={"act": "end_pause", "csrf": form_token(ada, play)}, headers=HTML)
        assert ended.status_code == 303
    assert club.ok("GET", f"/mao-games/{match.game}")["paused_by"] is None
