"""The quick and blind modifiers on the play page in a real browser: two cards of one rank laid
together by keyboard alone, and a card laid face down as another, challenged by the next player
and the liar penalised, with the real card on no page the challenger received before."""

import re
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
from playwright.sync_api import Browser, expect

from service.domain.cards import FULL_DECK, format_cards
from tests.e2e.club import ADMIN, Club, cards_named, unseen_cards, whole_log
from tests.web.conftest import new_scene
from tests.web.test_play_in_a_browser import Player, answered, tab_to


@contextmanager
def two_players(
    club: Club, browser: Browser, base: str, dealt: list[str], **modifiers: bool
) -> Iterator[tuple[str, Player, Player]]:
    """Ada (seat 0, on turn) and Bo, four cards each dealt by Bo from ``dealt`` (Ada first, one
    card a seat, then the starter), on a club table with the modifiers named."""
    scene = new_scene(club)
    ada, bo = scene.players
    deck = dealt + [card for card in format_cards(FULL_DECK) if card not in dealt]
    body = {
        "seats": [scene.players[ada], scene.players[bo]],
        "options": {"hand_size": 4, "target_score": 1, **modifiers},
        "deck": deck,
        "first_dealer": 1,
    }
    game = club.ok("POST", "/games", json=body)["game_id"]
    first, second = (
        Player(browser, base, scene.tokens[ada], game),
        Player(browser, base, scene.tokens[bo], game),
    )
    try:
        yield game, first, second
    finally:
        first.context.close()
        second.context.close()


# the cards a face-down card may be declared as: every card of the deck that may be played now,
# whoever holds it, so naming them tells nothing of any hand (the page's select, the socket's legal
# moves and plays)
DECLARABLE = re.compile(r'<select name="declared">.*?</select>|"declared":"[^"]*"', re.DOTALL)


def no_hidden_card_shown(club: Club, game: str, *players: Player) -> None:
    log = whole_log(club.client, game, ADMIN)  # type: ignore[arg-type]
    for seat, player in enumerate(players):
        hidden = unseen_cards(log, seat)
        assert hidden, "the check would pass on any page"
        for pages in (player.doms, player.received):
            assert cards_named(DECLARABLE.sub("", page) for page in pages) & hidden == set()


def test_on_a_quick_table_two_nines_are_laid_together_by_keyboard_alone(
    club: Club, browser: Browser, base: str
):
    # Ada 9C 9H KD 5D, Bo 5H 6S QD 3S, the starter 4C: only 9C plays, and 9H may be laid on it
    dealt = ["9C", "5H", "9H", "6S", "KD", "QD", "5D", "3S", "4C"]
    with two_players(club, browser, base, dealt, quick=True) as (game, ada, bo):
        ada.my_move()
        page = ada.page
        expect(page.locator("details.several input[type=checkbox]")).to_have_count(1)
        tab_to(page, "Play 9 of clubs")
        page.keyboard.press("Enter")  # the summary opens the choice
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.name") == "more:9C:9H"
        page.keyboard.press("Space")
        expect(page.get_by_role("checkbox", name="9 of hearts")).to_be_checked()
        page.keyboard.press("Tab")
        assert (
            page.evaluate("document.activeElement.innerText.trim()") == "Play 9 of clubs and the cards ticked"
        )
        page.keyboard.press("Enter")
        answered(page)
        bo.my_move()
        expect(bo.page.locator(".facts")).to_contain_text("9 of hearts")  # the last card laid, on top
        expect(bo.page.locator("table.seats tbody tr").first.locator("td").nth(2)).to_have_text("2")
        bo.play("5 of hearts")
        ada.my_move()
        plays = [e["data"] for e in whole_log(club.client, game, ADMIN) if e["type"] == "CardPlayed"]  # type: ignore[arg-type]
        assert [(play["card"], play["more"]) for play in plays] == [("9C", ["9H"]), ("5H", [])]
        no_hidden_card_shown(club, game, ada, bo)


def test_on_a_blind_table_a_lie_is_challenged_by_the_next_player_and_costs_the_liar_two_cards(
    club: Club, browser: Browser, base: str
):
    # Ada 4D 9C KS 3H, Bo 6H QD 10S 2S, the starter 5C: Ada lays 4D face down as 5H
    dealt = ["4D", "6H", "9C", "QD", "KS", "10S", "3H", "2S", "5C"]
    with two_players(club, browser, base, dealt, blind=True) as (game, ada, bo):
        ada.my_move()
        page = ada.page
        page.get_by_label("The card laid").select_option("4D")
        page.get_by_label("Declared as").select_option("5H")
        page.get_by_role("button", name="Play face down").click()
        answered(page)
        bo.my_move()
        expect(bo.page.locator(".facts")).to_contain_text("5 of hearts")  # the declaration, not the card
        expect(bo.page.locator(".doubt")).to_be_visible()
        with httpx.Client(base_url=base, timeout=30) as spectator:
            public = spectator.get(f"/web/games/{game}").text
        assert "plays 5 of hearts" in public  # the public log says the declaration, and only it
        before = [*bo.received, bo.page.content(), public]
        assert "4D" not in cards_named(before) and "4 of diamonds" not in "".join(before)
        bo.page.get_by_role("button", name="Challenge the declaration").click()
        expect(bo.page.locator("table.seats tbody tr").first.locator("td").nth(2)).to_have_text("5")  # 3 + 2
        expect(bo.page.locator(".facts")).to_contain_text("4 of diamonds")  # turned up: it is followed now
        expect(bo.page.locator(".doubt")).to_have_count(0)
        bo.my_move()
        log = whole_log(club.client, game, ADMIN)  # type: ignore[arg-type]
        challenged = [e["data"] for e in log if e["type"] == "DeclarationChallenged"]
        assert challenged == [{"seat": 1, "player": 0, "card": "4D", "declared": "5H", "lied": True}]
        drawn = [e["data"] for e in log if e["type"] == "CardsDrawn"]
        assert [(d["seat"], len(d["cards"])) for d in drawn] == [(0, 2)]
        with httpx.Client(base_url=base, timeout=30) as spectator:
            said = spectator.get(f"/web/games/{game}").text
        assert (
            "challenges the card" in said
            and "laid face down as 5 of hearts: it is 4 of diamonds, a lie" in said
        )
        no_hidden_card_shown(club, game, ada, bo)


def test_on_a_quick_table_two_jacks_laid_together_name_one_suit(club: Club, browser: Browser, base: str):
    # Ada JC JD KD 5D, Bo 5H 6S QD 3S, the starter 4C
    dealt = ["JC", "5H", "JD", "6S", "KD", "QD", "5D", "3S", "4C"]
    with two_players(club, browser, base, dealt, quick=True) as (game, ada, bo):
        ada.my_move()
        ada.page.locator("summary", has_text="Play jack of clubs").click()
        ada.page.get_by_role("checkbox", name="jack of diamonds").check()
        ada.page.locator("details.jack", has_text="Play jack of clubs").get_by_role(
            "button", name="♠ spades"
        ).click()
        bo.my_move()
        expect(bo.page.locator(".facts")).to_contain_text("spades")
        plays = [e["data"] for e in whole_log(club.client, game, ADMIN) if e["type"] == "CardPlayed"]  # type: ignore[arg-type]
        assert [(play["card"], play["more"], play["suit"]) for play in plays] == [("JC", ["JD"], "S")]
