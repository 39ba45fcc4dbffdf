"""With ``MAUMAU_PUBLIC_URL`` each notice's mail ends with a link to its page (through a real SMTP
server started here, aiosmtpd): "your move" and "table ready" to the play page of the game or Mao
match, "round starting" to the tournament, "dispute ruled" to the table; the path of each answers
the person signed in. The links handed out on the admin page and a player's own page start with it
too. Never a card nor the Mao rule (the link is made of ids); without the setting the mails carry
no link (``test_notices.py``)."""

import re
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import msgspec
import pytest
from aiosmtpd.controller import Controller
from litestar.testing import TestClient

from service.app import create_app
from service.domain.adjudication import Resume
from service.domain.mao.rule import TEACHING_TEXT
from service.domain.roles import Actor
from service.domain.tournament_plan import Plan
from service.persistence.notices import Notice
from service.settings import Settings
from service.usecases.services import Services
from tests.e2e.club import ADMIN_TOKEN, Club
from tests.e2e.test_joining import admin_browser, browser_on
from tests.e2e.test_mail import Inbox, smtp, text_of
from tests.e2e.test_mao_notices import mao_match
from tests.e2e.test_notices import ada_to_move, choose, mailer, notices_of, own_page
from tests.e2e.test_web_sessions import csrf_of, player
from tests.integration.test_tournaments import clock_plays_out

__all__ = ["smtp"]

PUBLIC = "https://cards.example.org"
ADA = "ada@example.org"
PLAN = Plan(format="swiss", table_size=4, rounds=2, single_round=True, places=8, interval=3600)


@pytest.fixture
def linking(settings: Settings, smtp: tuple[Controller, Inbox]) -> Iterator[TestClient[Any]]:
    server, _ = smtp
    url = f"smtp://127.0.0.1:{server.port}?from=club@example.org"
    changed = msgspec.structs.replace(settings, smtp_url=url, admin_token=ADMIN_TOKEN, public_url=PUBLIC)
    with TestClient(create_app(changed)) as client:
        yield client


def mailed_link(client: TestClient[Any], inbox: Inbox, notice: Notice) -> str:
    """The notice mailed: the path of the one link its mail carries (which starts with ``PUBLIC``)."""
    assert mailer(client.app.state.services).mail(notice.notice_id)
    _, mail = inbox.mails[-1]
    text = text_of(mail)
    assert TEACHING_TEXT not in text
    (link,) = re.findall(r"https?://\S+", text)
    assert link.startswith(f"{PUBLIC}/web/")
    return link.removeprefix(PUBLIC)


def test_your_move_by_mail_links_to_the_games_play_page_which_answers_the_person(
    linking: TestClient[Any], smtp: tuple[Controller, Inbox]
):
    _, inbox = smtp
    fields = ("kind_your_move", "channel_mail")
    _, headers, _, notice = ada_to_move(linking, "Linked", *fields, email="ada@example.org")
    path = mailed_link(linking, inbox, notice)
    assert path == f"/web/games/{notice.data['game_id']}/play"
    ada = own_page(linking, headers["Authorization"].removeprefix("Bearer "))
    page = ada.get(path)
    assert page.status_code == 200 and 'id="play"' in page.text  # her seat, to move from
    stranger = browser_on(linking).get(path)  # not signed in: a page saying so, no seat
    assert stranger.status_code == 200 and 'id="play"' not in stranger.text


def test_a_ruling_by_mail_links_to_the_table(linking: TestClient[Any], smtp: tuple[Controller, Inbox]):
    _, inbox = smtp
    club = Club(linking)
    ada, token, _ = player(club, "Ada Ruled")
    bo, _, _ = player(club, "Bo Ruled")
    chosen = choose(own_page(linking, token), ada, "kind_dispute_ruled", "channel_mail", email=ADA)
    assert chosen.status_code == 200
    game = UUID(club.ok("POST", "/games", json={"seats": [ada, bo]})["game_id"])
    club.app.raise_dispute(game, reason="a card fell on the floor", by=Actor("player", ada))
    club.app.give_ruling(game, Resume(), note="the 7 of hearts stays", by=Actor("admin"))
    (ruled,) = notices_of(linking.app.state.services, ada, "dispute_ruled")
    path = mailed_link(linking, inbox, ruled)
    assert path == f"/web/games/{game}"
    assert own_page(linking, token).get(path).status_code == 200
    assert "7 of hearts" not in text_of(inbox.mails[-1][1])  # a ruling's note is no part of it


