"""Disputes: raise one (the game pauses) and give a referee's ruling on it."""

from uuid import UUID

from service.application.core import Outcome, caused
from service.application.games import Games
from service.domain.adjudication import Ruling
from service.domain.errors import RuleError
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.roles import SYSTEM, Actor


class Disputes(Games):
    def raise_dispute(
        self,
        game_id: UUID | str,
        *,
        reason: str = "",
        about: int | None = None,
        by: Actor = SYSTEM,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """Pause the game at once: every move is refused with ``game_paused`` until a ruling."""
        cause = caused(by, "RaiseDispute", key, reason, about)
        return self._change(
            game_id, cause, expected_version, lambda game, cause: game.raise_dispute(cause, reason, about)
        )

    def give_ruling(
        self,
        game_id: UUID | str,
        ruling: Ruling,
        *,
        note: str = "",
        by: Actor,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """A referee's ruling on the open dispute: ``Resume()``, ``Penalty(seat, cards)`` or ``Void(n)``."""
        cause = caused(by, "GiveRuling", key, ruling, note)

        def rule(game: Game, cause: Cause) -> None:
            if game.league_id is not None and by.role == "referee":
                self._check_league_referee(game.league_id, by)
            game.give_ruling(ruling, cause, note, lambda number: self.game_at(game.id, number))

        return self._change(game_id, cause, expected_version, rule)

    def _check_league_referee(self, league_id: UUID, by: Actor) -> None:
        if by.id not in self.get_league(league_id).referees:
            raise RuleError("not_allowed", why="league_rulings")
