"""Cards in words and symbols on the pages: jokers and a second deck's copies included."""

from types import SimpleNamespace

import pytest

from service.domain.cards import CARD_COUNT, FULL_DECK, format_card, is_joker
from service.domain.errors import RuleError
from service.web.i18n import LANGUAGES, read_catalogue
from service.web.play import moves_of
from service.web.words import card_name, card_suit, card_symbol
from tests.web.play_page import ENGLISH, NO_MOVES, play_page, table

SECOND_DECK = range(54, CARD_COUNT)


def test_a_first_deck_card_is_named_and_drawn_as_before():
    assert card_name(ENGLISH, "10H") == "10 of hearts"
    assert card_name(ENGLISH, "QS") == "queen of spades"
    assert (card_symbol("10H"), card_suit("10H")) == ("10♥", "H")


def test_a_second_deck_copy_is_named_and_drawn_as_its_first_deck_twin():
    for c in SECOND_DECK:
        if not is_joker(c):
            twin = format_card(c - 54)
            assert card_name(ENGLISH, format_card(c)) == card_name(ENGLISH, twin)
            assert card_symbol(format_card(c)) == card_symbol(twin)
            assert card_suit(format_card(c)) == card_suit(twin)


@pytest.mark.parametrize("joker", ["X1", "X2", "X1.2", "X2.2"])
def test_every_joker_is_a_joker_in_words_symbol_and_colour(joker):
    assert card_name(ENGLISH, joker) == "joker"
    assert card_symbol(joker) == "🃏"
    assert card_suit(joker) == "joker"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_of_both_decks_has_a_name_in_every_language(language):
    _ = read_catalogue(language).gettext
    names = {card_name(_, format_card(c)) for c in range(CARD_COUNT)}
    assert len(names) == len(FULL_DECK) + 1  # copies are named alike, and every joker is one joker


def test_text_that_is_no_card_has_no_words():
    with pytest.raises(RuleError):
        card_name(ENGLISH, "X3")


def test_a_hand_of_jokers_and_copies_shows_each_card_with_its_colour_and_its_move():
    hand = ["7D", "7D.2", "X1", "X2.2"]
    html = play_page(
        card_name=lambda card: card_name(ENGLISH, card),
        suit_name=lambda suit: {"H": "hearts", "S": "spades"}[suit],
        table=table(top="X1.2", named_suit="H", debt=5, stock=40),
        view=SimpleNamespace(seat=0, drawn=None, cards=hand),
        moves={**NO_MOVES, "playable": {"7D.2": [], "X2.2": ["H", "S"]}, "kinds": {"draw"}},
    )
    assert 'class="card suit-joker" aria-hidden="true">🃏</span> joker' in html  # the top card
    assert 'value="play:7D.2"' in html and 'value="play:X2.2:S"' in html
    assert 'value="play:7D"' not in html and 'value="play:X1"' not in html
    assert html.count('class="card suit-D') == 2  # the 7D held, the 7D.2 playable
    assert 'aria-label="joker">🃏' in html and "Play joker" in html
    assert '<button type="submit" name="move" value="play:X2.2:H" class="suit-H">♥ hearts</button>' in html


def test_a_hand_with_wild_cards_playable_says_tapping_one_names_a_suit_and_one_without_says_nothing():
    def page_of(legal: list[SimpleNamespace]) -> str:
        view = SimpleNamespace(seat=0, drawn=None, cards=["7C", "JD", "JS", "KS"], legal=legal)
        return play_page(
            card_name=lambda card: card_name(ENGLISH, card),
            suit_name=lambda suit: suit,
            table=table(top="9S"),
            view=view,
            moves=moves_of(view),  # type: ignore[arg-type]
        )

    def play(card: str, suit: str | None = None) -> SimpleNamespace:
        return SimpleNamespace(kind="play", card=card, suit=suit, declared=None, more=None, player=None)

    jacks = [play(card, suit) for card in ("JD", "JS") for suit in "CDHS"]
    hinted = page_of([*jacks, play("KS")])
    assert "To name a suit, tap a wild card: jack of diamonds, jack of spades." in hinted
    assert 'class="hint"' not in page_of([play("KS")])
