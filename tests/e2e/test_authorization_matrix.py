"""Who may call what: every route of the API against every role, from a table written out here.

The expected answers are the literal ``MATRIX`` below, read from the route
table in ``service.usecases.policy`` by a person, not computed from the code under
test. A cell is the status; a refusal also names its problem code
(``403:not_seated``); 401 is always ``unauthorized``. Every request is one
that succeeds for a role that may make it, so a refusal is about the role
alone; a refused request changes nothing. A token that is not valid is 401 on
every route, public ones included.

The second half: a player never sees a card of another hand or of the stock,
through any endpoint, any error or the live stream.
"""

import random
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from litestar.testing import TestClient

from service.domain.roles import Actor
from tests.e2e.club import ADMIN, Club, bearer, cards_named, unseen_cards, whole_log
from tests.e2e.mao import deck
from tests.gameplay import next_command
from tests.integration.tables import deck_for, play_out
from tests.receiver import receiving
from workers.inline import Inline
from workers.webhooks import Courier

ROLES = ("anonymous", "other_player", "seated_player", "other_referee", "league_referee", "admin")

# Columns, in the order of ROLES: anon = no token; other = a player of the league not seated at the game;
# seated = the player at seat 0; ref2 = the referee of another league; ref = the league's referee.
# Cells: 200/201/204 allowed with that status; 401 unauthorized; F, NA, NS: 403 with code forbidden,
# not_allowed, not_seated; CS: 403 csrf_failed (a web page's form posted without its session's token).
# A route with [...] is the same route asked about another kind of game or body.
MATRIX = """
route                                 anon  other  seated  ref2  ref   admin
GET /health                           200   200    200     200   200   200
GET /ready                            200   200    200     200   200   200
GET /metrics                          200   200    200     200   200   200
GET /schema                           200   200    200     200   200   200
GET /schema/openapi.json              200   200    200     200   200   200
GET /schema/swagger                   200   200    200     200   200   200
GET /schema/scalar                    200   200    200     200   200   200
POST /players                         401   F      F       F     F     201
GET /players/{id}                     200   200    200     200   200   200
GET /players/{id}/games               200   200    200     200   200   200
GET /players/{id}/ratings             200   200    200     200   200   200
GET /players/{id}/ratings.svg         200   200    200     200   200   200
POST /players/{id}/tokens             401   F      201     F     F     201
GET /players/{id}/tokens              401   F      200     F     F     200
DELETE /players/{id}/tokens           401   F      F       F     F     200
POST /referees                        401   F      F       F     F     201
GET /referees/{id}                    200   200    200     200   200   200
POST /referees/{id}/tokens            401   F      F       F     201   201
GET /referees/{id}/tokens             401   F      F       F     200   200
DELETE /referees/{id}/tokens          401   F      F       F     F     200
DELETE /tokens/{id}                   401   F      F       F     F     204
POST /leagues                         401   F      F       F     F     201
GET /leagues/{id}                     200   200    200     200   200   200
POST /leagues/{id}/members            401   F      F       F     F     201
POST /leagues/{id}/referees           401   F      F       F     F     201
GET /leagues/{id}/standings           200   200    200     200   200   200
GET /leagues/{id}/standings.csv       200   200    200     200   200   200
GET /leagues/{id}/ratings             200   200    200     200   200   200
GET /leagues/{id}/schedule.ics        200   200    200     200   200   200
GET /leagues/{id}/progression.svg     200   200    200     200   200   200
POST /games[league]                   401   F      F       F     201   201
POST /games[friendly,seated]          401   201    201     201   201   201
POST /games[friendly,not_seated]      401   NS     NS      201   201   201
POST /games[friendly,seed]            401   NA     NA      201   201   201
POST /games[friendly,deck]            401   NA     NA      201   201   201
POST /games[friendly,first_dealer]    401   NA     NA      201   201   201
GET /games/{id}                       200   200    200     200   200   200
GET /games/{id}/me                    401   NS     200     NA    200   200
GET /games/{id}/me/stream             401   NS     200     NA    200   200
GET /games/{id}/totals                200   200    200     200   200   200
GET /games/{id}/totals.svg            200   200    200     200   200   200
GET /games/{id}/shuffles              200   200    200     200   200   200
GET /games/{id}/events                200   200    200     200   200   200
GET /games/{id}/stream                200   200    200     200   200   200
GET /games/{id}/replay                401   F      F       F     200   200
GET /games/{id}/record                200   200    200     200   200   200
GET /games/{id}/record[full]          401   F      F       F     200   200
GET /games/{id}/record[full,friendly] 401   F      F       200   200   200
GET /games/{id}/record[seat]          401   NS     200     NS    NS    NS
POST /games/import                    401   F      F       F     201   201
GET /games/{id}/replay[friendly]      401   F      F       200   200   200
POST /games/{id}/moves                401   NS     200     NA    200   200
POST /games/{id}/moves[friendly]      401   NS     200     200   200   200
POST /games/{id}/challenges           401   NS     200     NA    200   200
POST /games/{id}/disputes             401   NS     200     NA    200   200
POST /games/{id}/rulings              401   F      F       F     200   200
POST /games/{id}/rounds               401   NS     200     NA    200   200
POST /games/{id}/rounds/{id}/confirmation 401 NS   200     NS    NS    NS
GET /games/{id}/rounds                200   200    200     200   200   200
POST /mao-games                       401   F      F       F     201   201
GET /mao-games                        200   200    200     200   200   200
GET /mao-games/{id}                   200   200    200     200   200   200
GET /mao-games/{id}/me                401   NS     200     NA    200   200
GET /mao-games/{id}/judge             401   F      F       F     200   200
GET /mao-games/{id}/events            200   200    200     200   200   200
GET /mao-games/{id}/stream            200   200    200     200   200   200
GET /mao-games/{id}/me/stream         401   NS     200     NA    200   200
GET /mao-games/{id}/replay            401   F      F       F     200   200
POST /mao-games/{id}/plays            401   NS     200     NA    200   200
POST /mao-games/{id}/draws            401   NS     200     NA    200   200
POST /mao-games/{id}/utterances       401   NS     200     NA    200   200
POST /mao-games/{id}/pause            401   NS     200     NA    200   200
DELETE /mao-games/{id}/pause          401   NS     200     NA    200   200
POST /mao-games/{id}/proposals        401   NS     200     NA    200   200
PUT /mao-games/{id}/rule              401   F      F       F     200   200
POST /mao-games/{id}/deals            401   F      F       F     200   200
POST /mao-games/{id}/proposal/approval 401  F      F       F     200   200
POST /mao-games/{id}/proposal/refusal 401   F      F       F     200   200
POST /leagues/{id}/tournaments        401   F      F       F     F     201
GET /leagues/{id}/tournaments         200   200    200     200   200   200
GET /tournaments/{id}                 200   200    200     200   200   200
GET /tournaments/{id}/results.json    200   200    200     200   200   200
GET /tournaments/{id}/results.csv     200   200    200     200   200   200
GET /tournaments/{id}/rounds/{id}/sheets 200 200   200     200   200   200
POST /tournaments/{id}/entrants       401   F      201     F     F     201
DELETE /tournaments/{id}/entrants/{id} 401  F      200     F     F     200
POST /tournaments/{id}/start          401   F      F       F     F     200
PATCH /tournaments/{id}               401   F      F       F     F     200
POST /tournaments/{id}/cancel         401   F      F       F     F     200
POST /tournaments/{id}/check-in       401   F      200     F     F     200
POST /tournaments/{id}/drop-out       401   F      200     F     F     200
GET /players/{id}/next-game           200   200    200     200   200   200
PATCH /players/{id}                   401   F      200     F     F     200
POST /players/{id}/erasure            401   F      F       F     F     200
DELETE /leagues/{id}/members/{id}     401   F      F       F     F     200
DELETE /leagues/{id}/referees/{id}    401   F      F       F     F     200
POST /leagues/{id}/invitations        401   F      F       F     F     201
GET /leagues/{id}/invitations         401   F      F       F     F     200
DELETE /invitations/{id}              401   F      F       F     F     204
POST /invitations/redeem              201   201    201     201   201   201
POST /leagues/{id}/webhooks           401   F      F       F     F     201
GET /leagues/{id}/webhooks            401   F      F       F     F     200
GET /webhooks/{id}                    401   F      F       F     F     200
DELETE /webhooks/{id}                 401   F      F       F     F     204
POST /webhooks/{id}/secret            401   F      F       F     F     201
POST /webhooks/{id}/disable           401   F      F       F     F     200
POST /webhooks/{id}/enable            401   F      F       F     F     200
GET /webhooks/{id}/deliveries         401   F      F       F     F     200
POST /webhooks/{id}/deliveries/{id}/resend 401 F   F       F     F     202
GET /players                          200   200    200     200   200   200
GET /leagues                          200   200    200     200   200   200
GET /games                            200   200    200     200   200   200
GET /tournaments                      200   200    200     200   200   200
GET /disputes                         401   F      F       200   200   200
GET /me                               401   200    200     200   200   200
GET /                                 200   200    200     200   200   200
GET /web/leagues/{id}                 200   200    200     200   200   200
GET /web/tournaments/{id}             200   200    200     200   200   200
POST /web/tournaments/{id}/start      CS    CS     CS      CS    CS    CS
GET /web/mao-games/{id}               200   200    200     200   200   200
GET /web/mao-games/{id}/play          200   200    200     200   200   200
POST /web/mao-games/{id}/play         CS    CS     CS      CS    CS    CS
GET /web/mao-games/{id}/judge         F     F      F       F     F     F
POST /web/mao-games/{id}/judge        CS    CS     CS      CS    CS    CS
GET /web/games/{id}                   200   200    200     200   200   200
GET /web/games/{id}/play              200   200    200     200   200   200
POST /web/games/{id}/play             CS    CS     CS      CS    CS    CS
GET /web/players/{id}                 200   200    200     200   200   200
POST /web/players/{id}/sessions/{id}/end CS CS   CS      CS    CS    CS
GET /web/static/{id}                  200   200    200     200   200   200
GET /signin                           200   200    200     200   200   200
POST /signin/password                 CS    CS     CS      CS    CS    CS
GET /signin/link/{id}                 404   404    404     404   404   404
POST /signin/link/{id}                CS    CS     CS      CS    CS    CS
GET /join/{id}                        404   404    404     404   404   404
POST /join/{id}                       CS    CS     CS      CS    CS    CS
POST /web/players/{id}/password       CS    CS     CS      CS    CS    CS
POST /web/players/{id}/signin-link    CS    CS     CS      CS    CS    CS
POST /web/players/{id}/notices        CS    CS     CS      CS    CS    CS
GET /web/notices/stream               401   401    401     401   401   401
POST /signin                          CS    CS     CS      CS    CS    CS
POST /signout                         CS    CS     CS      CS    CS    CS
GET /web/referee                      F     F      F       F     F     F
GET /web/referee/games/{id}           F     F      F       F     F     F
GET /web/referee/games/{id}/replay    F     F      F       F     F     F
POST /web/referee/games/{id}/rulings  CS    CS     CS      CS    CS    CS
GET /web/games/{id}/score             200   200    200     200   200   200
POST /web/games/{id}/score            CS    CS     CS      CS    CS    CS
POST /web/games/{id}/score/rounds/{id}/confirmation CS CS  CS      CS    CS    CS
POST /web/games/{id}/score/disputes   CS    CS     CS      CS    CS    CS
GET /web/admin                        401   401    401     401   401   401
GET /web/games/{id}/totals.svg        200   200    200     200   200   200
GET /web/leagues/{id}/progression.svg 200   200    200     200   200   200
GET /web/tournaments/{id}/rounds/{id}/sheets 200 200 200   200   200   200
POST /web/admin/{id}                  CS    CS     CS      CS    CS    CS
GET /web/admin/tournaments            401   401    401     401   401   401
POST /web/admin/tournaments/{id}/{id} CS    CS     CS      CS    CS    CS
POST /web/admin/leagues/{id}/{id}     CS    CS     CS      CS    CS    CS
POST /web/admin/referees/{id}/{id}    CS    CS     CS      CS    CS    CS
GET /web/admin/leagues                401   401    401     401   401   401
GET /web/admin/leagues/{id}           401   401    401     401   401   401
GET /web/admin/leagues/{id}/invitations 401 401    401     401   401   401
GET /web/admin/referees               401   401    401     401   401   401
"""
# a start time within the check-in window of two hours, so a check-in is open at once
SOON = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
REFUSALS = {"401": (401, "unauthorized"), "F": (403, "forbidden"), "NA": (403, "not_allowed")}
REFUSALS["NS"] = (403, "not_seated")
OPENED_LINKS = {"GET /join/{id}", "GET /signin/link/{id}"}
REFUSALS["CS"] = (403, "csrf_failed")  # the pages' forms: a post without the session's form token


