"""A player's page: their games, their standing in each league, their next table; to the player
themselves, the browsers they are signed in on, each with a button that ends it."""

from typing import Annotated, Any
from uuid import UUID

import anyio.to_thread
from litestar import Controller, Request, get, post
from litestar.params import Parameter
from litestar.response import Redirect, Template

from service.application import credentials
from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.persistence.sessions import WebSession
from service.usecases.services import Services
from service.web.params import PlayerId
from service.web.render import page_for
from service.web.scorer import tables_to_score
from service.web.session import checked_form, current_session, sign_out, signed_in_actor
from service.web.zones import league_zones

SessionId = Annotated[UUID, Parameter(description="a session's id, as the player's page lists it")]


def _player(services: Services, player_id: UUID) -> dict[str, Any]:
    player = services.app.get_player(player_id)
    reader = services.reader
    standings = []
    for league in reader.leagues_of(str(player_id), "member"):
        found = reader.standings(league.league_id)
        row = next((r for r in found.rows if r.player_id == player_id), None) if found else None
        ranked = [r for r in found.rows if r.rank is not None] if found else []  # of those who played
        standings.append((league, row, len(ranked)))
    history, next_game = reader.history(player_id), reader.next_game(player_id)
    tournament = reader.tournament(next_game.tournament_id) if next_game else None
    leagues = [game.league_id for game in history.games] + ([tournament.league_id] if tournament else [])
    return {
        "player": player,
        "history": history,
        "standings": standings,
        "next_game": next_game,
        "next_zone": league_zones(services, leagues)[tournament.league_id] if tournament else None,
        "zones": league_zones(services, leagues),
        "scoring": tables_to_score(services, history.games),
    }


def _open_sessions(services: Services, actor: Actor) -> list[WebSession]:
    """The player's sessions but those of a revoked token (ended: their rows go at their next use)."""
    revoked = {c.id for c in credentials.tokens_of(services.app, actor.id) if c.revoked}
    return [found for found in services.sessions.of(actor) if found.credential_id not in revoked]


def _own_page(actor: Actor | None, player_id: UUID) -> bool:
    return actor is not None and actor.role == "player" and actor.id == str(player_id)


class PlayerPage(Controller):
    path = "/web/players"
    include_in_schema = False

    @get("/{player_id:uuid}", name="web-player")
    async def player(self, request: Request[Any, Any, Any], player_id: PlayerId) -> Template:
        page = await page_for(request)
        services: Services = request.app.state.services
        found = await anyio.to_thread.run_sync(_player, services, player_id)
        sessions = None
        if _own_page(page.actor, player_id):
            sessions = await anyio.to_thread.run_sync(_open_sessions, services, page.actor)
        return page.render("player.html", **found, sessions=sessions, this_session=current_session(request))

    @post("/{player_id:uuid}/sessions/{session_id:uuid}/end", name="web-player-session-end", status_code=303)
    async def end_session(
        self, request: Request[Any, Any, Any], player_id: PlayerId, session_id: SessionId
    ) -> Redirect:
        """The player ends one of their sessions; ending this browser's own signs it out."""
        await checked_form(request)
        actor = await signed_in_actor(request)
        if actor is None:
            raise RuleError("unauthorized", "sign in to end a session")
        if not _own_page(actor, player_id):
            raise RuleError("forbidden", "only the player ends their own sessions")
        if session_id == current_session(request):
            await sign_out(request)
            return Redirect("/", status_code=303)
        services: Services = request.app.state.services
        if not await anyio.to_thread.run_sync(services.sessions.end, session_id, actor.id):
            raise RuleError("session_not_found", "no such session of yours: it has ended already")
        return Redirect(f"/web/players/{player_id}", status_code=303)
