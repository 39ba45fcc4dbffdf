"""Helpers of the Mao HTTP tests: a Mao league with a judge, two players and a learning bot."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from litestar.testing import TestClient

from service.domain.cards import format_card
from tests.e2e.club import ADMIN, Club, problem
from tests.unit.mao.scene import deck_for
from workers.conduct import Conductor
from workers.inline import Inline


def deck(
    dealer: int, hands: Mapping[int, str], starter: str, stock: str = "", hand_size: int = 3
) -> list[str]:
    """The 52 card names of a deal at three seats (``scene.deck_for``)."""
    return [format_card(card) for card in deck_for(3, hand_size, dealer, hands, starter, stock)]


@dataclass
class MaoTable:
    """A Mao match in a league of its own: Ada (seat 0), Bo (seat 1), a learning bot, judged by Rita."""

    client: TestClient[Any]
    club: Club
    game_id: str
    league: str
    headers: dict[str, dict[str, str]]  # ada, bo, rita, outsider, admin
    ids: dict[str, str]
    # every body each of those who may not know the rule was sent
    answers: dict[str, list[str]] = field(
        default_factory=lambda: {"ada": [], "bo": [], "outsider": [], "anon": []}
    )

    def ask(self, who: str, method: str, tail: str, **kwargs: Any) -> Any:
        """A request to the match; a player's answers are kept for the secrecy checks."""
        response = self.client.request(
            method, f"/mao-games/{self.game_id}{tail}", headers=self.headers[who], **kwargs
        )
        if who in self.answers:
            self.answers[who].append(response.text)
        return response

    def ok(self, who: str, method: str, tail: str = "", **kwargs: Any) -> Any:
        response = self.ask(who, method, tail, **kwargs)
        assert response.status_code == 200, response.text
        return response.json()

    def refuses(
        self, who: str, method: str, tail: str, status: int, code: str, **kwargs: Any
    ) -> dict[str, Any]:
        """The request gets the problem+json of this status and code and stores nothing (as
        ``Club.refuses``); the problem's body."""
        with self.club.unchanged():
            return problem(self.ask(who, method, tail, **kwargs), status, code)

    def bots(self, who: str = "ada") -> list[str]:
        """What the workers do after an act that left a bot on turn, done here: the bots' turns.
        The types of the events they stored, as ``who`` sees them."""
        before = len(self.ok(who, "GET", "/events")["events"])
        Conductor(self.club.app, Inline()).advance_game(self.game_id)
        return [event["type"] for event in self.ok(who, "GET", "/events")["events"][before:]]

    def judge_view(self) -> dict[str, Any]:
        return self.ok("rita", "GET", "/judge")


def mao_table(client: TestClient[Any], rounds_to_win: int = 2, judge: str = "referee") -> MaoTable:
    club = Club(client)
    ada, ada_headers = club.player()
    bo, bo_headers = club.player()
    outsider, outsider_headers = club.player()
    rita, rita_headers = club.referee()
    options = {"hand_size": 3, "rounds_to_win": rounds_to_win}
    league = club.league([ada, bo, outsider], [rita], ruleset="mao", options=options)
    body = {"league_id": league, "seats": [ada, bo, "bot:learning"], "judge": judge, "first_dealer": 2}
    game = club.ok("POST", "/mao-games", headers=rita_headers, json=body)
    headers = {"ada": ada_headers, "bo": bo_headers, "rita": rita_headers, "outsider": outsider_headers}
    return MaoTable(
        client=client,
        club=club,
        game_id=game["game_id"],
        league=league,
        headers={**headers, "admin": ADMIN, "anon": {}},
        ids={"ada": ada, "bo": bo, "rita": rita, "outsider": outsider},
    )
