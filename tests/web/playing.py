"""Driving a game over the HTTP API as its official: the first legal move of whoever may move."""

from typing import Any

from service.domain.cards import FULL_DECK, format_cards
from tests.e2e.club import Club

CALLS = {1: "mau", 0: "mau_mau"}  # said with the play that leaves one card, or none
# two seats, Bo (seat 1) deals: Ada 7C JH 9S, Bo 7D 5S KS, the starter 4C; a game given it (with
# ``first_dealer`` 1) deals the same every run, where a shuffled one could end within a test's moves
DEALT_TWO = ["7C", "7D", "JH", "5S", "9S", "KS", "4C"]
DECK_TWO = DEALT_TWO + [card for card in format_cards(FULL_DECK) if card not in DEALT_TWO]


def move_once(club: Club, game: str) -> bool:
    """One move by a seat that may move (its call said, so no challenge window opens); False when
    the match is over."""
    table = club.ok("GET", f"/games/{game}")
    if table["over"]:
        return False
    for seat in range(len(table["seats"])):
        view = club.ok("GET", f"/games/{game}/me", params={"seat": seat})
        moves = [move for move in view["legal"] if move["kind"] != "challenge"]
        if not moves:
            continue
        move: dict[str, Any] = {**moves[0], "seat": seat, "version": view["table"]["version"]}
        if move["kind"] == "play" and len(view["cards"]) - 1 in CALLS:
            move["call"] = CALLS[len(view["cards"]) - 1]
        club.ok("POST", f"/games/{game}/moves", json=move)
        return True
    raise AssertionError(f"nobody may move: {table}")


def play_to_the_end(club: Club, game: str, most: int = 2000) -> None:
    for _ in range(most):
        if not move_once(club, game):
            return
    raise AssertionError("the match did not end")
