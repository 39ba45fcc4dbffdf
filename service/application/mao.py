"""Mao matches: create one in a Mao league, act at its table, read it back.

Each change takes the application's one act path (``Core._act``, as a card game's move does):
it loads the match, decides the command (``MaoGame.do``), recycles the stock if it ran out
(``autoplay.settle_chance``) and saves it all in one go; a save that meets another command's is
decided again from what is stored, where a request sent twice finds what it stored. A bot's turn
is an act of its own (``mao_bot_turn``), which the workers play after the save that left a bot on
turn, as they play a card game's bots (``followups``, ``workers.conduct``). Chance comes from
``secrets`` (the deals' and recycles' orders are stored in their events).
"""

import random
from collections.abc import Callable, Sequence
from uuid import UUID

from eventsourcing.domain import Aggregate

from service.application.core import Played, _uuid
from service.application.leagues import Leagues
from service.domain.cards import FULL_DECK
from service.domain.errors import RuleError
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.mao.aggregate import BOT_PREFIX, MaoGame
from service.domain.mao.autoplay import SERVER_BY, bot_turn, check_bot, settle_chance
from service.domain.mao.commands import SERVER, Command, DealRound, StartMatch
from service.domain.mao.events import Event
from service.domain.mao.league import MAO
from service.domain.roles import SYSTEM, Actor


def shuffled_deck(rng: random.Random) -> DealRound:
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return DealRound(tuple(deck))


class MaoGames(Leagues):
    def create_mao_game(
        self,
        league_id: UUID | str,
        seats: Sequence[str],
        judge: str,
        first_dealer: int | None = None,
        judge_seat: int | None = None,
    ) -> MaoGame:
        """A match at these seats (players of the league, bots), its first rule the teaching rule.

        With the server as judge the first round is dealt at once; a human judge (the league's
        referees, and the player at ``judge_seat`` if given: a judge who plays) may first write
        another rule, then deals."""
        league = self.get_league(league_id)
        if league.ruleset_name != MAO:
            raise RuleError("not_a_mao_league")
        if judge != SERVER and judge_seat is None and not league.referees:
            raise RuleError("no_referee")
        names = tuple(self._seat_name(league.members, seat) for seat in seats)
        players = [name for name in names if not name.startswith(BOT_PREFIX)]
        if len(set(players)) != len(players):
            raise RuleError("player_seated_twice", why="player_hold_seat")
        rng = random.SystemRandom()
        game = MaoGame.start(league.id, names, judge, judge_seat)
        if first_dealer is None:
            first_dealer = rng.randrange(len(names)) if names else 0
        # the league's options are the match's own (``mao.league`` checked them when it was founded)
        start = StartMatch(seats=len(names), first_dealer=first_dealer, judge=judge, **league.options)
        game.do(start, SERVER_BY)
        if judge == SERVER:
            game.do(shuffled_deck(rng), SERVER_BY)
        self._save_game(game, Cause(SYSTEM, "StartMatch"))  # a bot to lead: the workers are told
        return game

    def _seat_name(self, members: Sequence[UUID], seat: str) -> str:
        if seat.startswith(BOT_PREFIX):
            check_bot(seat)
            return seat
        player_id = _uuid(seat, "player_not_found")
        if player_id not in members:
            self.get_player(player_id).check_not_erased()  # 404 for nobody at all, 410 for the erased
            raise RuleError("not_a_member", why="every_player_table")
        return str(player_id)

    def get_mao_game(self, game_id: UUID | str) -> MaoGame:
        return self._get(MaoGame, game_id, "game_not_found", why=MaoGame.not_found)

    def get_any_game(self, game_id: UUID | str) -> Played:
        """A card game or a Mao match, by its id alone (the workers' steps are told an id)."""
        found = self._get(Aggregate, game_id, "game_not_found")
        if not isinstance(found, Game | MaoGame):
            raise RuleError("game_not_found")
        return found

    def mao_do(
        self,
        game_id: UUID | str,
        command_of: Callable[[MaoGame, random.Random], Command],
        by: Actor,
        key: str | None = None,
        digest: str = "",
    ) -> tuple[MaoGame, list[Event], int]:
        """Decide the command ``command_of`` makes from the match as stored, through the one act path
        (``Core._act``): the match as saved, the facts it and the server's moves after it recorded and
        the index of the first. A request sent again with its idempotency ``key`` (and the same
        ``digest``) is not decided again: the facts it recorded the first time."""

        def change(game: MaoGame, cause: Cause) -> None:
            rng = random.SystemRandom()
            game.do(command_of(game, rng), asker(cause.actor), cause.key, cause.digest)
            settle_chance(game, rng)

        game, outcome = self._act(MaoGame, game_id, Cause(by, "MaoAct", key, digest), None, change)
        first, facts = game.facts_of(outcome.events)
        return game, facts, first

    def mao_bot_turn(self, game_id: UUID | str, expected_version: int) -> MaoGame:
        """The turn of the bot on turn at the match as it was at ``expected_version`` (the workers'
        step); ``not_your_turn`` when no bot is, ``stale_version`` when it changed meanwhile."""

        def change(game: MaoGame, cause: Cause) -> None:
            bot_turn(game, random.SystemRandom())

        return self._act(MaoGame, game_id, Cause(SYSTEM, "MaoBotTurn"), expected_version, change)[0]


def asker(actor: Actor) -> str:
    """Who asked, as a decision stores it: "role:id", or the server."""
    return SERVER_BY if actor.role == "system" else f"{actor.role}:{actor.id}"
