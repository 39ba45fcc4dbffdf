"""Who may do what at a Mao match (the rows of ``service.usecases.policy``'s table for ``/mao-games``),
pure over the actor and the match as stored.

- **Officials**: an admin, and the referees of the match's league. They see the judge's view,
  the whole log and the replay, and may act for a seat they name.
- **The judge**: with ``judge: referee``, the officials write the rule, deal, and approve or
  refuse a proposal, and so does the player at ``judge_seat`` when the match has one (a judge
  who plays: a player still, who sees no other hand, nor the judge's view, log or replay, and
  deals from the server's shuffle only); with ``judge: server`` the server does, and those
  routes answer 409 ``server_judges`` (dealing excepted: any seated player or official asks
  for the next deal).
- **A player** acts for their own seat and sees their own view; anyone else sees the public part.
"""

from uuid import UUID

from service.domain.errors import RuleError
from service.domain.mao.aggregate import MaoGame
from service.domain.mao.commands import SERVER
from service.domain.mao.redaction import JUDGE, PUBLIC, Viewer
from service.domain.roles import Actor
from service.usecases.context import Context
from service.usecases.policy import named_seat, own_seat


def officiates(context: Context, actor: Actor | None, game: MaoGame) -> bool:
    if actor is None:
        return False
    if actor.role == "admin":
        return True
    return actor.role == "referee" and actor.id in context.app.get_league(game.league_id).referees


def viewer(context: Context, actor: Actor | None, game: MaoGame) -> Viewer:
    if actor is not None and actor.role == "player":
        seat = game.seat_of(actor.id)
        return PUBLIC if seat is None else Viewer.at(seat)
    return JUDGE if officiates(context, actor, game) else PUBLIC


def acting_seat(context: Context, actor: Actor, game: MaoGame, seat: int | None) -> int:
    """The seat a command is for: a player's own; the one an official names."""
    if actor.role == "player":
        return own_seat(game.seat_of(actor.id), seat, "match")
    named = named_seat(officiates(context, actor, game), seat)
    game.check_seat(named)
    return named


def check_official(context: Context, actor: Actor, game: MaoGame) -> None:
    if not officiates(context, actor, game):
        raise RuleError("forbidden", why="match_officials")


def official_game(context: Context, actor: Actor, game_id: UUID) -> MaoGame:
    """The match, for its officials only: the judge's view and the replay show every card."""
    game = context.app.get_mao_game(game_id)
    check_official(context, actor, game)
    return game


def judges_at_seat(actor: Actor, game: MaoGame) -> bool:
    """Whether the actor is the player at the match's judging seat (a judge who plays)."""
    return (
        game.judge_seat is not None and actor.role == "player" and game.seat_of(actor.id) == game.judge_seat
    )


def check_judge(context: Context, actor: Actor, game: MaoGame) -> None:
    if judges_at_seat(actor, game):
        return
    check_official(context, actor, game)
    if game.judge == SERVER:
        raise RuleError("server_judges")


def check_dealer(context: Context, actor: Actor, game: MaoGame) -> None:
    """Who asks for the next deal: the judge; with the server as judge, a seated player too."""
    if game.judge != SERVER:
        check_judge(context, actor, game)
    elif actor.role == "player":
        if game.seat_of(actor.id) is None:
            raise RuleError("not_seated", why="match")
    else:
        check_official(context, actor, game)
