"""A Mao match for the pages' tests: Ada (seat 0), Bo (seat 1) and Cy (seat 2), all members, judged
by the league's referee Rita (or the server); Cy deals first, so Ada starts. No bot: the test plays
every seat."""

import uuid
from dataclasses import dataclass
from typing import Any

from service.domain.cards import format_card
from tests.e2e.club import Club, bearer
from tests.unit.mao.scene import deck_for

NAMES = ("Ada", "Bo", "Cy")


@dataclass
class Match:
    game: str
    league: str
    ids: list[str]  # by seat
    tokens: list[str]  # by seat
    referee: str  # Rita's token

    def act(self, club: Club, seat: int, method: str, tail: str, **body: Any) -> Any:
        """An act of a seat through the API (the seat played without a page)."""
        return club.ok(method, f"/mao-games/{self.game}{tail}", headers=bearer(self.tokens[seat]), json=body)


def deck(hands: dict[int, str], starter: str, stock: str) -> list[str]:
    """The 52 cards of a deal at the three seats, Cy dealing, three cards each."""
    return [format_card(card) for card in deck_for(3, 3, 2, hands, starter, stock)]


def mao_match(
    club: Club, rounds_to_win: int = 2, judge: str = "referee", judge_seat: int | None = None
) -> Match:
    ids, tokens = [], []
    for name in NAMES:
        created = club.ok("POST", "/players", json={"name": f"{name} {uuid.uuid4().hex[:4]}"})
        ids.append(created["player"]["player_id"])
        tokens.append(created["token"]["token"])
    rita = club.ok("POST", "/referees", json={"name": f"Rita {uuid.uuid4().hex[:4]}"})
    options = {"hand_size": 3, "rounds_to_win": rounds_to_win}
    league = club.league(ids, [rita["referee"]["referee_id"]], ruleset="mao", options=options)
    body: dict[str, Any] = {"league_id": league, "seats": ids, "judge": judge, "first_dealer": 2}
    if judge_seat is not None:
        body["judge_seat"] = judge_seat
    game = club.ok("POST", "/mao-games", headers=bearer(rita["token"]["token"]), json=body)["game_id"]
    return Match(game, league, ids, tokens, rita["token"]["token"])