def expected_table() -> dict[tuple[str, str], tuple[int, str | None]]:
    """(route, role) -> (status, problem code or None for a success)."""
    rows = [line.split() for line in MATRIX.strip().splitlines()[1:]]
    table = {}
    for method, route, *cells in rows:
        assert len(cells) == len(ROLES), route
        for role, cell in zip(ROLES, cells, strict=True):
            table[(f"{method} {route}", role)] = REFUSALS[cell] if cell in REFUSALS else (int(cell), None)
    return table


# the first deal of every game here: 2 cards each, the starter 5H; the mover holds 9H
MOVER_HAND, OTHER_HAND = ["9H", "KH"], ["9S", "KS"]


@dataclass
class World:
    """The club the matrix is asked in: one league, its players and referees, a finished game."""

    client: TestClient[Any]
    club: Club
    ids: dict[str, str]  # seated, partner, other, rita (the league's referee), otto (another league's)
    headers: dict[str, dict[str, str]]  # by role
    league: str
    finished: dict[str, Any]  # a league game played to its end by seated (seat 0) and partner
    friendly_finished: dict[str, Any]
    tournament: str  # started, seated at a table of its first round
    hook: str  # a webhook of the league for disputes raised
    delivery: str  # one of its deliveries, delivered
    made: list[str] = field(default_factory=list)
    made_mao: list[str] = field(default_factory=list)  # the Mao league, once made
    made_mao_over: list[str] = field(default_factory=list)  # the finished Mao match, once made

    def player_of(self, role: str) -> str:
        """A player's id the role may seat: its own for a player, else the seated player's."""
        return self.ids["other"] if role == "other_player" else self.ids["seated"]

    def game(self, mover: int = 0, league: bool = True) -> dict[str, Any]:
        """A new game of seated (seat 0) and partner (seat 1); ``mover`` moves first and may play 9H."""
        hands = {mover: MOVER_HAND, 1 - mover: OTHER_HAND}
        deck = deck_for(hands, starter="5H", seats=2, dealer=1 - mover, hand_size=2)
        extra = {"league_id": self.league} if league else {"options": {"hand_size": 2}}
        seats = [self.ids["seated"], self.ids["partner"]]
        return self.club.game(seats, deck=deck, first_dealer=1 - mover, **extra)

    def missed_call(self) -> dict[str, Any]:
        """A game where partner (seat 1) has just played down to one card without saying "mau"."""
        game = self.game(mover=1)
        outcome = self.club.app.play(game["game_id"], 1, "9H", expected_version=game["version"])
        return {**game, "version": outcome.version}

    def new_tournament(self, *entrants: str, **more: Any) -> str:
        """A tournament of the league that these players joined, not started (bots fill two places
        unless ``more`` of the plan says otherwise)."""
        plan = {"name": "Cup", "format": "swiss", "table_size": 2, "rounds": 1, "places": 2, **more}
        tournament = self.club.ok("POST", f"/leagues/{self.league}/tournaments", json=plan)["tournament_id"]
        for player_id in entrants:
            self.club.ok("POST", f"/tournaments/{tournament}/entrants", json={"player_id": player_id})
        return tournament

    def new_hook(self, disabled: bool = False) -> str:
        body = {"url": "http://127.0.0.1:9/hook", "events": ["round_started"]}
        hook = self.club.ok("POST", f"/leagues/{self.league}/webhooks", json=body)["webhook"]["webhook_id"]
        if disabled:
            self.club.ok("POST", f"/webhooks/{hook}/disable")
        return hook

    def checking_in(self, entrant: str) -> str:
        """A tournament ``entrant`` joined whose check-in is open."""
        return self.new_tournament(entrant, starts_at=SOON, check_in_minutes=120)

    def started_tournament(self, entrant: str) -> str:
        """A running tournament of three, ``entrant`` and two bots (so one may drop out)."""
        tournament = self.new_tournament(entrant, places=3)
        self.club.ok("POST", f"/tournaments/{tournament}/start")
        return tournament

    def in_person(self) -> dict[str, Any]:
        """A league game of seated (seat 0) and partner (seat 1) played with real cards."""
        return self.club.game(
            [self.ids["seated"], self.ids["partner"]], league_id=self.league, in_person=True
        )

    def entered(self) -> dict[str, Any]:
        """An in-person game whose first round partner entered (so seated may confirm it)."""
        game = self.in_person()
        partner = Actor("player", self.ids["partner"])
        outcome = self.club.app.enter_round(game["game_id"], winner=0, points=[0, 5], by=partner)
        return {**game, "version": outcome.version}

    def mao_league(self) -> str:
        """A Mao league of one card a hand, of the same players, judged by Rita (made once)."""
        if not self.made_mao:
            self.made_mao.append(self.new_mao_league(rounds_to_win=3))
        return self.made_mao[0]

    def new_mao_league(self, rounds_to_win: int) -> str:
        members = [self.ids["seated"], self.ids["partner"], self.ids["other"]]
        options = {"hand_size": 1, "rounds_to_win": rounds_to_win}
        return self.club.league(members, [self.ids["rita"]], ruleset="mao", options=options)

    def mao(self, league: str | None = None) -> str:
        """A new Mao match of seated (seat 0), partner and a bot, not dealt yet."""
        body = {
            "league_id": league or self.mao_league(),
            "seats": [self.ids["seated"], self.ids["partner"], "bot:random"],
            "first_dealer": 2,
        }
        return str(self.club.ok("POST", "/mao-games", json=body)["game_id"])

    def mao_dealt(self, league: str | None = None) -> str:
        """A Mao match where seated (seat 0) is to play and holds 9H on the starter 5H."""
        game = self.mao(league)
        cards = deck(dealer=2, hands={0: "9H", 1: "9S", 2: "2C"}, starter="5H", hand_size=1)
        self.club.ok("POST", f"/mao-games/{game}/deals", json={"deck": cards})
        return game

    def mao_paused(self) -> str:
        game = self.mao_dealt()
        self.club.ok("POST", f"/mao-games/{game}/pause", json={"seat": 0})
        return game

    def mao_won(self, league: str | None = None) -> str:
        """A Mao match whose first round seated (seat 0) won."""
        game = self.mao_dealt(league)
        self.club.ok("POST", f"/mao-games/{game}/plays", json={"card": "9H", "says": ["mao"], "seat": 0})
        return game

    def mao_over(self) -> str:
        """A Mao match seated (seat 0) won at its first round, in a league of one round a match (made
        once): its streams end."""
        if not self.made_mao_over:
            self.made_mao_over.append(self.mao_won(self.new_mao_league(rounds_to_win=1)))
        return self.made_mao_over[0]

    def mao_proposed(self) -> str:
        game = self.mao_won()
        self.club.ok("POST", f"/mao-games/{game}/proposals", json={"text": "after K: next red", "seat": 0})
        return game

    def disputed(self) -> dict[str, Any]:
        game = self.game()
        raised = self.club.ok("POST", f"/games/{game['game_id']}/disputes", json={"reason": "a card fell"})
        return {**game, "version": raised["version"]}


