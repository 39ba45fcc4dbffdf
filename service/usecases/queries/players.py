"""A player's page: their games, their standing in each league, their next table, the tables they
score; to the player themselves, the browsers they are signed in on. The name a sign-in shows. A
player's games, ratings and next table as the API reads them."""

from dataclasses import dataclass, field
from uuid import UUID

import msgspec

from service.application import credentials
from service.domain.credential import Credential
from service.domain.errors import RuleError
from service.domain.league import Player
from service.domain.roles import Actor
from service.persistence.sessions import WebSession
from service.projections.models import (
    LeagueOfMine,
    ListedMaoMatch,
    NextGame,
    PlayedGame,
    PlayerHistory,
    PlayerRatingsRead,
    Standing,
)
from service.usecases.consistency import READ_WAIT_SECONDS, caught_up
from service.usecases.context import Context
from service.usecases.queries.leagues import time_zones


@dataclass(frozen=True)
class PlayerPage:
    player: Player
    history: PlayerHistory
    # each league of theirs: their row (None: not ranked yet) and how many in it have played
    standings: list[tuple[LeagueOfMine, Standing | None, int]]
    next_game: NextGame | None
    next_zone: str | None  # the time zone of their next table's tournament
    zones: dict[UUID | None, str]
    scoring: set[UUID]  # their games under way at a real table: each links its scorer's page
    mao_matches: list[ListedMaoMatch] = field(default_factory=list)  # the Mao matches they play now


MAO_MATCHES_SHOWN = 20  # per league: a member plays a few at a time


def player_page(context: Context, player_id: UUID) -> PlayerPage:
    player = context.app.get_player(player_id)
    reader = context.reader
    standings, mao_matches = [], []
    for league in reader.leagues_of(str(player_id), "member"):
        # a league of another ruleset has none: the read model's index answers at once
        playing = reader.mao_games(league.league_id, "playing", None, MAO_MATCHES_SHOWN)[0]
        mao_matches += [m for m in playing if any(seat.entrant == str(player_id) for seat in m.seats)]
        found = reader.standings(league.league_id)
        row = next((r for r in found.rows if r.player_id == player_id), None) if found else None
        ranked = [r for r in found.rows if r.rank is not None] if found else []  # of those who played
        standings.append((league, row, len(ranked)))
    history, next_game = reader.history(player_id), reader.next_game(player_id)
    tournament = reader.tournament(next_game.tournament_id) if next_game else None
    leagues = [game.league_id for game in history.games] + ([tournament.league_id] if tournament else [])
    zones = time_zones(context, leagues)
    return PlayerPage(
        player=player,
        history=history,
        standings=standings,
        next_game=next_game,
        next_zone=zones[tournament.league_id] if tournament else None,
        zones=zones,
        scoring=tables_to_score(context, history.games),
        mao_matches=mao_matches,
    )


def tables_to_score(context: Context, games: list[PlayedGame]) -> set[UUID]:
    return {
        game.game_id
        for game in games
        if game.result == "playing" and context.current.table(game.game_id).in_person
    }


def open_sessions(context: Context, actor: Actor) -> list[WebSession]:
    """The actor's sessions but those of a revoked token (ended: their rows go at their next use)."""
    revoked = {c.id for c in credentials.tokens_of(context.app, actor.id) if c.revoked}
    return [found for found in context.sessions.of(actor) if found.credential_id not in revoked]


def name_of(context: Context, actor: Actor, credential_id: UUID | None) -> str:
    """The name a sign-in offer shows: a player's as it is now, else the token's."""
    if actor.role == "player":
        return context.app.get_player(UUID(actor.id)).name
    found = None if credential_id is None else credentials.find(context.app, credential_id)
    return "" if found is None else found.name


def _known(context: Context, player_id: UUID, after: int | None) -> None:
    """An unknown player is 404 player_not_found, not an empty answer; then the read models have
    applied ``after`` (a client's log position)."""
    context.app.get_player(player_id)
    caught_up(context.reader, after, context.app.recorder.max_notification_id)


def history(context: Context, player_id: UUID, after: int | None = None) -> PlayerHistory:
    _known(context, player_id, after)
    return context.reader.history(player_id)


def rating_history(context: Context, player_id: UUID, after: int | None = None) -> PlayerRatingsRead:
    _known(context, player_id, after)
    return context.reader.rating_history(player_id)


def next_game(context: Context, player_id: UUID, after: int | None = None) -> NextGame:
    _known(context, player_id, after)
    found = context.reader.next_game(player_id)
    if found is None:
        raise RuleError("next_game_not_found")
    if found.game_id is None:
        return found
    # the turn clock runs with every move, which notes no position: read from the game as it is now
    table = context.current.table(found.game_id)
    deadline = table.turn_deadline if table.turn == found.seat else None
    return msgspec.structs.replace(found, turn_deadline=deadline)


def player(context: Context, player_id: UUID) -> Player:
    """A player as stored (``player_not_found``)."""
    return context.app.get_player(player_id)


def referee(context: Context, referee_id: UUID) -> Credential:
    """A referee registered over HTTP (``referee_not_found``)."""
    return credentials.referee(context.app, referee_id)


@dataclass(frozen=True)
class Who:
    """Who a token speaks for (``GET /me``): a player's or referee's name and leagues; an admin's
    credential's name (None: the settings' token) and no leagues, as an admin officiates them all."""

    name: str | None
    leagues: list[LeagueOfMine]  # a player's: member of; a referee's: referees; by name
    position: int


def who(context: Context, actor: Actor, credential_id: UUID | None, after: int | None = None) -> Who:
    caught_up(context.reader, after, context.app.recorder.max_notification_id)
    position = context.reader.position()
    if actor.role == "player":
        name = _player_name(context, UUID(actor.id))
        leagues = context.reader.leagues_of(actor.id, "member")
    elif actor.role == "referee":
        name = referee(context, UUID(actor.id)).name
        leagues = context.reader.leagues_of(actor.id, "referee")
    else:
        name = None if credential_id is None else credentials.get(context.app, credential_id).name
        leagues = []
    return Who(name=name, leagues=leagues, position=position)


def _player_name(context: Context, player_id: UUID) -> str | None:
    """The player's name in the read models; a token used at once after registering may be ahead of
    them, so they are waited for (a few seconds at most) up to the log's head."""
    found = context.reader.names([player_id]).get(player_id)
    if found is None:
        context.reader.wait_for(context.app.recorder.max_notification_id() or 0, READ_WAIT_SECONDS)
        found = context.reader.names([player_id]).get(player_id)
    return found
