"""Secrecy across round boundaries and after voids, read over HTTP as the public and the players read.

At a round's end its deck orders are published (``/games/{id}/shuffles``) so anyone can check the
commitments; the next round's stay secret. A void reaching back across a round's end reopens that round,
whose deck order is public (issue 13, defect 2): the hidden cards are reshuffled under a fresh commitment
(``docs/referees.md``), so the published orders foretell nothing any more, and the reshuffle's own order
stays secret until the round ends again.
"""

import random
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.application import MauMau
from service.domain.adjudication import Void
from service.domain.roles import Actor
from service.settings import Settings
from tests.e2e.club import ADMIN, ADMIN_TOKEN, Club, whole_log
from tests.gameplay import next_command
from tests.secrecy import foretold_stock

OFFICIAL = Actor("admin", "club-secretary")
MOVES = 3000  # the most random moves a game is given to reach a round's end


@pytest.fixture
def club(tmp_path) -> Iterator[Club]:
    with TestClient(create_app(Settings(data_dir=tmp_path / "var", admin_token=ADMIN_TOKEN))) as client:
        yield Club(client)


def play_until(app: MauMau, game_id: str, done: Any, rng: random.Random) -> None:
    for _ in range(MOVES):
        if done():
            return
        game = app.get_game(game_id)
        app.execute(game_id, next_command(game.state, rng, challenge_rate=0), expected_version=game.version)
    raise AssertionError("the game did not get there")


def event_numbers(club: Club, game_id: str, kind: str) -> list[int]:
    return [e["number"] for e in whole_log(club.client, game_id, ADMIN) if e["type"] == kind]


def live_shuffles(club: Club, game_id: str) -> list[int]:
    """The deal (or the reshuffle after a void) of the round being played and its recycles since: their
    orders are the stock's now. A void puts the list back to what it was before its first voided event."""
    live: list[int] = []
    after: dict[int, list[int]] = {0: []}  # event number -> the live shuffles right after it
    for event in whole_log(club.client, game_id, ADMIN):
        data = event["data"]
        if event["type"] in ("RoundDealt", "HiddenCardsReshuffled"):
            live = [event["number"]]
        elif event["type"] == "StockRecycled":
            live = [*live, event["number"]]
        elif event["type"] == "RulingGiven" and isinstance(data.get("ruling"), dict):
            first = data["ruling"].get("from_event")
            if first is not None:
                live = after[first - 1]
        after[event["number"]] = live
    return live


def public_live_orders(club: Club, game_id: str) -> list[dict[str, Any]]:
    """The shuffles of the round being played whose salt or order anyone may read: there must be none."""
    shuffles = club.ok("GET", f"/games/{game_id}/shuffles", headers={})["shuffles"]
    live = live_shuffles(club, game_id)
    return [s for s in shuffles if s["number"] in live and (s["order"] or s["salt"])]


def test_a_rounds_end_publishes_its_deck_order_and_a_void_back_across_it_takes_it_back(club):
    app = club.app
    (ada, _), (bob, _) = club.player("Ada"), club.player("Bob")
    game = club.game([ada, bob], options={"target_score": 1000}, seed="secrecy-1")
    game_id = game["game_id"]
    rng = random.Random(5)
    play_until(app, game_id, lambda: len(event_numbers(club, game_id, "RoundDealt")) >= 2, rng)
    for _ in range(4):  # a few moves into round 2
        state = app.get_game(game_id)
        app.execute(game_id, next_command(state.state, rng, challenge_rate=0), expected_version=state.version)
    shuffles = club.ok("GET", f"/games/{game_id}/shuffles", headers={})["shuffles"]
    first_deal = event_numbers(club, game_id, "RoundDealt")[0]
    assert [s["verified"] for s in shuffles if s["round_no"] == 1] and all(
        s["verified"] is True for s in shuffles if s["round_no"] == 1
    )  # the finished round's orders are out and check against their commitments
    assert all(s["order"] is None for s in shuffles if s["round_no"] == 2)
    assert first_deal not in live_shuffles(club, game_id) and not public_live_orders(club, game_id)

    ended = event_numbers(club, game_id, "RoundEnded")[0]
    app.raise_dispute(game_id, reason="the last card was not played", by=OFFICIAL)
    app.give_ruling(game_id, Void(ended - 1), note="round 1 goes on", by=OFFICIAL)
    assert app.get_game(game_id).state.round_no == 1
    live = live_shuffles(club, game_id)
    assert first_deal not in live and event_numbers(club, game_id, "HiddenCardsReshuffled") == live[:1]
    still_public = public_live_orders(club, game_id)
    assert not still_public, f"round 1 is played again, yet its deck order is public: {still_public[0]}"
    assert not foretold_stock(app, game_id)  # no public order or entry holds the stock as a run
    for _ in range(6):  # nor after the play goes on
        state = app.get_game(game_id)
        app.execute(game_id, next_command(state.state, rng, challenge_rate=0), expected_version=state.version)
        assert not foretold_stock(app, game_id)

    # the reopened round ends again; then its order may be out, and the new round's still may not
    rounds_ended = len(event_numbers(club, game_id, "RoundEnded"))
    play_until(app, game_id, lambda: len(event_numbers(club, game_id, "RoundEnded")) > rounds_ended, rng)
    assert not public_live_orders(club, game_id)
    shuffles = club.ok("GET", f"/games/{game_id}/shuffles", headers={})["shuffles"]
    assert all(s["verified"] is True for s in shuffles if s["order"] is not None)
