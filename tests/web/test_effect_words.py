"""What a play did, the calls in each ruleset's words and the round and match events of the family's
presets, in words; the play page's choice of who draws and of the call as the ruleset says it."""

from types import SimpleNamespace
from typing import Any

import pytest

from service.domain.presets import PRESETS
from service.domain.ruleset_options import ruleset
from service.web.i18n import LANGUAGES, read_catalogue
from service.web.play_words import calls_of
from service.web.words import event_words, full_event_words
from tests.web.play_page import ENGLISH, NO_MOVES, play_page, table

NAMES = ["Ada", "Bob", "Cid"]


def play(card: str, **data: Any) -> SimpleNamespace:
    fields = {"seat": 0, "card": card, "suit": None, "call": None, "turn": 1, "debt": 0, "skipped": -1}
    return SimpleNamespace(type="CardPlayed", data={**fields, **data})


def said(event: SimpleNamespace, preset: str = "club", **options: Any) -> str | None:
    return event_words(ENGLISH, event, NAMES, rules=ruleset(preset, **options))


@pytest.mark.parametrize(
    ("preset", "event", "words"),
    [
        ("pesten", play("2H", debt=2), "Ada plays 2 of hearts: Bob owes 2 cards"),
        ("pesten", play("X1", suit="C", debt=7), "Ada plays joker, names clubs: Bob owes 7 cards"),
        ("classic", play("AH", turn=0), "Ada plays ace of hearts: Ada moves again"),
        ("101", play("6H", turn=0), "Ada plays 6 of hearts: Ada moves again"),
        ("puke", play("2H", turn=0, skipped=1), "Ada plays 2 of hearts: Bob misses a turn"),
        ("101", play("10H", turn=2), "Ada plays 10 of hearts: play turns the other way"),
        ("faraon", play("JS"), "Ada plays jack of spades: any debt owed is cancelled"),
        ("neuner", play("9C", suit="S"), "Ada plays 9 of clubs, names spades"),
        (
            "haft-khabis",
            play("2H", turn=0, phase="choose_player"),
            "Ada plays 2 of hearts: Ada chooses who draws 1",
        ),
        ("club", play("5H"), "Ada plays 5 of hearts"),
    ],
)
def test_a_play_says_what_its_card_did(preset, event, words):
    assert said(event, preset) == words


def test_a_switch_that_gives_a_card_an_effect_is_in_the_words():
    assert said(play("10H"), "prsi") == "Ada plays 10 of hearts"
    assert said(play("10H", turn=0), "prsi", ten_of_hearts=True) == (
        "Ada plays 10 of hearts: every other player draws 1; Ada moves again"
    )
    assert said(play("10C", turn=2), "russian", ten_reverses=True).endswith("play turns the other way")


@pytest.mark.parametrize(
    ("preset", "call", "word"),
    [
        ("club", "mau", "Mau"),
        ("club", "mau_mau", "Mau Mau"),
        ("classic", "mau_mau", "Mau-Mau"),
        ("pesten", "mau", "last card"),
        ("haft-khabis", "mau", "single card"),
        ("puke", "mau", "Puke"),
        ("puke", "mau_mau", "Puke-Puke"),
    ],
)
def test_a_call_is_said_in_the_rulesets_words(preset, call, word):
    assert said(play("5H", call=call), preset) == f"Ada plays 5 of hearts says “{word}”"


@pytest.mark.parametrize(
    ("kind", "data", "words"),
    [
        ("PlayerChosen", {"seat": 0, "chosen": 2, "turn": 1}, "Ada chooses Cid to draw"),
        (
            "DealAnnulled",
            {"round_no": 2, "dealer": 1, "seat": 1, "rank": "Q"},
            "Bob was dealt four of a kind: round 2 is dealt again",
        ),
        (
            "PlayerEliminated",
            {"seat": 1, "reason": "over_ceiling", "total": 117},
            "Bob is out of the match with 117 points, over the limit",
        ),
        (
            "PlayerEliminated",
            {"seat": 2, "reason": "lost_holding_one_card", "total": 0},
            "Cid is out of the match: they lost a round holding a single card",
        ),
        ("HandShrank", {"seat": 1, "hand_size": 4}, "Bob is dealt 4 cards from the next round on"),
    ],
)
def test_the_round_and_match_events_of_the_presets_are_said_to_everyone_and_to_officials(kind, data, words):
    event = SimpleNamespace(type=kind, data=data)
    assert event_words(ENGLISH, event, NAMES) == words
    assert full_event_words(ENGLISH, event, NAMES) == words


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_new_event_has_words_in_every_language(language):
    _ = read_catalogue(language).gettext
    for kind, data in (
        ("PlayerChosen", {"seat": 0, "chosen": 1}),
        ("DealAnnulled", {"seat": 0, "round_no": 1}),
        ("PlayerEliminated", {"seat": 0, "reason": "over_ceiling", "total": 120}),
        ("HandShrank", {"seat": 0, "hand_size": 3}),
    ):
        words = event_words(_, SimpleNamespace(type=kind, data=data), NAMES)
        assert words and "Ada" in words and kind not in words


def test_the_play_page_offers_the_calls_as_the_ruleset_says_them_and_none_where_none_is_due():
    assert calls_of(ENGLISH, PRESETS["club"]) == {"mau": "Mau", "mau_mau": "Mau Mau"}
    assert calls_of(ENGLISH, PRESETS["pesten"]) == {"mau": "last card"}
    assert calls_of(ENGLISH, PRESETS["classic"]) == {"mau": "Mau", "mau_mau": "Mau-Mau"}
    assert calls_of(ENGLISH, PRESETS["prsi"]) == {}


def render_play(moves: dict[str, Any], calls: dict[str, str], phase: str = "play") -> str:
    seats = [SimpleNamespace(seat=n, name=name, cards=5, total=0) for n, name in enumerate(NAMES)]
    return play_page(
        card_name=lambda card: card,
        suit_name=lambda suit: {"H": "hearts", "S": "spades"}[suit],
        table=table(top="5H", seats=seats, phase=phase),
        view=SimpleNamespace(seat=0, drawn=None, cards=["QH", "9C"]),
        moves={**NO_MOVES, **moves},
        calls=calls,
    )


def test_the_play_page_lets_a_player_choose_who_draws_by_name():
    html = render_play({"kinds": {"choose_player"}, "choose_players": [1, 2]}, {}, phase="choose_player")
    assert "Choose who draws:" in html
    assert 'value="choose_player:1">Bob draws<' in html and 'value="choose_player:2">Cid draws<' in html


def test_the_play_page_names_the_suit_of_any_wild_card_and_says_the_calls_in_the_rulesets_words():
    html = render_play({"playable": {"QH": ["H", "S"], "9C": []}}, {"mau": "last card"})
    assert 'aria-label="The suit named"' in html and "jack" not in html.replace('class="jack"', "")
    assert 'value="mau"> last card<' in html and 'value="mau_mau"' not in html
    silent = render_play({"playable": {"9C": []}}, {})
    assert 'name="call"' not in silent
