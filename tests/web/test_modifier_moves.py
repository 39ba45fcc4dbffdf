"""The quick and blind modifiers on the play page without a browser: the legal moves grouped as the
page offers them, the controls drawn from them, the posted form read as the API's move, and the log's
words for a face-down card, a challenge of it and a skip taken."""

from types import SimpleNamespace

import pytest

from service.domain.errors import RuleError
from service.projections.models import LegalMove
from service.usecases.games import ChallengeDeclared, Play
from service.web.i18n import LANGUAGES, read_catalogue
from service.web.play import moves_of
from service.web.play_form import command_of
from service.web.words import event_words, full_event_words
from tests.web.play_page import ENGLISH, play_page, table
from tests.web.test_effect_words import NAMES

HAND = ["9H", "JC", "9C", "JD", "9S", "4D"]


def view(legal: list[LegalMove]) -> SimpleNamespace:
    return SimpleNamespace(seat=0, drawn=None, cards=HAND, legal=legal)


QUICK = [
    LegalMove(kind="play", card="9H"),
    LegalMove(kind="play", card="9H", more=["9C"]),
    LegalMove(kind="play", card="9H", more=["9S", "9C"]),
    LegalMove(kind="play", card="9H", more=["9C", "9S"]),
    LegalMove(kind="play", card="JC", suit="H"),
    LegalMove(kind="play", card="JC", suit="S"),
    LegalMove(kind="play", card="JC", suit="S", more=["JD"]),
    LegalMove(kind="draw"),
]
BLIND = [
    LegalMove(kind="play", card="9H"),
    LegalMove(kind="play", card="4D", declared="9H"),
    LegalMove(kind="play", card="4D", declared="JS", suit="C"),
    LegalMove(kind="play", card="4D", declared="JS", suit="D"),
    LegalMove(kind="play", card="9S", declared="9H"),
    LegalMove(kind="challenge_declaration"),
]


def test_the_cards_of_a_rank_that_may_be_laid_on_a_playable_card_are_offered_in_the_hands_order():
    moves = moves_of(view(QUICK))  # type: ignore[arg-type]
    assert moves["playable"] == {"9H": [], "JC": ["H", "S"]}  # a jack's suits listed once each
    assert moves["more"] == {"9H": ["9C", "9S"], "JC": ["JD"]}
    assert moves["face_down"] == [] and moves["declared"] == []


def test_the_cards_that_may_be_laid_face_down_and_those_they_may_be_declared_as_come_from_the_legal_moves():
    moves = moves_of(view(BLIND))  # type: ignore[arg-type]
    assert moves["face_down"] == ["9S", "4D"]  # in the hand's order
    assert moves["declared"] == ["9H", "JS"]  # each once, in the engine's order
    assert moves["declared_suits"] == ["C", "D"]
    assert moves["playable"] == {"9H": []}  # a face-down play is not a face-up one
    assert "challenge_declaration" in moves["kinds"]


def render(legal: list[LegalMove]) -> str:
    return play_page(
        card_name=lambda card: card,
        suit_name=lambda suit: suit,
        table=table(),
        view=view(legal),
        moves=moves_of(view(legal)),  # type: ignore[arg-type]
        calls={"mau": "Mau"},
    )


def test_a_playable_card_with_others_of_its_rank_opens_a_choice_of_them_and_a_jack_keeps_its_suits():
    html = render(QUICK)
    assert 'name="more:9H:9C"' in html and 'name="more:9H:9S"' in html
    assert 'value="play:9H">Play 9H and the cards ticked</button>' in html
    assert 'name="more:JC:JD"' in html and 'value="play:JC:S"' in html
    assert 'name="more:JD:' not in html  # JD is not playable: nothing is laid on it
    assert 'value="face_down"' not in html and "challenge_declaration" not in html


def test_a_blind_table_offers_a_face_down_play_and_the_challenge_of_the_card_before_the_player():
    html = render(BLIND)
    laid = '<select name="face_down_card"><option value="9S">9S</option><option value="4D">4D</option>'
    assert laid in html
    assert '<select name="declared"><option value="9H">9H</option><option value="JS">JS</option>' in html
    assert 'name="declared_suit"' in html and 'value="face_down"' in html
    assert 'value="challenge_declaration"' in html and "Challenge the declaration" in html
    assert 'name="call"' in html  # a face-down play may owe a call too


@pytest.mark.parametrize(("phase", "label"), [("drawn", "Keep the card"), ("play", "End the turn")])
def test_the_keep_button_keeps_a_drawn_card_or_ends_a_turn_after_a_card_that_plays_again(phase, label):
    legal = [LegalMove(kind="play", card="9H"), LegalMove(kind="keep")]
    html = play_page(
        card_name=lambda card: card,
        suit_name=lambda suit: suit,
        table=table(phase=phase),
        view=view(legal),
        moves=moves_of(view(legal)),  # type: ignore[arg-type]
        calls={},
    )
    assert f'<button type="submit" name="move" value="keep">{label}</button>' in html


FORM = {"version": "7", "key": "k", "csrf": "c"}


