"""The eventsourcing Application: players, leagues, tournaments, games and disputes, stored.

One Application (its name names the tables) built from one mixin per concept on top of
``Core``, the machinery they share; ``core``'s docstring tells what a change to a game is.
"""

from service.application.core import GameCache, Outcome, project
from service.application.disputes import Disputes
from service.application.games import MATCH_LENGTH_OPTIONS, Games, Shuffle
from service.application.invitations import Invitations
from service.application.leagues import Leagues
from service.application.mao import MaoGames
from service.application.players import Players
from service.application.tournaments import Tournaments
from service.application.webhooks import Webhooks
from service.domain.game import Game

__all__ = ["MATCH_LENGTH_OPTIONS", "GameCache", "MauMau", "Outcome", "Shuffle", "project"]


class MauMau(Tournaments, Disputes, Games, MaoGames, Invitations, Webhooks, Leagues, Players):
    name = "maumau"
    snapshotting_intervals = {Game: 50}  # noqa: RUF012  (eventsourcing's class-level setting)

    snapshotting_projectors = {Game: project}  # noqa: RUF012
