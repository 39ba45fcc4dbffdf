"""Players and referees: registered by an admin, each with a first token, shown this once; a player
renamed (by an admin or themself), erased on request (by an admin); a session of theirs ended."""

from dataclasses import dataclass
from uuid import UUID

import msgspec

from service.application import credentials
from service.domain.errors import RuleError
from service.domain.league import Player
from service.domain.names import checked_name
from service.domain.roles import Actor
from service.usecases import policy
from service.usecases.context import Context, write
from service.usecases.fields import Name


class PlayerCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: Name


class PlayerRename(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: Name


class RefereeCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: Name


class Registered(msgspec.Struct, frozen=True, kw_only=True):
    """Who was registered (a player's id, or a referee's: their first credential's) and their token."""

    id: UUID
    name: str
    issued: credentials.Issued


@write  # the player's name, in every read model that shows it
def register_player(context: Context, actor: Actor, data: PlayerCreate) -> Registered:
    policy.check_admin(actor)
    player = Player.register(data.name)  # saved with its first token, in one transaction
    issued = credentials.issue(context.app, "player", str(player.id), player.name, None, player)
    return Registered(id=player.id, name=player.name, issued=issued)


@write  # the new name, in every read model that shows it
def rename_player(context: Context, actor: Actor, player_id: UUID, data: PlayerRename) -> Player:
    policy.check_holder(actor, "player", str(player_id), "rename_player")
    context.app.rename_player(player_id, data.name)
    return context.app.get_player(player_id)


@dataclass(frozen=True)
class Erased:
    player: Player  # called 'erased player' from now on
    revoked: list[UUID]  # their tokens revoked now


@write
def erase_player(context: Context, actor: Actor, player_id: UUID) -> Erased:
    """Their name leaves the store, their results stay under 'erased player'; their tokens are
    revoked and forgotten, their browsers signed out, their leagues left, their games forfeited."""
    policy.check_admin(actor)
    revoked = context.app.erase_player(player_id)
    context.auth.forget(*revoked)
    context.sessions.end_all(str(player_id))  # their browsers' rows name their devices
    context.notices.forget(str(player_id))  # their e-mail address goes with their choice
    return Erased(player=context.app.get_player(player_id), revoked=revoked)


@write  # the player's page lists their sessions
def end_session(context: Context, actor: Actor, player_id: UUID, session_id: UUID) -> None:
    """The player ends one of their browsers' sessions (the face signs its own browser out itself)."""
    if actor.role != "player" or actor.id != str(player_id):
        raise RuleError("forbidden", why="player_ends_own")
    if not context.sessions.end(session_id, actor.id):
        raise RuleError("session_not_found")


@write
def register_referee(context: Context, actor: Actor, data: RefereeCreate) -> Registered:
    policy.check_admin(actor)
    name = checked_name(data.name, "referee")
    issued = credentials.issue(context.app, "referee", None, name)
    return Registered(id=issued.credential_id, name=name, issued=issued)