Request = tuple[str, str, dict[str, Any] | None]


def requests_by_route(world: World) -> dict[str, Callable[[str], Request]]:
    """For each row of the matrix: the request a role makes (fresh state where a success changes it)."""
    ids, club = world.ids, world.club
    finished, friendly_game = world.finished["game_id"], world.friendly_finished["game_id"]
    mao_page = f"/web/mao-games/{world.mao_dealt()}"  # the pages change nothing without a session
    position = club.log_position()
    record = world.client.get(f"/games/{finished}/record").text

    def fresh_player_credential() -> str:
        return club.ok("POST", f"/players/{club.player('Spare')[0]}/tokens")["credential_id"]

    def fresh_member() -> str:
        player_id = club.player()[0]
        club.ok("POST", f"/leagues/{world.league}/members", json={"player_id": player_id})
        return player_id

    def fresh_referee() -> str:
        referee_id = club.referee("Appointed")[0]
        club.ok("POST", f"/leagues/{world.league}/referees", json={"referee_id": referee_id})
        return referee_id

    def fresh_invitation() -> dict[str, Any]:
        expires_at = (datetime.now(UTC) + timedelta(days=1)).isoformat()
        return club.ok("POST", f"/leagues/{world.league}/invitations", json={"expires_at": expires_at})

    def friendly(role: str, **body: Any) -> Request:
        return "POST", "/games", {"seats": [world.player_of(role), "bot:random"], **body}

    def in_game(
        method: str,
        tail: str,
        body: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        make: Callable[[], dict[str, Any]] | None = None,
    ) -> Callable[[str], Request]:
        def request(role: str) -> Request:
            game = make() if make else world.finished
            return method, f"/games/{game['game_id']}{tail}", body(game) if body else None

        return request

    def in_mao(
        method: str, make: Callable[[], str], tail: str, body: dict[str, Any] | None = None
    ) -> Callable[[str], Request]:
        return lambda role: (method, f"/mao-games/{make()}{tail}", None if body is None else dict(body))

    play = {"kind": "play", "card": "9H", "call": "mau", "seat": 0}
    return {
        "GET /health": lambda role: ("GET", "/health", None),
        "GET /ready": lambda role: ("GET", "/ready", None),
        "GET /metrics": lambda role: ("GET", "/metrics", None),
        "GET /schema": lambda role: ("GET", "/schema", None),
        "GET /schema/openapi.json": lambda role: ("GET", "/schema/openapi.json", None),
        "GET /schema/swagger": lambda role: ("GET", "/schema/swagger", None),
        "GET /schema/scalar": lambda role: ("GET", "/schema/scalar", None),
        "POST /players": lambda role: ("POST", "/players", {"name": "Newcomer"}),
        "GET /players/{id}": lambda role: ("GET", f"/players/{ids['seated']}", None),
        "GET /players/{id}/games": lambda role: (
            "GET",
            f"/players/{ids['seated']}/games?after={position}",
            None,
        ),
        "GET /players/{id}/ratings": lambda role: (
            "GET",
            f"/players/{ids['seated']}/ratings?after={position}",
            None,
        ),
        "GET /players/{id}/ratings.svg": lambda role: (
            "GET",
            f"/players/{ids['seated']}/ratings.svg?league={world.league}&after={position}",
            None,
        ),
        "POST /players/{id}/tokens": lambda role: ("POST", f"/players/{ids['seated']}/tokens", None),
        "GET /players/{id}/tokens": lambda role: ("GET", f"/players/{ids['seated']}/tokens", None),
        # a spare's: revoking all the seated player's tokens would sign them out of the rest of the table
        "DELETE /players/{id}/tokens": lambda role: (
            "DELETE",
            f"/players/{club.player('Spare')[0]}/tokens",
            None,
        ),
        "POST /referees": lambda role: ("POST", "/referees", {"name": "Newcomer"}),
        "GET /referees/{id}": lambda role: ("GET", f"/referees/{ids['rita']}", None),
        "POST /referees/{id}/tokens": lambda role: ("POST", f"/referees/{ids['rita']}/tokens", None),
        "GET /referees/{id}/tokens": lambda role: ("GET", f"/referees/{ids['rita']}/tokens", None),
        "DELETE /referees/{id}/tokens": lambda role: (
            "DELETE",
            f"/referees/{club.referee('Spare')[0]}/tokens",
            None,
        ),
        "DELETE /tokens/{id}": lambda role: ("DELETE", f"/tokens/{fresh_player_credential()}", None),
        "POST /leagues": lambda role: ("POST", "/leagues", {"name": "Newcomers"}),
        "GET /leagues/{id}": lambda role: ("GET", f"/leagues/{world.league}", None),
        "POST /leagues/{id}/members": lambda role: (
            "POST",
            f"/leagues/{world.league}/members",
            {"player_id": club.player("Joiner")[0]},
        ),
        "POST /leagues/{id}/referees": lambda role: (
            "POST",
            f"/leagues/{world.league}/referees",
            {"referee_id": club.referee("Joiner")[0]},
        ),
        "GET /leagues/{id}/standings": lambda role: (
            "GET",
            f"/leagues/{world.league}/standings?after={position}",
            None,
        ),
        "GET /leagues/{id}/standings.csv": lambda role: (
            "GET",
            f"/leagues/{world.league}/standings.csv?after={position}",
            None,
        ),
        "GET /leagues/{id}/ratings": lambda role: (
            "GET",
            f"/leagues/{world.league}/ratings?after={position}",
            None,
        ),
        "GET /leagues/{id}/schedule.ics": lambda role: (
            "GET",
            f"/leagues/{world.league}/schedule.ics?after={position}",
            None,
        ),
        "GET /leagues/{id}/progression.svg": lambda role: (
            "GET",
            f"/leagues/{world.league}/progression.svg?after={position}",
            None,
        ),
        "POST /games[league]": lambda role: (
            "POST",
            "/games",
            {"seats": [ids["seated"], ids["partner"]], "league_id": world.league},
        ),
        "POST /games[friendly,seated]": friendly,
        "POST /games[friendly,not_seated]": lambda role: (
            "POST",
            "/games",
            {"seats": [ids["partner"], "bot:random"]},
        ),
        "POST /games[friendly,seed]": lambda role: friendly(role, seed="stacked"),
        "POST /games[friendly,deck]": lambda role: friendly(
            role, deck=deck_for({0: ["JC", "JD", "JH", "JS", "AS"]}, starter="5H", dealer=1)
        ),
        "POST /games[friendly,first_dealer]": lambda role: friendly(role, first_dealer=1),
        "GET /games/{id}": lambda role: ("GET", f"/games/{finished}", None),
        "GET /games/{id}/me": lambda role: ("GET", f"/games/{finished}/me?seat=0", None),
        "GET /games/{id}/me/stream": lambda role: ("GET", f"/games/{finished}/me/stream?seat=0", None),
        "GET /games/{id}/totals": lambda role: ("GET", f"/games/{finished}/totals", None),
        "GET /games/{id}/totals.svg": lambda role: ("GET", f"/games/{finished}/totals.svg", None),
        "GET /games/{id}/shuffles": lambda role: ("GET", f"/games/{finished}/shuffles", None),
        "GET /games/{id}/events": lambda role: ("GET", f"/games/{finished}/events", None),
        "GET /games/{id}/stream": lambda role: ("GET", f"/games/{finished}/stream", None),
        "GET /games/{id}/replay": lambda role: ("GET", f"/games/{finished}/replay", None),
        "GET /games/{id}/replay[friendly]": lambda role: ("GET", f"/games/{friendly_game}/replay", None),
        "GET /games/{id}/record": lambda role: ("GET", f"/games/{finished}/record", None),
        "GET /games/{id}/record[full]": lambda role: ("GET", f"/games/{finished}/record?sight=full", None),
        "GET /games/{id}/record[full,friendly]": lambda role: (
            "GET",
            f"/games/{friendly_game}/record?sight=full",
            None,
        ),
        "GET /games/{id}/record[seat]": lambda role: ("GET", f"/games/{finished}/record?sight=seat", None),
        # the league game's record, imported into its league again as a copy: its players are the league's
        "POST /games/import": lambda role: (
            "POST",
            "/games/import",
            {"record": record, "league_id": world.league, "copy": True},
        ),
        "POST /games/{id}/moves": in_game(
            "POST", "/moves", lambda g: {**play, "version": g["version"]}, world.game
        ),
        "POST /games/{id}/moves[friendly]": in_game(
            "POST", "/moves", lambda g: {**play, "version": g["version"]}, lambda: world.game(league=False)
        ),
        "POST /games/{id}/challenges": in_game(
            "POST", "/challenges", lambda g: {"seat": 0, "version": g["version"]}, world.missed_call
        ),
        "POST /games/{id}/disputes": in_game("POST", "/disputes", lambda g: {"reason": "why?"}, world.game),
        "POST /games/{id}/rulings": in_game("POST", "/rulings", lambda g: {"kind": "resume"}, world.disputed),
        "POST /games/{id}/rounds": in_game(
            "POST",
            "/rounds",
            lambda g: {"winner": 0, "points": [0, 7], "version": g["version"]},
            world.in_person,
        ),
        "POST /games/{id}/rounds/{id}/confirmation": in_game(
            "POST", "/rounds/1/confirmation", lambda g: {}, world.entered
        ),
        "GET /games/{id}/rounds": lambda role: ("GET", f"/games/{finished}/rounds", None),
        "POST /mao-games": lambda role: (
            "POST",
            "/mao-games",
            {"league_id": world.mao_league(), "seats": [ids["seated"], ids["partner"], "bot:random"]},
        ),
        "GET /mao-games": lambda role: ("GET", f"/mao-games?league={world.mao_league()}", None),
        "GET /mao-games/{id}": in_mao("GET", world.mao_dealt, ""),
        "GET /mao-games/{id}/me": in_mao("GET", world.mao_dealt, "/me?seat=0"),
        "GET /mao-games/{id}/judge": in_mao("GET", world.mao_dealt, "/judge"),
        "GET /mao-games/{id}/events": in_mao("GET", world.mao_dealt, "/events"),
        "GET /mao-games/{id}/stream": in_mao("GET", world.mao_over, "/stream"),
        "GET /mao-games/{id}/me/stream": in_mao("GET", world.mao_over, "/me/stream?seat=0"),
        "GET /mao-games/{id}/replay": in_mao("GET", world.mao_dealt, "/replay"),
        "POST /mao-games/{id}/plays": in_mao("POST", world.mao_dealt, "/plays", {"card": "9H", "seat": 0}),
        "POST /mao-games/{id}/draws": in_mao("POST", world.mao_dealt, "/draws", {"seat": 0}),
        "POST /mao-games/{id}/utterances": in_mao(
            "POST", world.mao_dealt, "/utterances", {"words": "hello", "seat": 0}
        ),
        "POST /mao-games/{id}/pause": in_mao("POST", world.mao_dealt, "/pause", {"seat": 0}),
        "DELETE /mao-games/{id}/pause": in_mao("DELETE", world.mao_paused, "/pause?seat=0"),
        "POST /mao-games/{id}/proposals": in_mao(
            "POST", world.mao_won, "/proposals", {"text": "after K: next red", "seat": 0}
        ),
        "PUT /mao-games/{id}/rule": in_mao("PUT", world.mao, "/rule", {"text": "after J: next red"}),
        "POST /mao-games/{id}/deals": in_mao("POST", world.mao, "/deals", {}),
        "POST /mao-games/{id}/proposal/approval": in_mao("POST", world.mao_proposed, "/proposal/approval"),
        "POST /mao-games/{id}/proposal/refusal": in_mao("POST", world.mao_proposed, "/proposal/refusal"),
        "POST /leagues/{id}/tournaments": lambda role: (
            "POST",
            f"/leagues/{world.league}/tournaments",
            {"name": "Cup", "format": "swiss", "table_size": 2, "rounds": 1},
        ),
        "GET /leagues/{id}/tournaments": lambda role: (
            "GET",
            f"/leagues/{world.league}/tournaments?after={position}",
            None,
        ),
        "GET /tournaments/{id}": lambda role: (
            "GET",
            f"/tournaments/{world.tournament}?after={position}",
            None,
        ),
        "GET /tournaments/{id}/results.json": lambda role: (
            "GET",
            f"/tournaments/{world.tournament}/results.json?after={position}",
            None,
        ),
        "GET /tournaments/{id}/results.csv": lambda role: (
            "GET",
            f"/tournaments/{world.tournament}/results.csv?after={position}",
            None,
        ),
        "GET /tournaments/{id}/rounds/{id}/sheets": lambda role: (
            "GET",
            f"/tournaments/{world.tournament}/rounds/1/sheets",
            None,
        ),
        "POST /tournaments/{id}/entrants": lambda role: (
            "POST",
            f"/tournaments/{world.new_tournament()}/entrants",
            {"player_id": ids["seated"]},
        ),
        "DELETE /tournaments/{id}/entrants/{id}": lambda role: (
            "DELETE",
            f"/tournaments/{world.new_tournament(ids['seated'])}/entrants/{ids['seated']}",
            None,
        ),
        "POST /tournaments/{id}/start": lambda role: (
            "POST",
            f"/tournaments/{world.new_tournament()}/start",
            None,
        ),
        "PATCH /tournaments/{id}": lambda role: (
            "PATCH",
            f"/tournaments/{world.new_tournament()}",
            {"name": "Renamed"},
        ),
        "POST /tournaments/{id}/cancel": lambda role: (
            "POST",
            f"/tournaments/{world.new_tournament()}/cancel",
            {"reason": "rain"},
        ),
        "POST /tournaments/{id}/check-in": lambda role: (
            "POST",
            f"/tournaments/{world.checking_in(ids['seated'])}/check-in",
            {"player_id": ids["seated"]},
        ),
        "POST /tournaments/{id}/drop-out": lambda role: (
            "POST",
            f"/tournaments/{world.started_tournament(ids['seated'])}/drop-out",
            {"player_id": ids["seated"]},
        ),
        "GET /players/{id}/next-game": lambda role: (
            "GET",
            f"/players/{ids['seated']}/next-game?after={position}",
            None,
        ),
        "PATCH /players/{id}": lambda role: (
            "PATCH",
            f"/players/{ids['seated']}",
            {"name": f"Seated {uuid.uuid4().hex[:8]}"},
        ),
        "POST /players/{id}/erasure": lambda role: ("POST", f"/players/{club.player()[0]}/erasure", None),
        "DELETE /leagues/{id}/members/{id}": lambda role: (
            "DELETE",
            f"/leagues/{world.league}/members/{fresh_member()}",
            None,
        ),
        "DELETE /leagues/{id}/referees/{id}": lambda role: (
            "DELETE",
            f"/leagues/{world.league}/referees/{fresh_referee()}",
            None,
        ),
        "POST /leagues/{id}/invitations": lambda role: (
            "POST",
            f"/leagues/{world.league}/invitations",
            {"expires_at": (datetime.now(UTC) + timedelta(days=1)).isoformat()},
        ),
        "GET /leagues/{id}/invitations": lambda role: ("GET", f"/leagues/{world.league}/invitations", None),
        "DELETE /invitations/{id}": lambda role: (
            "DELETE",
            f"/invitations/{fresh_invitation()['invitation']['invitation_id']}",
            None,
        ),
        "POST /invitations/redeem": lambda role: (
            "POST",
            "/invitations/redeem",
            {"code": fresh_invitation()["code"], "name": f"Invited {uuid.uuid4().hex[:8]}"},
        ),
        "POST /leagues/{id}/webhooks": lambda role: (
            "POST",
            f"/leagues/{world.league}/webhooks",
            {"url": "http://127.0.0.1:9/hook", "events": ["table_ready"]},
        ),
        "GET /leagues/{id}/webhooks": lambda role: ("GET", f"/leagues/{world.league}/webhooks", None),
        "GET /webhooks/{id}": lambda role: ("GET", f"/webhooks/{world.hook}", None),
        "DELETE /webhooks/{id}": lambda role: ("DELETE", f"/webhooks/{world.new_hook()}", None),
        "POST /webhooks/{id}/secret": lambda role: ("POST", f"/webhooks/{world.hook}/secret", None),
        "POST /webhooks/{id}/disable": lambda role: ("POST", f"/webhooks/{world.new_hook()}/disable", None),
        "POST /webhooks/{id}/enable": lambda role: (
            "POST",
            f"/webhooks/{world.new_hook(disabled=True)}/enable",
            None,
        ),
        "GET /webhooks/{id}/deliveries": lambda role: ("GET", f"/webhooks/{world.hook}/deliveries", None),
        "POST /webhooks/{id}/deliveries/{id}/resend": lambda role: (
            "POST",
            f"/webhooks/{world.hook}/deliveries/{world.delivery}/resend",
            None,
        ),
        "GET /players": lambda role: ("GET", f"/players?q=seated&after={position}", None),
        "GET /leagues": lambda role: ("GET", f"/leagues?after={position}", None),
        "GET /games": lambda role: ("GET", f"/games?league={world.league}&after={position}", None),
        "GET /tournaments": lambda role: (
            "GET",
            f"/tournaments?league={world.league}&after={position}",
            None,
        ),
        "GET /disputes": lambda role: ("GET", f"/disputes?after={position}", None),
        "GET /me": lambda role: ("GET", f"/me?after={position}", None),
        "GET /": lambda role: ("GET", "/", None),
        "GET /web/leagues/{id}": lambda role: ("GET", f"/web/leagues/{world.league}", None),
        "GET /web/tournaments/{id}": lambda role: ("GET", f"/web/tournaments/{world.tournament}", None),
        # the Mao pages read the session, never a bearer token: every role is as signed out there
        "GET /web/mao-games/{id}": lambda role: ("GET", mao_page, None),
        "GET /web/mao-games/{id}/play": lambda role: ("GET", f"{mao_page}/play", None),
        "POST /web/mao-games/{id}/play": lambda role: ("POST", f"{mao_page}/play", None),
        "GET /web/mao-games/{id}/judge": lambda role: ("GET", f"{mao_page}/judge", None),
        "POST /web/mao-games/{id}/judge": lambda role: ("POST", f"{mao_page}/judge", None),
        "POST /web/tournaments/{id}/start": lambda role: (
            "POST",
            f"/web/tournaments/{world.tournament}/start",
            None,
        ),
        "GET /web/games/{id}": lambda role: ("GET", f"/web/games/{finished}", None),
        # a bearer token is no session: every role sees the page that says it has no seat
        "GET /web/games/{id}/play": lambda role: ("GET", f"/web/games/{finished}/play", None),
        "POST /web/games/{id}/play": lambda role: ("POST", f"/web/games/{finished}/play", None),
        "GET /web/players/{id}": lambda role: ("GET", f"/web/players/{ids['seated']}", None),
        # a bearer token ends no session, nor does a post without the session's form token
        "POST /web/players/{id}/sessions/{id}/end": lambda role: (
            "POST",
            f"/web/players/{ids['seated']}/sessions/{uuid.uuid4()}/end",
            None,
        ),
        "GET /web/static/{id}": lambda role: ("GET", "/web/static/site.css", None),
        "GET /signin": lambda role: ("GET", "/signin", None),
        # a code that was never made: the same page for everyone (a guess, counted as the API counts it)
        "POST /signin/password": lambda role: ("POST", "/signin/password", None),
        "GET /signin/link/{id}": lambda role: ("GET", f"/signin/link/{uuid.uuid4().hex}", None),
        "POST /signin/link/{id}": lambda role: ("POST", f"/signin/link/{uuid.uuid4().hex}", None),
        "GET /join/{id}": lambda role: ("GET", f"/join/{uuid.uuid4().hex}", None),
        "POST /join/{id}": lambda role: ("POST", f"/join/{uuid.uuid4().hex}", None),
        "POST /web/players/{id}/password": lambda role: (
            "POST",
            f"/web/players/{ids['seated']}/password",
            None,
        ),
        "POST /web/players/{id}/signin-link": lambda role: (
            "POST",
            f"/web/players/{ids['seated']}/signin-link",
            None,
        ),
        "POST /web/players/{id}/notices": lambda role: (
            "POST",
            f"/web/players/{ids['seated']}/notices",
            {"kind_your_move": "on", "channel_browser": "on"},
        ),
        # a person's own notices follow their session, never a bearer token
        "GET /web/notices/stream": lambda role: ("GET", "/web/notices/stream", None),
        "POST /signin": lambda role: ("POST", "/signin", {"token": "mm_x"}),
        "POST /signout": lambda role: ("POST", "/signout", None),
        # the console reads the session, never a bearer token: every role is as signed out there
        "GET /web/referee": lambda role: ("GET", "/web/referee", None),
        "GET /web/referee/games/{id}": lambda role: ("GET", f"/web/referee/games/{finished}", None),
        "GET /web/referee/games/{id}/replay": lambda role: (
            "GET",
            f"/web/referee/games/{finished}/replay?at=3",
            None,
        ),
        "POST /web/referee/games/{id}/rulings": lambda role: (
            "POST",
            f"/web/referee/games/{finished}/rulings",
            {"kind": "resume"},
        ),
        # the scorer's page reads the session, never a bearer token: everyone gets the page that
        # says who may score, and a post without the session's form token changes nothing
        "GET /web/games/{id}/score": lambda role: ("GET", f"/web/games/{finished}/score", None),
        "POST /web/games/{id}/score": lambda role: (
            "POST",
            f"/web/games/{finished}/score",
            {"winner": "0", "points-1": "5"},
        ),
        "POST /web/games/{id}/score/rounds/{id}/confirmation": lambda role: (
            "POST",
            f"/web/games/{finished}/score/rounds/1/confirmation",
            None,
        ),
        "POST /web/games/{id}/score/disputes": lambda role: (
            "POST",
            f"/web/games/{finished}/score/disputes",
            {"reason": "no", "about": 1},
        ),
        # the admin page reads the session, not the bearer token: to it, every role here is signed out
        "GET /web/admin": lambda role: ("GET", "/web/admin", None),
        "POST /web/admin/{id}": lambda role: ("POST", "/web/admin/player", {"name": "Mallory"}),
        # the admin's lists, the same: signed out to a bearer token, their actions refused without the form's
        "GET /web/admin/tournaments": lambda role: ("GET", "/web/admin/tournaments?q=open", None),
        "GET /web/admin/leagues": lambda role: ("GET", "/web/admin/leagues?page=2", None),
        "GET /web/admin/leagues/{id}": lambda role: ("GET", f"/web/admin/leagues/{world.league}", None),
        "GET /web/admin/leagues/{id}/invitations": lambda role: (
            "GET",
            f"/web/admin/leagues/{world.league}/invitations",
            None,
        ),
        "POST /web/admin/tournaments/{id}/{id}": lambda role: (
            "POST",
            f"/web/admin/tournaments/{world.tournament}/cancel",
            {"reason": "no"},
        ),
        "POST /web/admin/leagues/{id}/{id}": lambda role: (
            "POST",
            f"/web/admin/leagues/{world.league}/remove",
            {"player_id": world.ids["other"]},
        ),
        "POST /web/admin/referees/{id}/{id}": lambda role: (
            "POST",
            f"/web/admin/referees/{world.ids['otto']}/appoint",
            {"league_id": world.league},
        ),
        "GET /web/admin/referees": lambda role: ("GET", "/web/admin/referees", None),
        # the pages' charts and sheets, in the page's language: as public as the API's
        "GET /web/games/{id}/totals.svg": lambda role: ("GET", f"/web/games/{finished}/totals.svg", None),
        "GET /web/leagues/{id}/progression.svg": lambda role: (
            "GET",
            f"/web/leagues/{world.league}/progression.svg",
            None,
        ),
        "GET /web/tournaments/{id}/rounds/{id}/sheets": lambda role: (
            "GET",
            f"/web/tournaments/{world.tournament}/rounds/1/sheets",
            None,
        ),
    }


