"""A tournament's lifecycle, as use cases of the application: edit it before the start, check in,
drop out while it runs, cancel it (abandoning its games in play). ``docs/tournaments.md`` tells the
rules; ``service.domain.tournament`` and ``service.domain.game`` decide, these load and save.

A mixin of ``service.application.MauMau``, kept in a module of its own while the service layer is
being split into a package (it belongs beside "start a tournament" in the tournaments module there).
"""

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from service.domain.errors import RuleError
from service.domain.game import Cause, Game
from service.domain.roles import SYSTEM, Actor
from service.domain.tournament import Tournament, checked_reason

if TYPE_CHECKING:
    from service.application import MauMau, Outcome


class TournamentLifecycle:
    def edit_tournament(
        self: "MauMau",
        tournament_id: UUID | str,
        name: str | None = None,
        changes: dict[str, Any] | None = None,
    ) -> None:
        """A new name and plan values (``tournament.EDITABLE``) before the start."""
        self._change_tournament(tournament_id, lambda tournament: tournament.edit(name, changes))

    def check_in_tournament(
        self: "MauMau", tournament_id: UUID | str, player_id: UUID | str, now: datetime | None = None
    ) -> None:
        """The entrant will play: in the plan's check-in window, before the start."""
        entrant = str(self.get_player(player_id).id)
        at = now or datetime.now(UTC)
        self._change_tournament(tournament_id, lambda tournament: tournament.check_in(entrant, at))

    def drop_out_of_tournament(self: "MauMau", tournament_id: UUID | str, player_id: UUID | str) -> None:
        """The entrant leaves a running swiss or round robin: later rounds pair without them (their
        turns in a game in play are the clock bot's: ``workers.conduct``)."""
        entrant = str(self.get_player(player_id).id)
        self._change_tournament(tournament_id, lambda tournament: tournament.drop(entrant))

    def cancel_tournament(
        self: "MauMau", tournament_id: UUID | str, reason: str, *, by: Actor = SYSTEM
    ) -> list[UUID]:
        """Cancel the tournament, abandoning first the games of its round in play that have not
        ended (they count for nobody); the games abandoned.

        Checked before anything is stored. Should the process stop between the games and the
        cancellation, the same request again finishes it: a game abandoned already is passed over.
        """
        tournament = self.get_tournament(tournament_id)
        tournament.check_cancellable()
        reason = checked_reason(reason)
        abandoned = []
        for game_id in _in_play(tournament):
            try:
                self.abandon_game(game_id, reason, by=by)
            except RuleError as error:
                # a game that ended meanwhile keeps its result; one abandoned before stays so
                if error.code not in ("game_over", "game_abandoned"):
                    raise
                continue
            abandoned.append(game_id)
        self._change_tournament(tournament.id, lambda tournament: tournament.cancel(reason))
        return abandoned

    def abandon_game(self: "MauMau", game_id: UUID | str, reason: str, *, by: Actor = SYSTEM) -> "Outcome":
        """Call the match off unfinished: ``Abandoned``; every later command is refused with
        ``game_abandoned``."""

        def abandon(game: Game, cause: Cause) -> None:
            game.abandon(reason, cause)

        return self._change(game_id, Cause(by, "AbandonGame"), None, abandon)


def _in_play(tournament: Tournament) -> list[UUID]:
    """The games of the round being played whose result is not recorded, by table."""
    current = tournament.current_round
    if current is None:
        return []
    return [game for table, game in sorted(current.games.items()) if table not in current.results]
