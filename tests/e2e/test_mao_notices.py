"""A Mao match's seats hear of their table and their turns as a card game's do: the person who
chose them by mail is mailed "your Mao table is ready" and "it is your move at your Mao table"
through a real SMTP server (aiosmtpd), never the secret rule nor a card; "your move" not once they
moved; a seat whose person chose nothing hears of nothing."""

from typing import Any

from aiosmtpd.controller import Controller
from litestar.testing import TestClient

from service.domain.mao.rule import TEACHING_TEXT
from service.persistence.notices import Notice
from service.usecases.services import Services
from tests.e2e.club import Club, bearer
from tests.e2e.test_mail import Inbox, mailing, smtp, text_of
from tests.e2e.test_notices import choose, mailer, notices_of, own_page
from tests.e2e.test_web_sessions import player
from workers.notices import due_notices

__all__ = ["mailing", "smtp"]

MAIL = ("kind_table_ready", "kind_your_move", "channel_mail", "channel_browser")


def mao_match(client: TestClient[Any], name: str) -> tuple[str, str, dict[str, str], str, Notice]:
    """Ada (who chose Mao's kinds by mail), Bo (who chose nothing) and a bot at a match the server
    judges, dealt at once with Ada to lead: Ada's id, Bo's, Ada's headers, the match's id, her
    "your move"."""
    club = Club(client)
    ada, ada_token, _ = player(club, f"Ada {name}")
    bo, _, _ = player(club, f"Bo {name}")
    assert choose(own_page(client, ada_token), ada, *MAIL, email="ada@example.org").status_code == 200
    league = club.league([ada, bo], ruleset="mao", options={"hand_size": 3})
    body = {"league_id": league, "seats": [ada, bo, "bot:learning"], "judge": "server", "first_dealer": 2}
    match = club.ok("POST", "/mao-games", json=body)["game_id"]
    (move,) = notices_of(client.app.state.services, ada, "your_move")
    return ada, bo, bearer(ada_token), match, move


def test_a_mao_seats_table_and_turn_are_mailed_to_the_person_who_chose_them(
    mailing: TestClient[Any], smtp: tuple[Controller, Inbox]
):
    _, inbox = smtp
    services: Services = mailing.app.state.services
    ada, bo, _, match, move = mao_match(mailing, "Mao Mailed")
    (ready,) = notices_of(services, ada, "table_ready")
    assert ready.data["mao_game_id"] == move.data["mao_game_id"] == match and move.data["seat"] == 0
    assert sorted(due_notices(services.notices, 0.0, 100)) == sorted([ready.notice_id, move.notice_id])
    assert mailer(services).mail(ready.notice_id) and mailer(services).mail(move.notice_id)
    assert not mailer(services).mail(move.notice_id)  # the task run twice: one mail
    subjects = sorted(mail["Subject"] for _, mail in inbox.mails)
    assert subjects == ["It is your move at your Mao table.", "Your Mao table is ready."]
    for to, mail in inbox.mails:
        assert to == ["ada@example.org"]
        assert TEACHING_TEXT not in text_of(mail) and "rule" not in text_of(mail).lower()
        assert "/web/" not in text_of(mail)  # no MAUMAU_PUBLIC_URL: no link
    assert services.notices.after(bo, 0) == []  # Bo chose nothing


def test_a_mao_turn_is_not_mailed_once_the_person_moved(
    mailing: TestClient[Any], smtp: tuple[Controller, Inbox]
):
    _, inbox = smtp
    services: Services = mailing.app.state.services
    _, _, headers, match, move = mao_match(mailing, "Mao Moved")
    drew = mailing.post(f"/mao-games/{match}/draws", headers=headers, json={})
    assert drew.status_code == 200, drew.text
    assert move.notice_id in due_notices(services.notices, 0.0, 100)
    assert not mailer(services).mail(move.notice_id)
    assert inbox.mails == []