def delivered_once(client: TestClient[Any], club: Club, league: str, seats: list[str]) -> tuple[str, str]:
    """A webhook of the league and one of its deliveries, sent to a receiver (by the workers' step,
    run here: no worker serves this session's broker)."""
    services = client.app.state.services
    with receiving() as receiver:
        body = {"url": receiver.url, "events": ["dispute_raised"]}
        hook = club.ok("POST", f"/leagues/{league}/webhooks", json=body)["webhook"]["webhook_id"]
        game = club.game(seats, league_id=league)
        club.ok("POST", f"/games/{game['game_id']}/disputes", json={})
        deadline = time.monotonic() + 10
        while not (listed := club.ok("GET", f"/webhooks/{hook}/deliveries")["deliveries"]):
            assert time.monotonic() < deadline, "the read models made no delivery"
            time.sleep(0.02)
        delivery = listed[0]["delivery_id"]
        Courier(services.app, services.reader.views.deliveries, Inline()).deliver(delivery)
        assert len(receiver.taken()) == 1
    return hook, delivery


@pytest.fixture(scope="module")
def world(client: TestClient[Any], club: Club) -> World:
    seated, seated_headers = club.player("Seated")
    partner, _ = club.player("Partner")
    other, other_headers = club.player("Other")
    rita, rita_headers = club.referee("Rita")
    otto, otto_headers = club.referee("Otto")
    league = club.league(members=[seated, partner, other], referees=[rita], options={"hand_size": 2})
    club.league(members=[], referees=[otto])
    headers = {
        "anonymous": {},
        "other_player": other_headers,
        "seated_player": seated_headers,
        "other_referee": otto_headers,
        "league_referee": rita_headers,
        "admin": ADMIN,
    }
    ids = {"seated": seated, "partner": partner, "other": other, "rita": rita, "otto": otto}
    finished = club.game([seated, partner], league_id=league, options={"single_round": True})
    friendly = club.game([seated, partner], options={"single_round": True})
    for game in (finished, friendly):
        play_out(club.app, game["game_id"], seed=3)
    plan = {"name": "Open", "format": "swiss", "table_size": 2, "rounds": 1, "places": 2}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    club.ok("POST", f"/tournaments/{tournament}/entrants", json={"player_id": seated})
    club.ok("POST", f"/tournaments/{tournament}/start")  # seated has a table of round 1 to play
    club.table({**friendly, "position": club.log_position()})  # the read models have both ends
    hook, delivery = delivered_once(client, club, league, [seated, partner])
    return World(client, club, ids, headers, league, finished, friendly, tournament, hook, delivery)


