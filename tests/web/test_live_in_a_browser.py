"""The live pages: the tournament follows its tables without a reload, and the spectators' table
never holds a hidden card, in its HTML or in anything the browser fetches for it."""

from playwright.sync_api import Response, expect

from service.web.i18n import read_catalogue
from service.web.words import card_name, card_symbol
from tests.e2e.club import Club
from tests.web.conftest import Visit, new_scene
from tests.web.playing import DECK_TWO, move_once, play_to_the_end


def test_the_tournament_page_shows_a_finished_table_and_the_ranking_without_a_reload(
    visit: Visit, club: Club
):
    scene = new_scene(club)
    page = visit.page
    page.goto(f"/web/tournaments/{scene.tournament}")
    expect(page.locator("li[data-table='0']")).to_contain_text("watch")
    page.evaluate("window.loadedOnce = true")  # gone if the page were loaded again
    play_to_the_end(club, scene.game)
    expect(page.locator("li[data-table='0']")).to_contain_text("finished", timeout=15_000)
    expect(page.locator(".status")).to_contain_text("Finished")
    final = club.ok("GET", f"/tournaments/{scene.tournament}")
    assert final["status"] == "finished"
    assert page.evaluate("window.loadedOnce") is True
    shown = page.locator("table.ranking tbody tr").all_inner_texts()
    assert [row.split("\t")[:3] for row in shown] == [
        [str(p["rank"]), p["name"], str(p["points"])] for p in final["ranking"]
    ]


def hidden_cards(club: Club, game: str) -> set[str]:
    """Every card in a hand or in the stock now, from the official's full views."""
    table = club.ok("GET", f"/games/{game}")
    cards = set()
    for seat in range(len(table["seats"])):
        cards |= set(club.ok("GET", f"/games/{game}/me", params={"seat": seat})["cards"])
    replay = club.ok("GET", f"/games/{game}/replay", params={"at": table["version"]})
    return cards | set(replay["table"]["stock"])


def public_stream(club: Club, game: str, version: int) -> str:
    """The public stream's text up to the game's event ``version``."""
    text, last = "", False
    with club.client.stream("GET", f"/games/{game}/stream") as answer:
        for line in answer.iter_lines():
            text += line + "\n"
            last = last or line == f"id: {version}"
            if last and not line:  # the blank line that ends that event's message
                return text
    return text


def test_the_spectators_table_never_holds_a_card_of_a_hand_or_of_the_stock(visit: Visit, club: Club):
    scene = new_scene(club)
    # a game of its own, dealt the same every run: the tournament's table is shuffled, and a deal
    # could end it within the moves below
    seats = list(scene.players.values())
    options = {"hand_size": 3, "single_round": True}
    game = club.game(seats, options=options, deck=DECK_TWO, first_dealer=1)["game_id"]
    for _ in range(4):
        move_once(club, game)
    page = visit.page
    fetched: list[str] = []

    def keep(response: Response) -> None:
        if "text/event-stream" not in response.headers.get("content-type", ""):
            fetched.append(response.text())

    page.on("response", keep)
    page.goto(f"/web/games/{game}")
    expect(page.locator("ol.actions li").first).to_be_visible()
    with page.expect_response(lambda answer: "fragment=1" in answer.url):
        move_once(club, game)  # the stream announces it: the page fetches its live part again
    version = club.ok("GET", f"/games/{game}")["version"]
    expect(page.locator(".seats")).to_be_visible()
    hidden = hidden_cards(club, game)
    assert len(hidden) > 10  # the hands and the stock: the check below has something to find
    english = read_catalogue("en").gettext
    words = {card_name(english, c) for c in hidden} | {card_symbol(c) for c in hidden}
    top = club.ok("GET", f"/games/{game}")["top"]
    everything = [page.content(), *fetched]
    leaked = sorted(w for w in words if any(w in text for text in everything))
    assert leaked == []
    # the stream the page follows, as the browser got it (its EventSource's body never ends)
    stream = public_stream(club, game, version)
    assert f"id: {version}" in stream
    assert f'"{top}"' in stream  # cards are written so in it: the check below could find one
    assert sorted(card for card in hidden if f'"{card}"' in stream) == []
    assert card_name(english, top) in page.content()  # the public top card is shown, in words
