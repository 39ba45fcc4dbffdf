"""A whole league match played over HTTP by four clients, each with its own player token.

Each client knows only what the API tells it: it reads its own view
(``/me?after=`` the last write's position) and moves only from the legal
moves listed there, saying its calls itself. The first round is scripted by
an explicit deck to pass through the situations the rules care about: a 7
chain passed on and paid, a jack naming a suit that the next player follows,
"mau" and "mau_mau" said, a missed "mau" challenged by another client. The
rounds after it are dealt from the game's seed (with a fixed entropy, so the
same every run) and played from the legal moves until the match is over.
"""

import random
from typing import Any

from litestar.testing import TestClient

from tests.e2e.club import Club, cards_named, unseen_cards, whole_log
from tests.integration.tables import deck_for

# seat -> cards; seat 3 deals, so seat 0 moves first; the starter is 5H
HANDS = {
    0: ["7H", "9S", "4D", "10H"],
    1: ["7C", "KS", "4C", "3D"],
    2: ["QS", "2C", "5C", "6D"],
    3: ["JD", "QD", "2H", "KC"],
}
# the stock, top first: seat 2 pays the 7 chain's debt of 4 with the first four cards,
# seat 1's penalty is the next two
STOCK = ["3S", "3H", "9C", "10C", "6C", "6S"]
TARGET = 40

# (seat, move) in order; "call" is said by the client itself unless the step says otherwise
SCRIPT: list[tuple[int, dict[str, Any]]] = [
    (0, {"kind": "play", "card": "7H"}),  # a 7: a debt of 2 for seat 1
    (1, {"kind": "play", "card": "7C"}),  # passed on: 4 for seat 2
    (2, {"kind": "draw"}),  # seat 2 has no 7 and pays the 4
    (3, {"kind": "play", "card": "JD", "suit": "S"}),  # a jack names spades
    (0, {"kind": "play", "card": "9S"}),  # and seat 0 follows spades
    (1, {"kind": "play", "card": "KS"}),
    (2, {"kind": "play", "card": "QS"}),
    (3, {"kind": "play", "card": "QD"}),
    (0, {"kind": "play", "card": "4D"}),  # one card left: "mau"
    (1, {"kind": "play", "card": "4C", "call": None}),  # one card left, and seat 1 says nothing
    (2, {"kind": "challenge"}),  # seat 2 challenges: seat 1 draws 2
    (2, {"kind": "play", "card": "2C"}),
    (3, {"kind": "play", "card": "2H"}),  # "mau"
    (0, {"kind": "play", "card": "10H"}),  # the last card: "mau_mau", seat 0 wins the round
]
# what is left in the hands when seat 0 goes out: 3D 6C 6S; 5C 6D 3S 3H 9C 10C; KC
FIRST_ROUND_POINTS = [0, 15, 36, 10]