def routes_served(client: TestClient[Any]) -> set[str]:
    """Every route the app serves, as "METHOD /path" with {id} for any parameter (OPTIONS and the
    documentation pages' catch-all left out)."""
    found = set()
    for route in client.app.routes:
        if route.path == "/schema/{path:str}":
            continue
        generic = "/".join("{id}" if part.startswith("{") else part for part in route.path.split("/"))
        found |= {f"{method} {generic}" for method in getattr(route, "methods", ()) if method != "OPTIONS"}
    return found


def test_the_matrix_lists_every_route_the_api_serves(client):
    listed = {route.partition("[")[0] for route, _ in expected_table()}
    assert listed == routes_served(client)


def test_every_route_answers_every_role_as_the_matrix_says(client, club, world):
    requests = requests_by_route(world)
    expected = expected_table()
    assert {route for route, _ in expected} == set(requests)
    wrong = []
    for (route, role), (status, code) in expected.items():
        method, path, body = requests[route](role)
        before = club.log_position()
        response = client.request(method, path, json=body, headers=world.headers[role])
        # the links people open from a message or a QR code answer a page, whoever asks
        page = route in OPENED_LINKS
        found = (response.status_code, response.json().get("code") if status >= 400 and not page else None)
        if status >= 400 and response.status_code == status:
            kind = "text/html" if page else "application/problem+json"
            assert response.headers["content-type"].startswith(kind)
            assert club.log_position() == before, f"{route} {role} changed something"
        if found != (status, code):
            wrong.append(
                f"{route} as {role}: expected {status} {code or ''}, got {found} {response.text[:200]}"
            )
    assert wrong == []


