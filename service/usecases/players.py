"""Players and referees: registered by an admin, each with a first token, shown this once."""

from uuid import UUID

import msgspec

from service.application import credentials
from service.domain.league import Player
from service.domain.names import checked_name
from service.domain.roles import Actor
from service.usecases import policy
from service.usecases.context import Context, write
from service.usecases.fields import Name


class PlayerCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
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


@write
def register_referee(context: Context, actor: Actor, data: RefereeCreate) -> Registered:
    policy.check_admin(actor)
    name = checked_name(data.name, "referee")
    issued = credentials.issue(context.app, "referee", None, name)
    return Registered(id=issued.credential_id, name=name, issued=issued)
