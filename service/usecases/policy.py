"""Who may do what: pure rules over the actor and the facts a use case passes, raising the refusal;
the use cases, the API's checks (``service.http.auth``) and the pages share them. With a game: the
rules applied before the application's own.

- An **admin** officiates every game.
- A **referee** officiates the games of the leagues they referee, and every
  friendly game (a game without a league).
- A **player** plays their own seat; a player not seated at a game only sees
  what the public sees.
- Officials see everything of the games they officiate (full log, replay),
  may move for any seat (they say which) and rule on disputes.

The application checks again what it knows (a player's seat, a league's
referees for rulings); these checks add the rest.

Every route, and who may call it ("officials": the game's admins and
referees as above; "public": anyone, no token needed; a bad token is 401
everywhere):

| route | who |
|---|---|
| GET /health, GET /ready | public |
| POST /players, POST /referees, POST /leagues | admin |
| POST /leagues/{id}/members, POST /leagues/{id}/referees | admin |
| DELETE /leagues/{id}/referees/{referee} (dismissed: officiates the league's games no more) | admin |
| DELETE /tokens/{id} | admin, or the token's holder (it and the tokens made with it) |
| GET /players/{id}, GET /players/{id}/games, GET /referees/{id} | public |
| GET /players, GET /leagues, GET /games, GET /tournaments (the lists) | public |
| GET /disputes | admin (all open disputes); referee (friendly games' and their leagues') |
| GET /me | any token |
| GET /leagues/{id}, GET /leagues/{id}/standings | public |
| GET /leagues/{id}/standings.csv, /schedule.ics, /progression.svg | public (a calendar app sends no token) |
| POST /players/{id}/tokens, POST /referees/{id}/tokens | admin, or that player / referee |
| GET, DELETE /players/{id}/tokens, /referees/{id}/tokens | admin, or that player / referee |
| POST /games | admin; referee: friendly or own league; player: friendly, seated, no seed/deck/dealer |
| GET /games/{id}, /totals, /totals.svg, /shuffles, /stream | public |
| GET /games/{id}/events | public; whole for officials, own cards for the seated player |
| GET /games/{id}/me, /me/stream | the seated player (own seat); officials name a seat |
| POST /games/{id}/moves, /challenges | the seated player (own seat); officials name a seat |
| POST /games/{id}/disputes | the seated players and officials |
| POST /games/{id}/rounds | the seated players and officials (a game played in person) |
| POST /games/{id}/rounds/{n}/confirmation | the seated players (not the one who entered it) |
| GET /games/{id}/rounds | public |
| POST /games/{id}/rulings, GET /games/{id}/replay | officials |
| GET /games/{id}/record | public; ?sight=full officials; ?sight=seat the seated player (own cards) |
| POST /games/import | admin; referee: friendly or own league (as POST /games for others' seats) |
| POST /mao-games | admin; a referee of the (Mao) league |
| GET /mao-games/{id}, /events | public; the log whole for officials, own cards for the seated player |
| GET /mao-games/{id}/stream | public (the log as the public sees it) |
| GET /mao-games/{id}/me, /me/stream | the seated player (own seat); officials name a seat |
| GET /mao-games/{id}/judge, /replay | officials (``service.usecases.mao_policy``) |
| POST /mao-games/{id}/plays, /draws, /utterances, /pause, /proposals; DELETE .../pause | |
|   the seated player (own seat); officials name a seat | |
| PUT /mao-games/{id}/rule, POST .../deals, .../proposal/approval, .../proposal/refusal | officials, |
|   and the player at the match's ``judge_seat`` (a judge who plays) | |
|   (with the server as judge: 409 server_judges, but officials and seated players may deal) | |
| POST /leagues/{id}/tournaments, POST /tournaments/{id}/start | admin |
| GET /leagues/{id}/tournaments, GET /tournaments/{id}, GET /players/{id}/next-game | public |
| GET /tournaments/{id}/results.json, /results.csv | public |
| GET /players/{id}/ratings, /ratings.svg | public |
| GET /tournaments/{id}/rounds/{n}/sheets (printable score sheets; no hidden card on them) | public |
| POST /tournaments/{id}/entrants, DELETE /tournaments/{id}/entrants/{player} | admin; a player for themself |
| PATCH /players/{id} | admin, or that player |
| POST /players/{id}/erasure, DELETE /leagues/{id}/members/{player} | admin |
| POST, GET /leagues/{id}/invitations, DELETE /invitations/{id} | admin |
| POST /invitations/redeem | public (the invitation's code is the permission) |
| POST, GET /leagues/{id}/webhooks; GET, DELETE /webhooks/{id} | admin |
| POST /webhooks/{id}/secret, /disable, /enable; GET /webhooks/{id}/deliveries | admin |
| POST /webhooks/{id}/deliveries/{delivery}/resend | admin |
| GET /, /web/leagues/{id}, /web/tournaments/{id}, /web/games/{id}, /web/players/{id} | public (the pages) |
| GET /web/static/{file}, GET /signin | public |
| POST /signin, POST /signout | anyone with the session's form token (``service.web.session``) |
| POST /web/players/{id}/sessions/{session}/end | that player's session, with its form token |
| GET /web/referee | the session's referee or admin (as ``GET /disputes``); others: 403 |
| GET /web/referee/games/{id}, /web/referee/games/{id}/replay | the session's officials of the game |
| POST /web/referee/games/{id}/rulings | the game's officials, with the session's form token |
| GET /web/games/{id}/score | public (the entry form: seated players and officials) |
| POST /web/games/{id}/score | form token, then as POST /games/{id}/rounds |
| POST /web/games/{id}/score/rounds/{n}/confirmation | form token, then as its API route |
| POST /web/games/{id}/score/disputes | form token, then as POST /games/{id}/disputes |
| GET /web/admin, POST /web/admin/{form} | the session's admin (posts: with its form token) |
| GET /web/games/{id}/play | public; a hand and its moves as GET /games/{id}/me, to the session's actor |
| POST /web/games/{id}/play | the session's form token, then as POST /games/{id}/moves, /challenges |

The web pages (``service.web``) show what these routes show the same person; a signed-in page's
person is the session token's actor. The referee console applies the officials' rule above to that
actor (``officiates``), as the routes it stands for do; the scorer's page (``service.web.scorer``)
writes as that actor, after the same checks as the API; the admin page lets its admin do what the
admin's routes above let them (it calls the use cases they call, whose rule is ``check_admin`` below),
and nobody else anything; the play page
applies ``seat_to_see`` and ``acting_seat`` below as the API does. ``GET /games/{id}/me/stream``
takes that session's cookie when no bearer header is sent (a browser's ``EventSource`` cannot send
one), with the same rule.
"""

