"""A person's notifications: which kinds they hear of (a table ready, a round starting, their move,
a dispute ruled) and how (by e-mail, in the browser), chosen on their own page; what is stored is
``service.persistence.notices``', what is made of the log ``service.projections.views.notices``'.

Refusals: ``forbidden`` (another's choice), ``malformed_request`` (a kind or way the page does not
offer: a forged form), ``invalid_email`` (not one address; mail without an address, or on a service
that sends none). A refused choice changes nothing.
"""

from uuid import UUID

import msgspec

from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.persistence.notices import BROWSER, CHANNELS, KINDS, MAIL, Notice, Prefs
from service.usecases import mail
from service.usecases.context import Context


class NoticeChoice(msgspec.Struct, frozen=True, kw_only=True):
    kinds: tuple[str, ...] = ()
    channels: tuple[str, ...] = ()
    email: str = ""
    language: str = "en"  # the page's: the mails are written in it


def _own(actor: Actor, player_id: UUID) -> None:
    if actor.role != "player" or actor.id != str(player_id):
        raise RuleError("forbidden", why="player_chooses_notices")


def notice_choice(context: Context, actor: Actor, player_id: UUID) -> Prefs:
    """What the person chose (nothing, until they choose)."""
    _own(actor, player_id)
    return context.notices.prefs(str(player_id))


def choose_notices(context: Context, actor: Actor, player_id: UUID, data: NoticeChoice) -> Prefs:
    """Store the person's choice, whole: what is not chosen is not sent."""
    _own(actor, player_id)
    for kind in data.kinds:
        if kind not in KINDS:
            raise RuleError("malformed_request", why="choose_list", name=kind)
    for channel in data.channels:
        if channel not in CHANNELS:
            raise RuleError("malformed_request", why="choose_list", name=channel)
    email = data.email.strip()
    if email:
        email = mail.checked_address(email)
    if MAIL in data.channels:
        if not mail.mails(context.settings):
            raise RuleError("invalid_email", why="no_mail")
        if not email:
            raise RuleError("invalid_email", why="mail_needs_address")
    prefs = Prefs(
        kinds=tuple(kind for kind in KINDS if kind in data.kinds),
        channels=tuple(channel for channel in CHANNELS if channel in data.channels),
        email=email,
        language=data.language,
    )
    context.notices.choose(str(player_id), prefs)
    return prefs


def notices_head(context: Context) -> int:
    """Where a person's stream opened now starts: the log position the read models, and so the
    notices, are written up to; those made after it are news."""
    return context.reader.views.position()


def browser_notices(context: Context, actor: Actor, after: int) -> list[Notice]:
    """The signed-in player's own fresh notices after the position ``after``, while they chose the
    browser (none otherwise: what is not chosen is not sent)."""
    if actor.role != "player":
        raise RuleError("forbidden", why="player_chooses_notices")
    if BROWSER not in context.notices.prefs(actor.id).channels:
        return []
    return context.notices.after(actor.id, after)