class Seat:
    """One client: a player's token, what the API showed it, nothing else."""

    def __init__(self, client: TestClient[Any], game_id: str, seat: int, headers: dict[str, str]) -> None:
        self.client, self.game_id, self.seat, self.headers = client, game_id, seat, headers
        self.seen: list[str] = []  # every response body this client received

    def get(self, tail: str) -> Any:
        response = self.client.get(f"/games/{self.game_id}{tail}", headers=self.headers)
        self.seen.append(response.text)
        assert response.status_code == 200, response.text
        return response.json()

    def view(self, after: int) -> dict[str, Any]:
        mine = self.get(f"/me?after={after}")
        assert mine["seat"] == self.seat and mine["position"] >= after
        return mine

    def send(self, view: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
        """Make ``move`` (a legal move as listed, with a call if wanted) at the version the view shows."""
        version = view["table"]["version"]
        if move["kind"] == "challenge":
            path, body = "/challenges", {"version": version}
        else:
            path, body = "/moves", {**move, "version": version}
        response = self.client.post(f"/games/{self.game_id}{path}", json=body, headers=self.headers)
        self.seen.append(response.text)
        assert response.status_code == 200, (move, response.text)
        return response.json()


def said(view: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    """The move with what a careful player says with it: "mau" playing the last card but one,
    "mau_mau" playing the last."""
    call = {2: "mau", 1: "mau_mau"}.get(len(view["cards"])) if move["kind"] == "play" else None
    return {**move, "call": call} if call else move


def is_legal(view: dict[str, Any], move: dict[str, Any]) -> bool:
    return {k: v for k, v in move.items() if k != "call"} in view["legal"]


def read_all(seats: list[Seat], after: int) -> list[dict[str, Any]]:
    """Every client reads its own view after the last write; they all see the same public table."""
    views = [seat.view(after) for seat in seats]
    assert len({str(view["table"]) for view in views}) == 1
    return views


def mover(views: list[dict[str, Any]]) -> int:
    """The one seat with a move to make (anyone else may at most challenge)."""
    moving = [v["seat"] for v in views if any(m["kind"] != "challenge" for m in v["legal"])]
    assert len(moving) == 1, [v["legal"] for v in views]
    return moving[0]


def test_four_clients_play_a_league_match_to_its_end_over_http(
    client: TestClient[Any], club: Club, same_deals: None
):
    # the rounds after the first are dealt the same every run (``same_deals``): over a long match a
    # seat may see every card, and the secrecy check at the end would have nothing left to look for
    ids, headers = zip(*(club.player(f"Player {n}") for n in range(4)), strict=True)
    referee, referee_headers = club.referee("Rita")
    league = club.league(
        members=list(ids), referees=[referee], options={"hand_size": 4, "target_score": TARGET}
    )
    deck = deck_for(HANDS, starter="5H", seats=4, dealer=3, hand_size=4, stock=STOCK)
    game = club.game(list(ids), league_id=league, deck=deck, first_dealer=3, seed="played over http")
    game_id = game["game_id"]
    seats = [Seat(client, game_id, n, headers[n]) for n in range(4)]
    after = game["position"]

    views = read_all(seats, after)
    assert [sorted(v["cards"]) for v in views] == [sorted(HANDS[n]) for n in range(4)]
    for seat, step in SCRIPT:
        assert mover(views) == seat and views[0]["table"]["turn"] == seat
        move = {k: v for k, v in step.items() if k != "call"} if "call" in step else said(views[seat], step)
        assert is_legal(views[seat], move), (move, views[seat]["legal"])
        after = seats[seat].send(views[seat], move)["position"]
        views = read_all(seats, after)
        table = views[0]["table"]
        if move["kind"] == "play" and move["card"] == "7H":
            assert table["debt"] == 2
        elif move["kind"] == "play" and move["card"] == "7C":
            assert table["debt"] == 4 and views[2]["legal"] == [{"kind": "draw"}]  # no 7 to pass it on
        elif move["kind"] == "draw":
            assert table["debt"] == 0 and len(views[2]["cards"]) == 8
        elif move["kind"] == "play" and move["card"] == "JD":
            assert table["named_suit"] == "S" and table["top"] == "JD"
            plays = [m["card"] for m in views[0]["legal"] if m["kind"] == "play"]
            assert plays == ["9S"]  # only spades follow (seat 0 holds no jack)
        elif move["kind"] == "play" and move["card"] == "4C":
            assert table["missed"] == {"seat": 1, "call": "mau"}
            assert [{"kind": "challenge"} in v["legal"] for v in views] == [True, False, True, True]
        elif move["kind"] == "challenge":
            assert table["missed"] is None and len(views[1]["cards"]) == 3
    assert views[0]["table"]["round_points"] == [FIRST_ROUND_POINTS]

    # the rounds dealt from the seed: each client plays what its view lists, calls said right
    rng = random.Random(7)
    for _ in range(2000):
        table = views[0]["table"]
        if table["over"]:
            break
        seat = mover(views)
        move = rng.choice([m for m in views[seat]["legal"] if m["kind"] != "challenge"])
        after = seats[seat].send(views[seat], said(views[seat], move))["position"]
        views = read_all(seats, after)
    table = views[0]["table"]
    assert table["over"] and table["turn"] is None and all(v["legal"] == [] for v in views)

    totals = client.get(f"/games/{game_id}/totals?after={after}").json()
    rounds = totals["rounds"]
    assert len(rounds) >= 2
    first = rounds[0]
    assert (first["ended"], first["winner"], first["points"]) == ("went_out", 0, FIRST_ROUND_POINTS)
    assert first["penalty_cards"] == [0, 2, 0, 0] and first["missed_calls"] == [0, 1, 0, 0]
    assert totals["totals"] == [sum(r["points"][n] for r in rounds) for n in range(4)] == table["totals"]
    assert totals["over"] and max(totals["totals"]) >= TARGET
    assert max(sum(r["points"][n] for r in rounds[:-1]) for n in range(4)) < TARGET  # it ended when due
    best = min(totals["totals"])
    assert totals["winners"] == [n for n in range(4) if totals["totals"][n] == best] == table["winners"]
    full = whole_log(client, game_id, referee_headers)
    ended = [e["data"] for e in full if e["type"] == "RoundEnded"]
    assert [e["points"] for e in ended] == [r["points"] for r in rounds]

    standings = client.get(f"/leagues/{league}/standings?after={after}").json()
    rows = {row["player_id"]: row for row in standings["rows"]}
    assert set(rows) == set(ids)
    for n, player_id in enumerate(ids):
        row = rows[player_id]
        assert row["points"] == totals["totals"][n] and row["matches_played"] == 1
        assert row["rounds_played"] == len(rounds)
        assert row["rounds_won"] == sum(r["winner"] == n for r in rounds)
        assert row["matches_won"] + row["matches_shared"] == (n in totals["winners"])
        assert row["penalty_cards"] == sum(r["penalty_cards"][n] for r in rounds)
        assert row["missed_calls"] == sum(r["missed_calls"][n] for r in rounds)
    ranked = sorted(standings["rows"], key=lambda row: row["rank"])
    assert [row["points"] for row in ranked] == sorted(totals["totals"])

    # no client ever saw a card that was only in another hand or in the stock
    for seat in seats:
        seat.get("/events?limit=1000")
        seat.seen.append(client.get(f"/games/{game_id}/stream", headers=seat.headers).text)
        secret = unseen_cards(full, seat.seat)
        assert secret and cards_named([str(full)]) >= secret  # the referee's log names them all
        assert cards_named(seat.seen) & secret == set(), seat.seat