from uuid import UUID

from service.domain.errors import RuleError
from service.domain.redaction import FULL, PUBLIC, Viewer
from service.domain.roles import Actor
from service.usecases.context import Context
from service.usecases.facts import GameFacts


def check_admin(actor: Actor) -> None:
    if actor.role != "admin":
        raise RuleError("forbidden", why="admin_only")


def officiates(context: Context, actor: Actor | None, facts: GameFacts) -> bool:
    if actor is None:
        return False
    if actor.role == "admin":
        return True
    if actor.role != "referee":
        return False
    return facts.league_id is None or actor.id in context.app.get_league(facts.league_id).referees


def viewer(context: Context, actor: Actor | None, facts: GameFacts) -> Viewer:
    """How much of the game's events ``actor`` sees."""
    if actor is not None and actor.role == "player":
        seat = facts.seat_of(actor.id)
        return PUBLIC if seat is None else Viewer.at(seat)
    return FULL if officiates(context, actor, facts) else PUBLIC


def own_seat(own: int | None, seat: int | None, table: str) -> int:
    """A player's seat at the ``table`` (game or match): a command names no other."""
    if own is None:
        raise RuleError("not_seated", why=table)  # "you have no seat at this game" or "... match"
    if seat is not None and seat != own:
        raise RuleError("not_your_seat", seat=seat)
    return own


def named_seat(official: bool, seat: int | None) -> int:
    """The seat an asker who is no player names: only an official may, and must."""
    if not official:
        raise RuleError("not_allowed", why="players_table_officials")
    if seat is None:
        raise RuleError("seat_required")
    return seat


def acting_seat(context: Context, actor: Actor, facts: GameFacts, seat: int | None) -> int:
    """The seat a command is for: a player's own; the one an official names."""
    if actor.role == "player":
        return own_seat(facts.seat_of(actor.id), seat, "game")
    return named_seat(officiates(context, actor, facts), seat)


def seat_to_see(context: Context, actor: Actor, facts: GameFacts, seat: int | None) -> int:
    """The seat whose private view is asked for: a player's own; the one an official names."""
    seat = acting_seat(context, actor, facts, seat)
    if seat >= len(facts.seats):
        raise RuleError("not_a_seat", why="seat", seat=seat)
    return seat


def check_holder(actor: Actor, role: str, subject: str, why: str) -> None:
    """An admin, or the holder of ``subject``'s tokens in ``role`` (a player, a referee themself);
    ``why`` is the refusal's (``forbidden``) sentence."""
    if actor.role != "admin" and not (actor.role == role and actor.id == subject):
        raise RuleError("forbidden", why=why)


def check_entrant(actor: Actor, player_id: UUID) -> None:
    """Who joins, leaves, checks in or drops out for a player: an admin, or that player."""
    if actor.role != "admin" and not (actor.role == "player" and actor.id == str(player_id)):
        raise RuleError("forbidden", why="player_acts_themself")


def disputes_of(actor: Actor) -> str | None:
    """Whose open disputes ``actor`` lists (``GET /disputes``): a referee's own (friendly games' and
    their leagues'), an admin's all (None); anyone else may not."""
    if not actor.officiates:
        raise RuleError("forbidden", why="referees_admins_rule")
    return actor.id if actor.role == "referee" else None


def check_official(context: Context, actor: Actor, facts: GameFacts) -> None:
    if not officiates(context, actor, facts):
        raise RuleError("forbidden", why="game_officials")


def check_at_table(context: Context, actor: Actor, facts: GameFacts) -> None:
    """Seated players and officials: those who may raise a dispute."""
    if actor.role == "player":
        if facts.seat_of(actor.id) is None:
            raise RuleError("not_seated", why="game")
    elif not officiates(context, actor, facts):
        raise RuleError("not_allowed", why="players_table_officials")
