"""A preset's game over HTTP dealt from an explicit deck, and moves on it, for the rule cases."""

from collections.abc import Mapping, Sequence
from typing import Any

from service.domain.cards import format_cards
from service.domain.ruleset_options import ruleset
from tests.e2e.club import Club
from tests.unit.scenario import deck_order


class Table:
    """Seat 0 moves first (the last seat deals); ``game`` follows every move made through it."""

    def __init__(
        self,
        club: Club,
        preset: str,
        hands: Mapping[int, Sequence[str]],
        starter: str,
        seats: int = 2,
        stock: Sequence[str] = (),
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.club = club
        rules = ruleset(preset, **(options or {}))
        deck = format_cards(deck_order(rules, seats, seats - 1, hands, starter=starter, stock=stock))
        players = [club.player() for _ in range(seats)]
        self.headers = [headers for _, headers in players]
        self.game = club.game(
            [player for player, _ in players],
            deck=deck,
            first_dealer=seats - 1,
            ruleset=preset,
            options=dict(options or {}),
        )

    @property
    def moves(self) -> str:
        return f"/games/{self.game['game_id']}/moves"

    @property
    def page(self) -> str:
        """The public table's page, its last plays in words."""
        return f"/web/games/{self.game['game_id']}?fragment=1"

    def body(self, kind: str, **fields: Any) -> dict[str, Any]:
        return {"kind": kind, "version": self.game["version"], **fields}

    def move(self, seat: int, kind: str, **fields: Any) -> list[dict[str, Any]]:
        """The move made by the seat's player; the events it stored."""
        done = self.club.ok("POST", self.moves, headers=self.headers[seat], json=self.body(kind, **fields))
        self.game = {**self.game, "version": done["version"], "position": done["position"]}
        return done["events"]

    def table(self) -> dict[str, Any]:
        return self.club.table(self.game)

    def me(self, seat: int) -> dict[str, Any]:
        return self.club.me(self.game, self.headers[seat])