def test_a_token_that_is_not_valid_is_401_on_every_route(client, club, world):
    requests = requests_by_route(world)
    _, headers = club.player("Revoked")
    credential = headers["Authorization"].split("_")[1]
    club.ok("DELETE", f"/tokens/{credential}")
    for bad in (bearer("mm_not_a_token"), headers, {"Authorization": "Basic YWRtaW46YWRtaW4="}):
        for route, request in requests.items():
            method, path, body = request("seated_player")
            with club.unchanged():
                response = client.request(method, path, json=body, headers=bad)
            assert (response.status_code, response.json()["code"]) == (401, "unauthorized"), route


def answers(client: TestClient[Any], game: dict[str, Any], headers: dict[str, str]) -> list[str]:
    """What one viewer gets from every endpoint about a game in play, refusals included."""
    game_id, version = game["game_id"], game["version"]
    base = f"/games/{game_id}"
    texts = [r.text for r in (client.get(f"{base}{tail}", headers=headers) for tail in GAME_READS)]
    texts += [
        client.post(f"{base}/moves", json={**move, "version": version}, headers=headers).text
        for move in REFUSED_MOVES
    ]
    texts.append(
        client.post(f"{base}/moves", json={"kind": "draw", "version": version - 1}, headers=headers).text
    )
    texts += [client.post(f"{base}/{tail}", json=body, headers=headers).text for tail, body in REFUSED_OTHERS]
    texts.append(client.get("/metrics", headers=headers).text)
    return texts


