"""A league game with a referee, a few moves played and a dispute raised by a player: what the
referee console's tests start from."""

import uuid
from dataclasses import dataclass

from tests.e2e.club import Club, bearer
from tests.web.playing import DECK_TWO, move_once


@dataclass
class Disputed:
    game: str
    players: list[str]  # ids, by seat
    tokens: list[str]  # the players' tokens, by seat
    referee: str  # the league's referee's token
    about: int  # the first event of the last move: the one the dispute is about


def referee_token(club: Club) -> tuple[str, str]:
    created = club.ok("POST", "/referees", json={"name": f"Rita {uuid.uuid4().hex[:4]}"})
    return created["referee"]["referee_id"], created["token"]["token"]


def disputed_game(club: Club, moves: int = 4, in_person: bool = False) -> Disputed:
    """With ``in_person``, a game played with real cards and nothing entered yet: no move, no dispute."""
    players, tokens = [], []
    for name in ("Ada", "Bo"):
        created = club.ok("POST", "/players", json={"name": f"{name} {uuid.uuid4().hex[:4]}"})
        players.append(created["player"]["player_id"])
        tokens.append(created["token"]["token"])
    referee, token = referee_token(club)
    league = club.league(
        members=players, referees=[referee], name=f"Ruled {uuid.uuid4().hex[:6]}", options={"hand_size": 3}
    )
    if in_person:
        game = club.game(players, league_id=league, in_person=True)["game_id"]
        return Disputed(game, players, tokens, token, 0)
    # dealt the same every run: a shuffled deal could end the round within the moves played
    game = club.game(players, league_id=league, deck=DECK_TWO, first_dealer=1)["game_id"]
    for _ in range(moves - 1):
        move_once(club, game)
    about = club.ok("GET", f"/games/{game}")["version"] + 1
    move_once(club, game)
    body = {"reason": "a card went missing", "about": about}
    club.ok("POST", f"/games/{game}/disputes", headers=bearer(tokens[1]), json=body)
    return Disputed(game, players, tokens, token, about)