def test_a_play_takes_only_the_cards_ticked_beside_the_card_played_in_the_forms_order():
    form = {**FORM, "more:7C:7D": "on", "more:9H:9S": "on", "more:9H:9C": "on", "move": "play:9H"}
    assert command_of(form) == Play(card="9H", more=["9S", "9C"], version=7)
    assert command_of({**form, "move": "play:7C:S", "call": "mau"}) == Play(
        card="7C", suit="S", call="mau", more=["7D"], version=7
    )
    assert command_of({**form, "move": "play:4D"}) == Play(card="4D", version=7)


def test_boxes_ticked_beside_a_card_are_ignored_by_any_other_move():
    form = {**FORM, "more:9H:9C": "on", "face_down_card": "9H", "declared": "7C", "move": "draw"}
    assert command_of(form).version == 7 and type(command_of(form)).__name__ == "Draw"


def test_a_face_down_play_is_the_card_laid_declared_as_another_with_the_suit_of_a_wild_one():
    form = {**FORM, "face_down_card": "4D", "declared": "JS", "declared_suit": "C", "move": "face_down"}
    assert command_of(form) == Play(card="4D", declared="JS", suit="C", version=7)
    plain = {**form, "declared": "9H", "declared_suit": "", "more:4D:4C": "on"}
    assert command_of(plain) == Play(card="4D", declared="9H", version=7)  # face down: alone
    assert command_of({**FORM, "move": "challenge_declaration"}) == ChallengeDeclared(version=7)


@pytest.mark.parametrize(
    "form",
    [
        {"move": "face_down", "declared": "9H"},
        {"move": "face_down", "face_down_card": "4D"},
        {"move": "face_down", "face_down_card": "4D", "declared": ""},
        {"move": "play:9H", "more:9H:": "on"},
        {"move": "play:9H", "more:9H:9C": "on", "version": "x"},
        {"move": "lay"},
    ],
)
def test_a_form_missing_what_its_button_needs_is_a_malformed_request(form):
    with pytest.raises(RuleError) as refused:
        command_of({**FORM, **form})
    assert refused.value.code == "malformed_request"


@pytest.mark.parametrize(
    ("kind", "data", "words"),
    [
        ("SkipTaken", {"seat": 1, "turn": 2}, "Bob misses the turn: Cid moves"),
        ("TurnPassed", {"seat": 1, "turn": 2}, "Bob plays no more: Cid moves"),
        (
            "DeclarationChallenged",
            {"seat": 1, "player": 0, "card": "4D", "declared": "9H", "lied": True},
            "Bob challenges the card Ada laid face down as 9 of hearts: it is 4 of diamonds, a lie, "
            "and Ada draws the penalty",
        ),
        (
            "DeclarationChallenged",
            {"seat": 1, "player": 0, "card": "9H", "declared": "9H", "lied": False},
            "Bob challenges the card Ada laid face down as 9 of hearts: it is 9 of hearts, as declared, "
            "and Bob draws the penalty",
        ),
        (
            "DeclarationsRevealed",
            {
                "plays": [
                    {"seat": 0, "card": "4D", "declared": "9H"},
                    {"seat": 2, "card": "KS", "declared": "KS"},
                ]
            },
            "The cards played face down are turned up: Ada: 4 of diamonds as 9 of hearts; "
            "Cid: king of spades as king of spades",
        ),
    ],
)
def test_a_skip_taken_and_the_face_down_cards_turned_up_are_said_to_everyone(kind, data, words):
    event = SimpleNamespace(type=kind, data=data)
    assert event_words(ENGLISH, event, NAMES) == words
    assert full_event_words(ENGLISH, event, NAMES) == words


def test_a_face_down_play_is_said_as_its_player_and_the_officials_read_it_and_as_the_others_do():
    fields = {"seat": 0, "suit": None, "call": None, "turn": 1, "debt": 0, "skipped": -1}
    own = SimpleNamespace(type="CardPlayed", data={**fields, "card": "4D", "declared": "5D"})
    assert event_words(ENGLISH, own, NAMES) == "Ada plays 4 of diamonds face down as 5 of diamonds"
    # the others' log holds the declared card where the card would be, and no word of it
    others = SimpleNamespace(type="CardPlayed", data={**fields, "card": "5D"})
    assert event_words(ENGLISH, others, NAMES) == "Ada plays 5 of diamonds"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_modifiers_words_are_in_every_language(language):
    _ = read_catalogue(language).gettext
    for kind, data in (
        ("SkipTaken", {"seat": 0, "turn": 1}),
        ("TurnPassed", {"seat": 0, "turn": 1}),
        ("DeclarationChallenged", {"seat": 1, "player": 0, "card": "4D", "declared": "9H", "lied": True}),
        ("DeclarationChallenged", {"seat": 1, "player": 0, "card": "9H", "declared": "9H", "lied": False}),
        ("DeclarationsRevealed", {"plays": [{"seat": 0, "card": "4D", "declared": "9H"}]}),
    ):
        said = event_words(_, SimpleNamespace(type=kind, data=data), NAMES)
        assert said and "{" not in said and "Ada" in said