GAME_READS = (
    "",
    "/me",
    "/me?seat=1",
    "/me?seat=2",
    "/events?limit=1000",
    "/events?after=2&limit=1",
    "/totals",
    "/shuffles",
    "/replay",
    "/replay?at=3",
)
REFUSED_MOVES = (
    {"kind": "draw"},
    {"kind": "keep"},
    {"kind": "name_suit", "suit": "H"},
    {"kind": "play", "card": "1Z"},
    {"kind": "play", "card": "JC", "suit": "X"},
    {"kind": "play", "card": "7H", "seat": 1},
)
REFUSED_OTHERS = (
    ("challenges", {}),
    ("disputes", {"about": 999}),
    ("rulings", {"kind": "resume"}),
)


def test_a_player_never_sees_another_hand_or_the_stock_through_any_endpoint_error_or_stream(
    client, club, world, same_deals
):
    # its seed deals the same every run (``same_deals``): a shuffle could let a seat go out within
    # the first moves
    third, _ = club.player("Third")
    ids = world.ids
    rita_headers = world.headers["league_referee"]
    league = club.league(members=[ids["seated"], ids["partner"], third], referees=[ids["rita"]])
    game = club.game(
        [ids["seated"], ids["partner"], third],
        league_id=league,
        seed="hidden",
        options={"single_round": True},
    )
    rng = random.Random(5)
    for _ in range(12):  # a few moves, forgetful ones among them: draws, penalties
        state = club.app.get_game(game["game_id"]).state
        club.app.execute(game["game_id"], next_command(state, rng))
    # the seated player is not to move, so that every move they send below is refused (a draw on
    # their turn would be taken, and tell them a card the log still calls secret)
    while (played := club.app.get_game(game["game_id"])).seat_to_move == 0:
        club.app.execute(game["game_id"], next_command(played.state, rng))
    game = {**game, **club.table({**game, "position": club.log_position()})}
    assert game["round_no"] == 1 and not game["over"]  # every card of the round is still secret

    full = whole_log(client, game["game_id"], rita_headers)
    replay = club.ok("GET", f"/games/{game['game_id']}/replay", headers=rita_headers)["table"]
    for seat, viewer in (
        (0, "seated_player"),
        (None, "other_player"),
        (None, "anonymous"),
        (None, "other_referee"),
    ):
        secret = unseen_cards(full, seat)
        hidden = {c for s in replay["seats"] if s["seat"] != seat for c in s["hand"]} | set(replay["stock"])
        assert hidden <= secret and len(hidden) > 30  # the referee's replay agrees with the log
        texts = answers(client, game, world.headers[viewer])
        assert cards_named(texts) & secret == set(), [t for t in texts if cards_named([t]) & secret]
        assert cards_named([str(full)]) >= secret  # the check would find them

    # naming a card of another hand or of the stock gets the same answer: nothing told apart
    seated = world.headers["seated_player"]
    theirs = next(c for s in replay["seats"] if s["seat"] == 1 for c in s["hand"])
    stocked = replay["stock"][0]
    said = [
        client.post(
            f"/games/{game['game_id']}/moves",
            json={"kind": "play", "card": card, "version": game["version"], "seat": 0},
            headers=seated,
        ).json()
        for card in (theirs, stocked)
    ]
    assert said[0]["code"] == said[1]["code"]
    assert said[0]["detail"].replace(theirs, "?") == said[1]["detail"].replace(stocked, "?")

    # the live streams, open while the round is played to its end: the public one names no card of
    # any hand, the seat's own view none of another hand or the stock
    mine: list[str] = []
    following = threading.Thread(
        target=lambda: mine.append(client.get(f"/games/{game['game_id']}/me/stream", headers=seated).text)
    )
    finishing = threading.Thread(
        target=lambda: (time.sleep(0.3), play_out(club.app, game["game_id"], seed=6))
    )
    following.start()
    finishing.start()
    try:
        stream = client.get(f"/games/{game['game_id']}/stream", headers=seated).text
    finally:
        finishing.join()
        following.join()
    assert "MatchEnded" in stream
    final = whole_log(client, game["game_id"], rita_headers)
    assert cards_named([stream]) & unseen_cards(final, None) == set()
    assert cards_named([stream])  # it does name the cards played
    assert '"over":true' in mine[0] and mine[0].count("event: view") > 1
    assert cards_named(mine) & unseen_cards(final, 0) == set()
    assert cards_named(mine)  # it does name the seat's own cards
