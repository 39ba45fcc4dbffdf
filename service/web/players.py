"""A player's page: their games, their standing in each league, their next table; to the player
themselves, the browsers they are signed in on, each with a button that ends it, a one-time
sign-in link for another device of theirs (with its QR code), their password and their
notifications (which kinds, by e-mail and/or in the browser: ``usecases.notices``). An admin or a
referee sees the sign-in link's button too: a member who lost their access gets a new one so."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeGuard
from uuid import UUID

import anyio.to_thread
from litestar import Controller, Request, get, post
from litestar.params import Parameter
from litestar.response import Redirect, Template

from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.usecases import mail, notices, players, signins
from service.usecases.queries.players import open_sessions, player_page
from service.usecases.refusals import status_of
from service.usecases.services import Services
from service.web.params import PlayerId
from service.web.qr import qr_svg
from service.web.render import Page, page_for, public_base
from service.web.session import checked_form, current_session, sign_out, signed_in_actor

SessionId = Annotated[UUID, Parameter(description="a session's id, as the player's page lists it")]


def _own_page(actor: Actor | None, player_id: UUID) -> TypeGuard[Actor]:
    return actor is not None and actor.role == "player" and actor.id == str(player_id)


async def _player_page(
    request: Request[Any, Any, Any], page: Page, player_id: UUID, status: int = 200, **shown: Any
) -> Template:
    services: Services = request.app.state.services
    found = await anyio.to_thread.run_sync(player_page, services, player_id)
    sessions = chosen = None
    if _own_page(page.actor, player_id):
        sessions = await anyio.to_thread.run_sync(open_sessions, services, page.actor)
        chosen = await anyio.to_thread.run_sync(notices.notice_choice, services, page.actor, player_id)
    answer = page.render(
        "player.html",
        **vars(found),
        sessions=sessions,
        this_session=current_session(request),
        notices=chosen,
        mails=mail.mails(services.settings),
        may_link=page.actor is not None and (sessions is not None or page.actor.role in ("admin", "referee")),
        **shown,
    )
    answer.status_code = status
    return answer


def _notice_choice(form: dict[str, str], page: Page) -> notices.NoticeChoice:
    # a box ticked is a field named after its kind or way; the use case refuses one it does not know
    return notices.NoticeChoice(
        kinds=tuple(name.removeprefix("kind_") for name in form if name.startswith("kind_")),
        channels=tuple(name.removeprefix("channel_") for name in form if name.startswith("channel_")),
        email=form.get("email", ""),
        language=page.language,
    )


@dataclass(frozen=True)
class _Chosen:
    """A choice of the player's own posted on their page: the use case, and its input from the form."""

    use_case: Callable[[Services, Actor, UUID, Any], object]
    read: Callable[[dict[str, str], Page], object]

    async def answer(self, request: Request[Any, Any, Any], player_id: UUID, **saved: Any) -> Template:
        form = await checked_form(request)
        page = await page_for(request)
        if page.actor is None:
            raise RuleError("unauthorized", why="sign_in_first")
        services: Services = request.app.state.services
        data = self.read(form, page)
        try:
            await anyio.to_thread.run_sync(self.use_case, services, page.actor, player_id, data)
        except RuleError as refused:
            return await _player_page(request, page, player_id, status_of(refused.code), refusal=refused)
        return await _player_page(request, page, player_id, **saved)


class PlayerPage(Controller):
    path = "/web/players"

    @get("/{player_id:uuid}", name="web-player")
    async def player(self, request: Request[Any, Any, Any], player_id: PlayerId) -> Template:
        return await _player_page(request, await page_for(request), player_id)

    @post("/{player_id:uuid}/signin-link", name="web-player-signin-link", status_code=200)
    async def signin_link(self, request: Request[Any, Any, Any], player_id: PlayerId) -> Template:
        """A one-time sign-in link for the player, shown this once with its QR code."""
        await checked_form(request)
        page = await page_for(request)
        if page.actor is None:
            raise RuleError("unauthorized", why="sign_in_first")
        services: Services = request.app.state.services
        try:
            made = await anyio.to_thread.run_sync(signins.make_signin_link, services, page.actor, player_id)
        except RuleError as refused:
            return await _player_page(request, page, player_id, status_of(refused.code), refusal=refused)
        link = f"{public_base(request)}/signin/link/{made.code}"
        qr = qr_svg(link)
        return await _player_page(request, page, player_id, handed=made, link=link, qr=qr)

    @post("/{player_id:uuid}/password", name="web-player-password", status_code=200)
    async def password(self, request: Request[Any, Any, Any], player_id: PlayerId) -> Template:
        """The player chooses their password (or another)."""
        chosen = _Chosen(signins.choose_password, lambda form, page: form.get("password", ""))
        return await chosen.answer(request, player_id, password_saved=True)

    @post("/{player_id:uuid}/notices", name="web-player-notices", status_code=200)
    async def choose_notices(self, request: Request[Any, Any, Any], player_id: PlayerId) -> Template:
        """The player chooses which notifications they get, and how (their whole choice, each time)."""
        return await _Chosen(notices.choose_notices, _notice_choice).answer(
            request, player_id, notices_saved=True
        )

    @post("/{player_id:uuid}/sessions/{session_id:uuid}/end", name="web-player-session-end", status_code=303)
    async def end_session(
        self, request: Request[Any, Any, Any], player_id: PlayerId, session_id: SessionId
    ) -> Redirect:
        """The player ends one of their sessions; ending this browser's own signs it out."""
        await checked_form(request)
        actor = await signed_in_actor(request)
        if actor is None:
            raise RuleError("unauthorized", why="sign_end_session")
        if _own_page(actor, player_id) and session_id == current_session(request):
            await sign_out(request)
            return Redirect("/", status_code=303)
        services: Services = request.app.state.services
        await anyio.to_thread.run_sync(players.end_session, services, actor, player_id, session_id)
        return Redirect(f"/web/players/{player_id}", status_code=303)
