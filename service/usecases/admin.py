"""The admin's office: what the admin page's forms offer to choose from (the lists of what exists,
a page at a time: ``queries.admin_lists``)."""

import msgspec

from service.domain.roles import Actor
from service.projections.models import ListedLeague, ListedPlayer, ListedTournament
from service.usecases import policy
from service.usecases.context import Context

LISTED = 500  # the most leagues, players and tournaments the forms' lists offer


class Choices(msgspec.Struct, frozen=True, kw_only=True):
    leagues: list[ListedLeague]
    players: list[ListedPlayer]
    announced: list[ListedTournament]  # the tournaments to start
    referees: list[ListedPlayer]  # every registered referee, to appoint one by name


def choices(context: Context, actor: Actor, to_start: bool = True) -> Choices:
    """The read models waited for up to the admin's last write, as the API's reads wait (what was just
    made is on the list); ``to_start``: with the tournaments to start (a list's page picks only people
    and leagues)."""
    policy.check_admin(actor)
    context.read_after_own_writes(actor)
    leagues, _ = context.reader.leagues(None, LISTED)
    players, _ = context.reader.players(None, None, LISTED)
    announced = context.reader.tournament_list(None, "announced", None, LISTED)[0] if to_start else []
    referees, _ = context.reader.referees(None, None, LISTED)
    return Choices(leagues=leagues, players=players, announced=announced, referees=referees)
