"""The admin page's lists of what exists: leagues, tournaments, registered referees, a league's members,
referees and invitations, a page at a time and searched by name (in any case), read from the read
models once they hold the admin's own last write (what was just done is on them).

Players and referees are searched by the read models (their folded names); leagues and tournaments,
which a club has by the dozen, by their names in the newest ``SCANNED`` rows of their list. A league's
invitations are not in the read models: they are the API's own list of them (``invitations_of``).
Each row carries a short distinguishing detail, so equal names are told apart where a person picks one.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar
from uuid import UUID

from service.domain.invitation import Invitation
from service.domain.league import League
from service.domain.roles import Actor
from service.projections.models import ListedLeague, ListedPlayer, ListedTournament
from service.projections.views.players import folded
from service.usecases import invitations, policy
from service.usecases.context import Context
from service.usecases.queries import aggregates

T = TypeVar("T")
PER_PAGE = 20
SCANNED = 2000  # the most leagues or tournaments a search looks through, the newest first
SHORT_ID = 8  # hex digits of an id shown to tell equal names apart


def short_id(some_id: UUID | str) -> str:
    return str(some_id).replace("-", "")[:SHORT_ID]


def told_apart(items: Sequence[T], name: Callable[[T], str], detail: Callable[[T], str]) -> list[str]:
    """Each item's name; with its ``detail`` in brackets where another item has the same name (in any
    case), and its short id too where the detail does not tell them apart either."""
    names = [folded(name(item)) for item in items]
    details = [(key, detail(item)) for key, item in zip(names, items, strict=True)]
    labels = []
    for key, item in zip(names, items, strict=True):
        if names.count(key) == 1:
            labels.append(name(item))
            continue
        said = detail(item)
        if details.count((key, said)) > 1 or not said:
            said = f"{said}, {short_id(_id(item))}" if said else short_id(_id(item))
        labels.append(f"{name(item)} ({said})")
    return labels


def _id(item: object) -> UUID:
    for field in ("player_id", "league_id", "tournament_id", "id"):
        found = getattr(item, field, None)
        if isinstance(found, UUID):
            return found
    raise TypeError(type(item).__name__)


@dataclass(frozen=True)
class Paged(Generic[T]):
    items: list[T]
    page: int  # from 1
    more: bool  # a next page follows
    search: str


def _slice(found: list[T], page: int, search: str) -> Paged[T]:
    start = (page - 1) * PER_PAGE
    return Paged(found[start : start + PER_PAGE], page, len(found) > start + PER_PAGE, search)


def _matches(search: str, name: str) -> bool:
    return folded(search.strip()) in folded(name)


def _ready(context: Context, actor: Actor) -> None:
    policy.check_admin(actor)
    context.read_after_own_writes(actor)


def leagues(context: Context, actor: Actor, search: str, page: int) -> Paged[ListedLeague]:
    _ready(context, actor)
    found = context.reader.leagues(None, SCANNED)[0]
    return _slice([league for league in found if _matches(search, league.name)], page, search)


@dataclass(frozen=True)
class TournamentRow:
    tournament: ListedTournament
    league: str  # its league's name


def tournaments(context: Context, actor: Actor, search: str, page: int) -> Paged[TournamentRow]:
    """The latest announced first."""
    _ready(context, actor)
    shown = SCANNED if search.strip() else page * PER_PAGE + 1
    found = context.reader.tournament_list(None, None, None, shown)[0]
    league_names = {league.league_id: league.name for league in context.reader.leagues(None, SCANNED)[0]}
    rows = [
        TournamentRow(tournament, league_names.get(tournament.league_id, short_id(tournament.league_id)))
        for tournament in found
        if _matches(search, tournament.name)
    ]
    return _slice(rows, page, search)


Load = Callable[[str | None, None, int], tuple[list[ListedPlayer], object]]


def _people(load: Load, search: str, page: int) -> Paged[ListedPlayer]:
    """Players or referees, searched by the read models."""
    found, more = load(search.strip() or None, None, page * PER_PAGE)
    start = (page - 1) * PER_PAGE
    return Paged(found[start:], page, more is not None, search)


def players(context: Context, actor: Actor, search: str, page: int) -> Paged[ListedPlayer]:
    _ready(context, actor)
    return _people(context.reader.players, search, page)


def referees(context: Context, actor: Actor, search: str, page: int) -> Paged[ListedPlayer]:
    _ready(context, actor)
    return _people(context.reader.referees, search, page)


@dataclass(frozen=True)
class Office:
    """A league's people: its members (a page of them) and its referees, by name."""

    league: League
    members: Paged[ListedPlayer]
    referees: list[ListedPlayer]


def office(context: Context, actor: Actor, league_id: UUID, search: str, page: int) -> Office:
    _ready(context, actor)
    league = aggregates.league(context, league_id)  # league_not_found
    members = [UUID(person) for person in context.reader.people_of(league_id, "member")]
    names = context.reader.names(members)
    listed = sorted(
        (ListedPlayer(player_id=member, name=names.get(member, short_id(member))) for member in members),
        key=lambda person: (folded(person.name), person.player_id),
    )
    appointed = [UUID(person) for person in context.reader.people_of(league_id, "referee")]
    referee_names = context.reader.referee_names(appointed)
    referees = sorted(
        (ListedPlayer(player_id=one, name=referee_names.get(one, short_id(one))) for one in appointed),
        key=lambda person: (folded(person.name), person.player_id),
    )
    matching = [member for member in listed if _matches(search, member.name)]
    return Office(league=league, members=_slice(matching, page, search), referees=referees)


@dataclass(frozen=True)
class InvitationRow:
    invitation_id: UUID
    made_at: datetime
    expires_at: datetime
    uses: int
    used: int
    state: str  # open, used_up, expired, revoked


def _state(invitation: Invitation, now: datetime) -> str:
    if invitation.revoked:
        return "revoked"
    if invitation.uses_left <= 0:
        return "used_up"
    return "expired" if now >= invitation.expires_at else "open"


def invitations_of(
    context: Context, actor: Actor, league_id: UUID, page: int, now: datetime
) -> tuple[League, Paged[InvitationRow]]:
    """A league's invitations, the newest first (without their codes)."""
    _ready(context, actor)
    league = aggregates.league(context, league_id)
    rows = [
        InvitationRow(
            invitation_id=made.id,
            made_at=made.created_on,
            expires_at=made.expires_at,
            uses=made.uses,
            used=len(made.redeemed_by),
            state=_state(made, now),
        )
        for made in reversed(invitations.invitations_of(context, actor, league_id))
    ]
    return league, _slice(rows, page, "")
