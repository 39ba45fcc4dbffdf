"""The webhooks: ``views_webhooks``, per webhook what the fold needs of it (``hooks.HookState``: its
league, events, players, whether it is enabled) to know which events make deliveries; and the
deliveries those events make (``deliveries``: ``views_deliveries``, ``views_attempts``), written
with the batch once each.

The deliveries are made from the games and tournaments as their folds left them after the event
(``GamesFold.folded``, ``TournamentsFold.folded``), a ``turn`` after a change to a game folded whole
(``GamesFold.turns``, at whichever event finds it whole, before that event changes a hook): the
webhooks are fed by those parts and go stale
with them. A rebuild keeps the deliveries and their attempts (their sending is recorded nowhere
else: ``aside``); a batch that folds a player's erasure rewrites the stored payloads naming them.
"""

from typing import Any, ClassVar

from service.domain.game import Game
from service.domain.league import Player
from service.domain.tournament import Tournament
from service.domain.webhook import Webhook
from service.persistence.dialect import Dialect
from service.projections import deliveries
from service.projections.hooks import HookFold
from service.projections.parts import WEBHOOKS
from service.projections.views import base
from service.projections.views.changes import TurnSettled
from service.projections.views.games import GamesFold
from service.projections.views.tournaments import TournamentsFold


def create(d: Dialect) -> list[str]:
    return [
        f"CREATE TABLE IF NOT EXISTS {d.table('webhooks')} (hook_id {d.uuid} PRIMARY KEY, "
        f"league_id {d.uuid} NOT NULL, state {d.blob} NOT NULL)",
        *deliveries.tables(d.table, d.uuid, d.blob, d.integer, d.real),
    ]


def statements(d: Dialect) -> dict[str, str]:
    return {
        "webhook": f"INSERT INTO {d.table('webhooks')} VALUES ({d.marks(3)}) "
        "ON CONFLICT (hook_id) DO UPDATE SET state = excluded.state",
        "webhook_states": f"SELECT state FROM {d.table('webhooks')}",
        **deliveries.statements(d.table, d.ph, d.holds),
    }


class WebhooksFold(base.Fold):
    part = WEBHOOKS
    tables = ("webhooks",)  # not the deliveries: a rebuild keeps them
    writes = ("webhook", "delivery")

    def __init__(self, folds: base.Folds) -> None:
        super().__init__(folds)
        self._games = folds.of(GamesFold)
        self._tournaments = folds.of(TournamentsFold)
        self.hooks = HookFold(folds.store.webhook_states(), folds.store.names)

    @property
    def hooks(self) -> HookFold:
        return self._hooks

    @hooks.setter
    def hooks(self, hooks: HookFold) -> None:
        self._hooks = hooks
        self._games.listen("webhooks", hooks.turns)

    def hook_event(self, event: Any, position: int) -> None:
        self.passing(event, position)  # a turn the log left before the hook changed is judged first
        self._hooks.hook_event(event)
        self._games.listen("webhooks", self._hooks.turns)

    def player_event(self, event: Any, position: int) -> None:
        self.passing(event, position)
        self._hooks.player_event(event)

    def passing(self, event: Any, position: int) -> None:
        """Any event: the turns of the changes it found whole (``changes``)."""
        made: list[base.Row] = []
        self._turns(self._games.turns(position), made)
        self.folds.changes.to("delivery").extend(made)

    def game_event(self, event: Any, position: int) -> None:
        if not self._hooks.leagues:  # no enabled hook: no delivery, of a turn or of the event
            return
        made: list[base.Row] = []  # kept only when the whole event is folded
        self._turns(self._games.turns(position), made)
        tracked = self._games.folded
        if tracked is not None and tracked.game.league_id in self._hooks.leagues:
            self._hooks.game_event(tracked.game, event, position, made)
        self.folds.changes.to("delivery").extend(made)

    def _turns(self, settled: list[TurnSettled], out: list[base.Row]) -> None:
        leagues = self._hooks.leagues
        for game, seat, event, position in settled:
            if game.league_id in leagues:
                self._hooks.turn(game, seat, event, position, out)

    def tournament_event(self, event: Any, position: int) -> None:
        self.passing(event, position)
        tracked = self._tournaments.folded
        if tracked is None or tracked.tournament.league_id not in self._hooks.leagues:
            return
        made: list[base.Row] = []
        self._hooks.tournament_event(tracked.tournament, event, position, made)
        self.folds.changes.to("delivery").extend(made)

    reads: ClassVar[base.Reads] = {
        Webhook.Registered: hook_event,
        Webhook.Event: hook_event,
        Player.Registered: player_event,
        Player.Renamed: player_event,
        Player.Erased: player_event,
        Game.Created: passing,  # a new game has no turn that changed; another game's change is whole
        Game.Event: game_event,
        Tournament.Announced: tournament_event,
        Tournament.Event: tournament_event,
        object: passing,
    }

    def flush(self, changes: base.Changes) -> None:
        self._turns(self._games.turns(None), changes.to("delivery"))  # the changes the flush found whole
        changes.to("webhook").extend(self._hooks.rows())


class Queries(base.Store):
    def webhook_states(self) -> list[bytes]:
        return [bytes(row[0]) for row in self.query("webhook_states", ())]

    @property
    def deliveries(self) -> deliveries.Deliveries:
        return deliveries.Deliveries(self)


VIEW = base.View(name="webhooks", create=create, statements=statements, fold=WebhooksFold)
