"""Signing in without a token: a player's password, and one-time sign-in links, stored in the
application's event store.

Both end in a new token for the browser (``credentials.issue``): the pages' session keeps a bearer
token (``service.web.session``), so a password or a link only decides whom that token is for. A
password is looked up by league and name (a name is unique among a league's members when people
join by invitation; an admin may admit two of one name, and then the password tells them apart).
"""

from datetime import UTC, datetime
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from service.application import MauMau, credentials, project
from service.application.saving import retried
from service.domain.league import Player
from service.domain.names import display_key
from service.domain.password import Password, password_id, spend_a_check
from service.domain.signin_link import SignInLink, parse_code


def _now() -> datetime:
    return datetime.now(UTC)


def find_password(app: MauMau, player_id: UUID) -> Password | None:
    try:
        found = app.repository.get(password_id(player_id), projector_func=project)
    except AggregateNotFoundError:  # no password chosen yet
        return None
    return found if isinstance(found, Password) else None


def choose_password(app: MauMau, player_id: UUID, password: str) -> None:
    """The player's password from now on (their first, or another)."""

    def attempt() -> None:
        player = app.get_player(player_id)
        player.check_not_erased()
        found = find_password(app, player.id)
        if found is None:
            app.save(Password.choose(player.id, password))
        else:
            found.change(password)
            app.save(found)

    retried(attempt)


def password_holder(app: MauMau, league_id: UUID, name: str, password: str) -> Player | None:
    """The member of the league called ``name`` whose password this is; None when none is (no such
    member, no password, a wrong one: not told apart, and as slow)."""
    league = app.get_league(league_id)
    key = display_key(name.strip())
    checked = False
    for member in league.members:
        player = app.get_player(member)
        if player.erased or display_key(player.name) != key:
            continue
        found = find_password(app, player.id)
        if found is None:
            continue
        checked = True
        if found.accepts(password):
            return player
    if not checked:
        spend_a_check(password)
    return None


def signed_in_by_password(app: MauMau, player: Player) -> credentials.Issued:
    """A new token for the browser the player signed in on with their password."""
    return credentials.issue(app, "player", str(player.id), player.name)


def make_link(app: MauMau, player_id: UUID, made_by: str, expires_at: datetime) -> tuple[SignInLink, str]:
    """A new one-time sign-in link for the player, and its code (shown this once)."""
    player = app.get_player(player_id)
    player.check_not_erased()
    link, code = SignInLink.make(player.id, made_by, expires_at)
    app.save(link)
    return link, code


def get_link(app: MauMau, link_id: UUID) -> SignInLink:
    return app._get(SignInLink, link_id, "signin_link_not_found")


def link_holder(app: MauMau, code: str) -> Player:
    """Whom the link would sign in, checked but not spent (what its page shows before the button)."""
    link_id, secret = parse_code(code)
    link = get_link(app, link_id)
    link.check_usable(secret, _now())
    return app.get_player(link.player_id)


def use_link(app: MauMau, code: str) -> credentials.Issued:
    """Spend the link and issue a token for its player, in one transaction: two uses at once both
    record ``Used`` at one version, the store keeps one, the other is decided again (used)."""
    link_id, secret = parse_code(code)

    def attempt() -> credentials.Issued:
        link = get_link(app, link_id)
        link.use(secret, _now())
        player = app.get_player(link.player_id)
        player.check_not_erased()
        return credentials.issue(app, "player", str(player.id), player.name, None, link)

    return retried(attempt)


def referees_for(app: MauMau, player_id: UUID) -> set[str]:
    """The referees of every league the player is a member of now: who may make them a link."""
    return {
        referee
        for league in app._leagues_of(player_id)
        if player_id in league.members
        for referee in league.referees
    }