def test_a_tournaments_table_and_next_round_by_mail_link_to_the_table_and_the_tournament(
    linking: TestClient[Any], smtp: tuple[Controller, Inbox]
):
    _, inbox = smtp
    club = Club(linking)
    services: Services = linking.app.state.services
    members = [player(club, f"{name} Cup") for name in ("Ada", "Bo", "Cy")]
    ada, token, _ = members[0]
    kinds = ("kind_table_ready", "kind_round_starting")
    assert choose(own_page(linking, token), ada, *kinds, "channel_mail", email=ADA).status_code == 200
    league = UUID(club.league([member for member, _, _ in members]))
    app = club.app
    cup = app.create_tournament(league, "Link cup", PLAN)
    for member, _, _ in members:
        app.join_tournament(cup, UUID(member))
    app.start_tournament(cup, seed="links")
    for game in app.start_round(cup, 1):
        clock_plays_out(app, game)
        app.record_table_result(cup, game)
    (ready,) = notices_of(services, ada, "table_ready")
    (starting,) = notices_of(services, ada, "round_starting")
    ada_browser = own_page(linking, token)
    table = mailed_link(linking, inbox, ready)
    assert table == f"/web/games/{ready.data['game_id']}/play"
    assert ada_browser.get(table).status_code == 200
    tournament = mailed_link(linking, inbox, starting)
    assert tournament == f"/web/tournaments/{cup}"
    page = ada_browser.get(tournament)
    assert page.status_code == 200 and "Link cup" in page.text


def test_a_mao_seats_table_and_turn_by_mail_link_to_the_matchs_play_page(
    linking: TestClient[Any], smtp: tuple[Controller, Inbox]
):
    ada, _, headers, match, move = mao_match(linking, "Mao Linked")
    (ready,) = notices_of(linking.app.state.services, ada, "table_ready")
    _, inbox = smtp
    play = f"/web/mao-games/{match}/play"
    assert mailed_link(linking, inbox, ready) == play
    assert mailed_link(linking, inbox, move) == play
    for _, mail in inbox.mails:
        assert "rule" not in text_of(mail).lower()
    ada_browser = own_page(linking, headers["Authorization"].removeprefix("Bearer "))
    assert ada_browser.get(play).status_code == 200


def test_the_invitation_and_sign_in_links_handed_out_start_with_the_public_address(
    linking: TestClient[Any], smtp: tuple[Controller, Inbox]
):
    _, inbox = smtp
    league = Club(linking).league(name="Public league")
    admin = admin_browser(lambda: browser_on(linking))
    form = {"csrf": csrf_of(admin.get("/web/admin/").text), "league_id": league, "email": "nora@example.org"}
    made = admin.post("/web/admin/invitation", data=form)
    assert made.status_code == 200 and "It was sent by mail too." in made.text
    found = re.search(rf'value="({re.escape(PUBLIC)}/join/inv_[^"]+)"', made.text)
    assert found is not None and "testserver" not in made.text.split("/join/inv_")[0][-60:]
    link = found.group(1)
    ((_, mail),) = inbox.mails
    assert link in text_of(mail)
    assert browser_on(linking).get(link.removeprefix(PUBLIC)).status_code == 200  # the join page

    # a player's own page makes a sign-in link for their other device with it too
    ada, token, _ = player(Club(linking), "Ada Public")
    laptop = own_page(linking, token)
    own = laptop.get(f"/web/players/{ada}").text
    made = laptop.post(f"/web/players/{ada}/signin-link", data={"csrf": csrf_of(own)})
    assert made.status_code == 200
    assert re.search(rf'value="{re.escape(PUBLIC)}/signin/link/sil_[^"]+"', made.text)
