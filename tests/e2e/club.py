"""Helpers of the HTTP tests: an admin's shortcuts, problem+json checks."""

import contextlib
import re
import uuid
from collections.abc import Iterable, Iterator
from typing import Any

from litestar.testing import TestClient

from service.application import MauMau
from service.domain.cards import FULL_DECK, format_cards
from tests.integration.tables import deck_for

ADMIN_TOKEN = "e2e-admin-token-" + uuid.uuid4().hex
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Club:
    """An admin's shortcuts: players, referees, leagues and games over HTTP."""

    def __init__(self, client: TestClient[Any]) -> None:
        self.client = client

    @property
    def app(self) -> MauMau:
        return self.client.app.state.services.app

    def ok(self, method: str, path: str, headers: dict[str, str] = ADMIN, **kwargs: Any) -> Any:
        response = self.client.request(method, path, headers=headers, **kwargs)
        assert response.status_code < 300, (response.status_code, response.text)
        return response.json() if response.content else None

    def player(self, name: str | None = None) -> tuple[str, dict[str, str]]:
        """A new player's id and their authorization header; a name of its own unless one is given (two
        members of a league may not share one)."""
        created = self.ok("POST", "/players", json={"name": name or f"Player {uuid.uuid4().hex[:8]}"})
        return created["player"]["player_id"], bearer(created["token"]["token"])

    def referee(self, name: str = "Rita") -> tuple[str, dict[str, str]]:
        created = self.ok("POST", "/referees", json={"name": name})
        return created["referee"]["referee_id"], bearer(created["token"]["token"])

    def league(self, members: list[str] = (), referees: list[str] = (), **body: Any) -> str:  # type: ignore[assignment]
        # a name, not a word of the pages: the browser tests look for English words on uk and ru pages
        league_id = self.ok("POST", "/leagues", json={"name": "Ashgrove", **body})["league_id"]
        for player_id in members:
            self.ok("POST", f"/leagues/{league_id}/members", json={"player_id": player_id})
        for referee_id in referees:
            self.ok("POST", f"/leagues/{league_id}/referees", json={"referee_id": referee_id})
        return league_id

    def game(self, seats: list[str], headers: dict[str, str] = ADMIN, **body: Any) -> dict[str, Any]:
        return self.ok("POST", "/games", headers=headers, json={"seats": seats, **body})

    def heads_up(self, hands: dict[int, list[str]], **body: Any) -> dict[str, Any]:
        """Ada against Bob, who deals them ``hands`` and turns up 5H: the game and each one's headers."""
        ada, ada_headers = self.player("Ada")
        bob, bob_headers = self.player("Bob")
        deck = deck_for(hands, starter="5H", seats=2, dealer=1)
        game = self.game([ada, bob], deck=deck, first_dealer=1, **body)
        return {"game": game, "ada": ada_headers, "bob": bob_headers}

    def table(self, game: dict[str, Any]) -> dict[str, Any]:
        return self.ok("GET", f"/games/{game['game_id']}?after={game['position']}")

    def me(self, game: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
        return self.ok("GET", f"/games/{game['game_id']}/me?after={game['position']}", headers=headers)

    def refuses(
        self, method: str, path: str, status: int, code: str, headers: dict[str, str] = ADMIN, **kwargs: Any
    ) -> dict[str, Any]:
        """The request gets the problem+json of this status and code and stores nothing (the HTTP face
        of ``tests.refusals.refused``); the problem's body."""
        with self.unchanged():
            response = self.client.request(method, path, headers=headers, **kwargs)
        return problem(response, status, code)

    def log_position(self) -> int:
        return self.app.recorder.max_notification_id() or 0

    @contextlib.contextmanager
    def unchanged(self) -> Iterator[None]:
        """Nothing at all is stored meanwhile (a refused request changes nothing)."""
        before = self.log_position()
        yield
        assert self.log_position() == before


def moves(game: dict[str, Any]) -> str:
    """Where a game's moves are posted."""
    return f"/games/{game['game_id']}/moves"


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    """The response is the problem+json of this status and code."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["status"] == status and body["code"] == code, body
    assert body["type"] == f"urn:maumau:problem:{code}" and body["title"] and body["detail"]
    return body


ALL_CARDS = frozenset(format_cards(FULL_DECK))
# A card's name standing alone: not inside a token, an id or a longer word.
_CARD_NAME = re.compile(r"(?<![A-Za-z0-9_-])(?:10|[2-9JQKA])[CDHS](?![A-Za-z0-9_-])")


def cards_named(texts: Iterable[str]) -> set[str]:
    """Every card name that appears in these texts (response bodies, SSE streams, error details)."""
    return {card for text in texts for card in _CARD_NAME.findall(text)}


def whole_log(client: TestClient[Any], game_id: str, headers: dict[str, str]) -> list[dict[str, Any]]:
    """Every event of a game as ``headers`` may see them, all pages."""
    events: list[dict[str, Any]] = []
    page: str | None = f"/games/{game_id}/events?limit=1000"
    while page:
        response = client.get(page, headers=headers)
        assert response.status_code == 200, response.text
        events += response.json()["events"]
        page = response.json()["next"]
    return events


def unseen_cards(full_log: list[dict[str, Any]], seat: int | None) -> set[str]:
    """The cards the player at ``seat`` (None: the public) never had a right to see, from the
    referee's whole log: every card but those dealt or drawn to that seat and those turned up or
    played on the table. Whatever is left was only ever in another hand or in the stock."""
    seen: set[str] = set()
    for event in full_log:
        data = event["data"]
        if event["type"] == "RoundDealt":
            seats, hand_size = len(data["cards"]), data["cards"][0]
            seen.add(data["starter"])
            if seat is not None:
                first = (seat - data["dealer"] - 1) % seats
                seen.update(data["deck"][first : seats * hand_size : seats])
        elif event["type"] == "CardsDrawn" and data["seat"] == seat:
            seen.update(data["cards"])
        elif event["type"] == "CardPlayed":
            # laid face up, with the cards laid on it, and a face-down card's declaration (a claim
            # that names a card, not a hand's card)
            seen.update([data["card"], *(data.get("more") or [])])
            if data.get("declared"):
                seen.add(data["declared"])
    return set(ALL_CARDS - seen)
