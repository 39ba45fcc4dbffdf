"""What a club tripped on at the tables' pages, in a real browser: hearts and diamonds red wherever a
card or a suit is shown, the spectators' table named by its league, tournament, round and table with
the way back, a cancelled tournament marked, a table not started said so, and the play page's hint
that a jack names a suit."""

import re
import uuid
from typing import Any

from playwright.sync_api import Locator, Page, expect

from tests.e2e.club import ADMIN_TOKEN, Club
from tests.web.conftest import Visit, new_scene, sign_in

RED = "rgb(187, 0, 0)"  # site.css: .suit-H, .suit-D
BLACK = "rgb(17, 17, 17)"  # .suit-C, .suit-S
# Ada leads against Bob's deal, the 5 of hearts turned up: of her cards only the jack may be played
ADA_HOLDS = ["JC", "7C", "9S", "KS", "10C"]
BOB_HOLDS = ["8D", "QD", "AS", "9H", "7S"]


def coloured_by_suit(elements: Locator) -> list[list[str]]:
    """Each element's symbol and computed colour where the colour is not its suit's: none when all
    are right (read in one go: a live page may put its part in place meanwhile)."""
    shown = elements.evaluate_all("es => es.map(e => [e.textContent, getComputedStyle(e).color])")
    return [[text, found] for text, found in shown if found != (RED if re.search("[♥♦]", text) else BLACK)]


def heads_up(club: Club) -> dict[str, Any]:
    """Ada and Bob's friendly table, as the read models have it."""
    table = club.heads_up({0: list(ADA_HOLDS), 1: list(BOB_HOLDS)})
    club.table(table["game"])
    return table


def token_of(headers: dict[str, str]) -> str:
    return headers["Authorization"].removeprefix("Bearer ")


def jack_of_clubs_naming_diamonds(club: Club, table: dict[str, Any]) -> None:
    game = table["game"]
    body = {"kind": "play", "card": "JC", "suit": "D", "version": game["version"]}
    played = club.ok("POST", f"/games/{game['game_id']}/moves", headers=table["ada"], json=body)
    club.ok("GET", f"/games/{game['game_id']}", params={"after": played["position"]})


def test_hearts_and_diamonds_are_red_on_the_spectators_table_and_the_referees_replay(
    visit: Visit, club: Club
):
    table = heads_up(club)
    game = table["game"]["game_id"]
    page = visit.page
    page.goto(f"/web/games/{game}")
    top = page.locator(".table .facts .card")
    expect(top).to_have_text("5♥")
    expect(top).to_have_css("color", RED)

    jack_of_clubs_naming_diamonds(club, table)
    expect(top).to_have_text("J♣")  # the page follows the table live
    expect(top).to_have_css("color", BLACK)
    named = page.locator(".table .facts .suit-D")
    expect(named).to_have_text("♦")
    expect(named).to_have_css("color", RED)

    sign_in(page, ADMIN_TOKEN)
    page.goto(f"/web/referee/games/{game}")
    cards = page.locator(".replay .card")
    expect(page.locator(".replay .hands .card")).to_have_count(9)  # Ada's 4 left and Bob's 5
    symbols = cards.all_inner_texts()
    assert any("♥" in s for s in symbols) and any("♦" in s for s in symbols), symbols
    assert coloured_by_suit(cards) == []
    expect(page.locator(".replay .facts .suit-D")).to_have_css("color", RED)
    assert visit.outside == []


def test_the_play_page_with_only_a_jack_playable_says_tapping_it_names_a_suit(visit: Visit, club: Club):
    table = heads_up(club)
    page = visit.page
    sign_in(page, token_of(table["ada"]))
    page.goto(f"/web/games/{table['game']['game_id']}/play")
    expect(page.locator(".play .hint")).to_have_text("To name a suit, tap a wild card: jack of clubs.")
    assert coloured_by_suit(page.locator(".hand .card")) == []
    page.goto(f"/web/games/{table['game']['game_id']}/play?lang=uk")
    expect(page.locator(".play .hint")).to_have_text("Щоб замовити масть, торкніться карти: валет треф.")


def test_the_spectators_table_is_named_by_its_league_tournament_round_and_table_and_links_back(
    visit: Visit, club: Club
):
    scene = new_scene(club)
    league = club.ok("GET", f"/leagues/{scene.league}")["name"]
    page = visit.page
    page.goto(f"/web/games/{scene.game}")
    title = f"{league} · Tuesday cup · Round 1 · Table 1"
    expect(page.locator("h1")).to_have_text(title)
    expect(page).to_have_title(title)
    page.locator(".back").get_by_role("link", name="Tuesday cup").click()
    expect(page).to_have_url(re.compile(f"/web/tournaments/{scene.tournament}$"))
    page.go_back()
    page.locator(".back").get_by_role("link", name=league).click()
    expect(page).to_have_url(re.compile(f"/web/leagues/{scene.league}$"))


def test_a_friendly_table_is_named_by_its_players(visit: Visit, club: Club):
    table = heads_up(club)
    page = visit.page
    page.goto(f"/web/games/{table['game']['game_id']}")
    expect(page.locator("h1")).to_have_text(re.compile(r"^Friendly table: Ada.*, Bob"))
    expect(page.locator(".back")).to_have_count(0)


def test_a_cancelled_tournament_is_marked_among_the_past_ones(visit: Visit, club: Club):
    league = club.league(name=f"Rainy {uuid.uuid4().hex[:6]}")
    plan = {"name": "Storm cup", "format": "swiss", "table_size": 2, "rounds": 1}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    cancelled = club.ok("POST", f"/tournaments/{tournament}/cancel", json={"reason": "storm"})
    club.ok("GET", f"/tournaments/{tournament}", params={"after": cancelled["position"]})
    page = visit.page
    for language, word in (("en", "cancelled"), ("uk", "скасовано"), ("ru", "отменён")):
        page.goto(f"/web/leagues/{league}?lang={language}")
        expect(page.locator("li", has_text="Storm cup").locator(".mark")).to_have_text(word)


def test_a_table_played_with_real_cards_not_started_says_so_not_round_0(visit: Visit, club: Club):
    ada, _ = club.player(f"Ada {uuid.uuid4().hex[:4]}")
    bo, _ = club.player(f"Bo {uuid.uuid4().hex[:4]}")
    game = club.game([ada, bo], in_person=True)
    club.table(game)
    page: Page = visit.page
    page.goto(f"/web/games/{game['game_id']}")
    expect(page.locator(".table .status")).to_have_text("Not started yet")
    expect(page.locator("main")).not_to_contain_text("ound 0")
    page.goto("/")  # the tables being played, newest first
    listed = page.locator("li", has=page.locator(f"a[href='/web/games/{game['game_id']}']"))
    expect(listed).to_contain_text("not started yet")
    expect(listed).not_to_contain_text("round 0")
