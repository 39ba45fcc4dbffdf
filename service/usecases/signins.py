"""Signing in without a token: by league, name and password, or with a one-time sign-in link.

Both answer a new token for the browser (the pages keep it in their session), whom it speaks for
decided by the password or the link. Wrong ones count as guesses per client address with the
invitations' counter (``invitations.refusals_of``, ``MAUMAU_REDEEM_REFUSALS`` a minute): a
password per league, a link per link. Over the limit a password is not even tried (the guesser
learns nothing more); a link, whose secret cannot be guessed, is answered as it stands when right.

Who may make a link: an admin, a referee of a league the player is a member of ("I lost my
access"), or the player themself (another device of theirs). It works once, for
``MAUMAU_SIGNIN_LINK_MINUTES``.
"""

from datetime import UTC, datetime, timedelta
from uuid import UUID

import msgspec

from service.application import credentials, signins
from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.domain.signin_link import parse_code
from service.usecases.context import Context, write, write_joining
from service.usecases.invitations import refusals_of


class PasswordSignIn(msgspec.Struct, frozen=True, kw_only=True):
    league_id: UUID
    name: str
    password: str


class SignedIn(msgspec.Struct, frozen=True, kw_only=True):
    """A token made for the browser that signed in (shown to nobody: the session keeps it)."""

    issued: credentials.Issued

    @property
    def writer(self) -> Actor:
        return Actor("player", self.issued.subject)


class LinkMade(msgspec.Struct, frozen=True, kw_only=True):
    code: str  # shown this once, as the link
    player_id: UUID
    name: str
    expires_at: datetime


@write_joining
def sign_in_with_password(context: Context, data: PasswordSignIn, address: str) -> SignedIn:
    """The member of the league called ``data.name`` whose password it is; else ``unauthorized``
    (``password_not_valid``) whatever was wrong, the name or the password."""
    counter = refusals_of(context)
    counter.check(address, data.league_id, why="password")
    try:
        player = signins.password_holder(context.app, data.league_id, data.name, data.password)
    except RuleError as refused:
        if refused.code != "league_not_found":
            raise
        player = None
    if player is None:
        counter.count(address, data.league_id, why="password")
        raise RuleError("unauthorized", why="password_not_valid")
    return SignedIn(issued=signins.signed_in_by_password(context.app, player))


def check_may_make_link(context: Context, actor: Actor, player_id: UUID) -> None:
    """An admin; the player themself; a referee of a league the player is a member of."""
    if actor.role == "admin" or (actor.role == "player" and actor.id == str(player_id)):
        return
    if actor.role == "referee" and actor.id in signins.referees_for(context.app, player_id):
        return
    raise RuleError("forbidden", why="signin_link_makers")


@write
def make_signin_link(context: Context, actor: Actor, player_id: UUID) -> LinkMade:
    """A one-time sign-in link for the player (its code shown this once)."""
    check_may_make_link(context, actor, player_id)
    expires_at = datetime.now(UTC) + timedelta(minutes=context.settings.signin_link_minutes)
    link, code = signins.make_link(context.app, player_id, f"{actor.role}:{actor.id}", expires_at)
    name = context.app.get_player(player_id).name
    return LinkMade(code=code, player_id=link.player_id, name=name, expires_at=link.expires_at)


def _counted(context: Context, code: str, address: str, refused: RuleError) -> None:
    if refused.code == "signin_link_not_found":
        try:
            link_id = parse_code(code)[0]
        except RuleError:
            return  # not shaped like a link: nothing to guess at
        refusals_of(context).count(address, link_id, why="signin_link")


def link_holder(context: Context, code: str, address: str) -> str:
    """The name of whom the link would sign in; the link checked (a wrong one counted), not spent."""
    try:
        return signins.link_holder(context.app, code).name
    except RuleError as refused:
        _counted(context, code, address, refused)
        raise


@write_joining
def use_signin_link(context: Context, code: str, address: str) -> SignedIn:
    """Spend the link: a new token for its player's browser."""
    try:
        return SignedIn(issued=signins.use_link(context.app, code))
    except RuleError as refused:
        _counted(context, code, address, refused)
        raise


@write
def choose_password(context: Context, actor: Actor, player_id: UUID, password: str) -> None:
    """A player chooses their password (or another) from their own page; an admin may set one."""
    if actor.role != "admin" and not (actor.role == "player" and actor.id == str(player_id)):
        raise RuleError("forbidden", why="player_acts_themself")
    signins.choose_password(context.app, player_id, password)
