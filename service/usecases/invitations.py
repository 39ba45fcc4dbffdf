"""Invitations: an admin makes one for a league; a person redeems it for a name and a token.

``docs/members.md`` tells the whole story. The code is shown once, when the invitation is made
(only its hash is stored); a listing never holds it. Redeeming needs no token: the code is the
permission. Only a wrong secret counts as a try at guessing: once a client address sent
``MAUMAU_REDEEM_REFUSALS`` wrong secrets for one invitation within a minute, its further wrong ones
are refused ``too_many_attempts`` instead of ``invitation_not_found``, in each process. A right
code is answered as it stands (a welcome, used up, expired, revoked) whatever was counted, so a
crowd redeeming a code at once, or people sharing an address with a guesser, are never locked out.
"""

import re
import threading
import time
import weakref
from collections import OrderedDict, deque
from datetime import UTC, datetime
from typing import Annotated, Literal
from uuid import UUID

import msgspec

from service.application.invitations import Welcome
from service.domain.errors import RuleError
from service.domain.invitation import CODE_PATTERN, MAX_USES, Invitation, parse_code
from service.domain.roles import Actor
from service.usecases import policy
from service.usecases.context import Context, write, write_joining
from service.usecases.fields import Name, ranged

CODE_EXAMPLE = "inv_6e2a9c417b3d4f85a1c92d4e6f8b0a13_Vq3Jx9kQ2mZ7rT4wB8nY1cF6hL0sD5gP3aE9uK2oXjM"
Code = Annotated[
    str,
    msgspec.Meta(
        pattern=CODE_PATTERN,
        description="the invitation's code as it was handed out",
        examples=[CODE_EXAMPLE],
    ),
]


class InvitationCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The ranges are the rules' (422 ``invalid_uses``, ``invalid_expiry`` outside them)."""

    expires_at: Annotated[
        datetime,
        msgspec.Meta(
            description="when it stops working, with a time zone: after now, within 366 days",
            examples=["2026-12-31T23:59:00Z"],
        ),
    ]
    uses: Annotated[int, ranged(1, MAX_USES, 10, "how many people may join with it")] = 1


class Redemption(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    code: Code
    name: Name


WINDOW = 60.0  # seconds in which wrong secrets are counted
Guessed = Literal["invitation", "password", "signin_link"]  # what a wrong secret was a guess at


def _too_many(guessed: Guessed) -> RuleError:
    match guessed:
        case "invitation":
            return RuleError("too_many_attempts")
        case "password":
            return RuleError("too_many_attempts", why="password")
        case "signin_link":
            return RuleError("too_many_attempts", why="signin_link")


class Refusals:
    """Wrong secrets per client address and invitation in the last ``window`` seconds, in this process."""

    def __init__(self, limit: int, window: float = WINDOW) -> None:
        self.limit = limit
        self.window = window
        # the least recently counted first, so the ones out of the window are forgotten from the front
        self._times: OrderedDict[tuple[str, UUID], deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def count(self, address: str, invitation_id: UUID, why: Guessed = "invitation") -> None:
        """One more wrong secret; ``too_many_attempts`` (not counted) once ``limit`` were in the window.

        ``invitation_id`` names what was guessed at: an invitation, a sign-in link, a league's
        passwords (``why`` then picks the refusal's sentence)."""
        if self.limit <= 0:
            return
        now = time.monotonic()
        with self._lock:
            recent = self._recent(address, invitation_id, now)
            if len(recent) >= self.limit:
                raise _too_many(why)
            recent.append(now)
            self._times.move_to_end((address, invitation_id))

    def check(self, address: str, key: UUID, why: Guessed = "invitation") -> None:
        """``too_many_attempts`` while ``limit`` wrong secrets are in the window, counting nothing: a
        password is checked so before it is tried, so a guesser over the limit learns nothing."""
        if self.limit <= 0:
            return
        now = time.monotonic()
        with self._lock:
            recent = self._times.get((address, key), ())
            if sum(1 for moment in recent if moment > now - self.window) >= self.limit:
                raise _too_many(why)

    def _recent(self, address: str, key: UUID, now: float) -> deque[float]:
        """The times counted for ``address`` and ``key`` within the window (the older forgotten)."""
        while self._times and next(iter(self._times.values()))[-1] <= now - self.window:
            self._times.popitem(last=False)
        recent = self._times.setdefault((address, key), deque())
        while recent and recent[0] <= now - self.window:
            recent.popleft()
        return recent


# one count per running app (its context), made at its first wrong secret
_refusals: "weakref.WeakKeyDictionary[Context, Refusals]" = weakref.WeakKeyDictionary()
_refusals_made = threading.Lock()


def refusals_of(context: Context) -> Refusals:
    with _refusals_made:
        found = _refusals.get(context)
        if found is None:
            found = _refusals[context] = Refusals(context.settings.redeem_refusals)
        return found


@write
def make_invitation(
    context: Context, actor: Actor, league_id: UUID, data: InvitationCreate
) -> tuple[Invitation, str]:
    """A new invitation to the league, and its code (shown this once)."""
    policy.check_admin(actor)
    return context.app.make_invitation(league_id, data.expires_at, data.uses, actor.id)


def invitations_of(context: Context, actor: Actor, league_id: UUID) -> list[Invitation]:
    """A league's invitations, oldest first, spent ones too, without their codes."""
    policy.check_admin(actor)
    return context.app.invitations_of(league_id)


@write
def revoke_invitation(context: Context, actor: Actor, invitation_id: UUID) -> None:
    policy.check_admin(actor)
    context.app.revoke_invitation(invitation_id, actor.id)


class Joined(msgspec.Struct, frozen=True, kw_only=True):
    welcome: Welcome

    @property
    def writer(self) -> Actor:
        return Actor("player", str(self.welcome.player_id))


@write_joining
def redeem_invitation(
    context: Context, data: Redemption, address: str, password: str | None = None
) -> Joined:
    """A person (from client ``address``) joins the league with a code and a name of their choosing,
    and, on the join page, the password they will sign in with (``service.domain.password``)."""
    try:
        return Joined(welcome=context.app.redeem_invitation(data.code, data.name, password))
    except RuleError as refused:
        # a wrong secret (or no such invitation) is a guess; used up, revoked, a taken name are not
        if refused.code == "invitation_not_found":
            refusals_of(context).count(address, parse_code(data.code)[0])
        raise


class InvitationShown(msgspec.Struct, frozen=True, kw_only=True):
    """What the join page shows of an invitation that may be redeemed now (never its code)."""

    league_id: UUID
    league: str
    expires_at: datetime


def invitation_to(context: Context, code: str, address: str) -> InvitationShown:
    """The league an invitation's code joins, checked as its redemption checks it (a wrong secret is
    counted as one), and not redeemed: what a person sees on opening the link."""
    try:
        invitation_id, secret = parse_code(code)
        invitation = context.app.get_invitation(invitation_id)
        invitation.check_redeemable(secret, datetime.now(UTC))
    except RuleError as refused:
        if refused.code == "invitation_not_found" and re.fullmatch(CODE_PATTERN, code):
            refusals_of(context).count(address, parse_code(code)[0])
        raise
    league = context.app.get_league(invitation.league_id)
    return InvitationShown(league_id=league.id, league=league.name, expires_at=invitation.expires_at)
