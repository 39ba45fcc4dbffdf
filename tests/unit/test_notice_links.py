"""The page each notice leads to (``notice_words.page_of``: the browser's notification and the mail
share it), and a notice's mail ending with its whole address only when the service's address is
known; made of the notice's ids alone."""

from typing import Any

import pytest

from service.web.notice_words import mail_of, page_of

GAME = "5b1f6a3e-0d6c-4d43-9a57-3f1e2a1b7c01"
MAO = "8e0c2d4f-7a1b-4c3d-9e5f-0a1b2c3d4e5f"
CUP = "0f1e2d3c-4b5a-4978-8877-665544332211"
READY = {"tournament_id": CUP, "tournament": "Cup", "round_no": 1, "table": 2, "game_id": GAME}
STARTING = {"tournament_id": CUP, "round_no": 2, "starts_at": "2026-12-06T18:00:00+00:00"}


def _(text: str, **values: Any) -> str:
    return text.format(**values) if values else text


@pytest.mark.parametrize(
    ("kind", "data", "page"),
    [
        ("your_move", {"game_id": GAME, "event_number": 3, "seat": 0}, f"/web/games/{GAME}/play"),
        ("table_ready", READY, f"/web/games/{GAME}/play"),
        ("round_starting", STARTING, f"/web/tournaments/{CUP}"),
        ("dispute_ruled", {"game_id": GAME, "event_number": 9, "dispute": 1}, f"/web/games/{GAME}"),
        ("table_ready", {"mao_game_id": MAO, "event_number": 1}, f"/web/mao-games/{MAO}/play"),
        ("your_move", {"mao_game_id": MAO, "event_number": 4, "seat": 1}, f"/web/mao-games/{MAO}/play"),
    ],
)
def test_each_notice_leads_to_its_page_and_its_mail_links_to_it_only_with_the_public_address(
    kind: str, data: dict[str, Any], page: str
):
    assert page_of(kind, data) == page
    subject, text = mail_of(_, kind, data, "UTC", "https://cards.example.org")
    assert text.startswith(f"{subject}\n\nhttps://cards.example.org{page}\n\n")
    _subject, words_only = mail_of(_, kind, data, "UTC", None)
    assert "http" not in words_only and "/web/" not in words_only


def test_a_notice_without_an_id_leads_nowhere_and_an_id_that_is_no_uuid_is_not_put_in_a_link():
    assert page_of("your_move", {}) == ""
    assert mail_of(_, "your_move", {}, "UTC", "https://cards.example.org")[1] == (
        "It is your move.\n\nYou chose these notifications on your page; choose there to hear of fewer.\n"
    )
    with pytest.raises(ValueError):
        page_of("your_move", {"game_id": "../admin"})
