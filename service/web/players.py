"""A player's page: their games, their standing in each league, their next table; to the player
themselves, the browsers they are signed in on, each with a button that ends it."""

from typing import Annotated, Any, TypeGuard
from uuid import UUID

import anyio.to_thread
from litestar import Controller, Request, get, post
from litestar.params import Parameter
from litestar.response import Redirect, Template

from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.usecases import players
from service.usecases.queries.players import open_sessions, player_page
from service.usecases.services import Services
from service.web.params import PlayerId
from service.web.render import page_for
from service.web.session import checked_form, current_session, sign_out, signed_in_actor

SessionId = Annotated[UUID, Parameter(description="a session's id, as the player's page lists it")]


def _own_page(actor: Actor | None, player_id: UUID) -> TypeGuard[Actor]:
    return actor is not None and actor.role == "player" and actor.id == str(player_id)


class PlayerPage(Controller):
    path = "/web/players"

    @get("/{player_id:uuid}", name="web-player")
    async def player(self, request: Request[Any, Any, Any], player_id: PlayerId) -> Template:
        page = await page_for(request)
        services: Services = request.app.state.services
        found = await anyio.to_thread.run_sync(player_page, services, player_id)
        sessions = None
        if _own_page(page.actor, player_id):
            sessions = await anyio.to_thread.run_sync(open_sessions, services, page.actor)
        return page.render(
            "player.html", **vars(found), sessions=sessions, this_session=current_session(request)
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
