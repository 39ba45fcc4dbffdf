"""People's notices, made from the log as the games and tournaments were folded: a person hears of
what they chose on their page (``service.persistence.notices``: the kinds and channels):

| kind             | made from                                                                 |
|------------------|---------------------------------------------------------------------------|
| ``table_ready``  | ``Tournament.TableGameCreated``: each person seated at that table          |
| ``round_starting`` | ``Tournament.RoundFinished`` when a round follows: each entrant still in,  |
|                  | with the time the next round is due (``starts_at``, UTC)                   |
| ``your_move``    | a change to a game (its events folded whole) after which a person's seat is |
|                  | to move and was not before (not a seat that forfeited, nor a player's who  |
|                  | dropped out of the game's tournament: a bot plays their turns at once)     |
| ``dispute_ruled``| ``Game.RulingGiven``: each person seated at the game                       |

A Mao match makes two (``mao_game_id`` in place of ``game_id``: the words and the link are the Mao
play page's): ``table_ready`` of its ``MaoGame.Started`` for each person seated, and ``your_move`` of
a change to the match (folded whole: ``MaoFold``) after which a person's seat is on turn (play going
on, not paused) and was not before it; never the secret rule nor a card.

The notices are written with the batch (``INSERT ... ON CONFLICT DO NOTHING``, ids from the
position, the kind and the person), only for the people who chose that kind: the choices are read in
one query per batch that made any candidate (a choice counts from the next batch on). Like the
webhooks, they go stale with the games and tournaments they are made from. The table is not among
the fold's ``tables``: a rebuild keeps the live one, and folds into a store aside that holds no
choice, so this fold makes no notice there, nor a candidate for one (``aside``); one made again
anyway would be older than ``FRESH``: neither streamed nor mailed. A notice's data is public: ids,
names, numbers, times; never a card.
"""

from datetime import datetime, timedelta
from typing import Any, ClassVar
from uuid import UUID, uuid5

from service.domain.game import Game
from service.domain.mao.aggregate import MaoGame
from service.domain.tournament import Tournament
from service.domain.tournament_entries import BOT_ENTRANT
from service.persistence import notices
from service.persistence.dialect import Dialect
from service.projections.parts import WEBHOOKS
from service.projections.views import base
from service.projections.views.changes import TurnSettled
from service.projections.views.games import GamesFold
from service.projections.views.mao import MaoFold
from service.projections.views.tournaments import TournamentsFold

_NOTICES = uuid5(UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8"), "https://maumau.invalid/notices")


def create(d: Dialect) -> list[str]:
    return notices.notice_tables(d)  # not among the fold's ``tables``: a rebuild keeps it


def statements(d: Dialect) -> dict[str, str]:
    return notices.notice_statements(d)


def next_round_at(tournament: Tournament, finished: datetime) -> datetime:
    """When the round after one that finished at ``finished`` is due (``tournament_schedule.due_at``'s
    rule, for a round not paired yet)."""
    assert tournament.started_at is not None
    base_at = tournament.started_at
    if tournament.plan.starts_at is not None:
        base_at = min(tournament.plan.starts_at, base_at)
    if tournament.plan.interval is None:
        return finished
    return max(base_at + timedelta(seconds=tournament.plan.interval * len(tournament.rounds)), finished)


class NoticesFold(base.Fold):
    part = WEBHOOKS  # fed by the games and tournaments, as the webhooks are
    tables = ()  # none a rebuild replaces
    writes = ("notice",)

    def __init__(self, folds: base.Folds) -> None:
        super().__init__(folds)
        self._games = folds.of(GamesFold)
        self._tournaments = folds.of(TournamentsFold)
        self._matches = folds.of(MaoFold)
        self._made: list[tuple[str, str, dict[str, Any], datetime, int]] = []
        # a rebuild's store holds no choice: every candidate would be dropped, so a rebuild reads no
        # event here (``base.Fold.active``) and follows no turn for the notices
        self.active = not folds.store.aside
        self._games.listen("notices", self.active)
        self._matches.listen("notices", self.active)

    def _for(self, player: str, kind: str, data: dict[str, Any], event: Any, position: int) -> None:
        if not player.startswith(BOT_ENTRANT):
            self._made.append((player, kind, data, event.timestamp, position))

    def passing(self, event: Any, position: int) -> None:
        """Any event: the turns of the changes it found whole (``changes``)."""
        self._your_moves(self._games.turns(position))
        self._mao_moves(self._matches.turns(position))

    def game_event(self, event: Any, position: int) -> None:
        self.passing(event, position)
        tracked = self._games.folded
        if tracked is None or not isinstance(event, Game.RulingGiven):
            return
        game = tracked.game
        data = {"game_id": str(game.id), "event_number": event.originator_version, "dispute": event.dispute}
        for seat in game.seats:
            if seat.kind == "player":
                self._for(seat.name, notices.DISPUTE_RULED, data, event, position)

    def _your_moves(self, settled: list[TurnSettled]) -> None:
        for game, seat, event, position in settled:
            data = {"game_id": str(game.id), "event_number": event.originator_version, "seat": seat}
            self._for(game.seats[seat].name, notices.YOUR_MOVE, data, event, position)

    def tournament_event(self, event: Any, position: int) -> None:
        self.passing(event, position)
        tracked = self._tournaments.folded
        if tracked is None:
            return
        tournament = tracked.tournament
        head = {
            "tournament_id": str(tournament.id),
            "tournament": tournament.name,
            "league_id": str(tournament.league_id),  # its time zone: a mail's time
        }
        if isinstance(event, Tournament.TableGameCreated):
            played = tournament.rounds[event.round_no - 1]
            table = head | {
                "round_no": event.round_no,
                "table": event.table + 1,
                "game_id": str(event.game_id),
            }
            for entrant in played.tables[event.table]:
                if entrant not in tournament.dropped:
                    self._for(entrant, notices.TABLE_READY, table, event, position)
        elif isinstance(event, Tournament.RoundFinished):
            following = tournament.planned_rounds == 0 or event.round_no < tournament.planned_rounds
            still_in = [entrant for entrant in tournament.active if entrant not in event.out]
            if not following or len(still_in) < 2:
                return
            starts = next_round_at(tournament, event.timestamp)
            data = head | {"round_no": event.round_no + 1, "starts_at": starts.isoformat()}
            for entrant in still_in:
                self._for(entrant, notices.ROUND_STARTING, data, event, position)

    def mao_started(self, event: Any, position: int) -> None:
        self.passing(event, position)
        match = self._matches.folded
        if match is None:
            return
        head = {"mao_game_id": str(match.id), "event_number": event.originator_version}
        for seat in range(len(match.seats)):
            if not match.is_bot(seat):
                self._for(match.seats[seat], notices.TABLE_READY, head, event, position)

    def mao_decided(self, event: Any, position: int) -> None:
        self.passing(event, position)

    def _mao_moves(self, settled: list[TurnSettled]) -> None:
        for match, seat, event, position in settled:
            data = {"mao_game_id": str(match.id), "event_number": event.originator_version, "seat": seat}
            self._for(match.seats[seat], notices.YOUR_MOVE, data, event, position)

    reads: ClassVar[base.Reads] = {
        Game.Created: passing,  # a new game's first turn comes with its deal; another game's change is whole
        Game.Event: game_event,
        Tournament.Announced: passing,
        Tournament.Event: tournament_event,
        MaoGame.Started: mao_started,
        MaoGame.Decided: mao_decided,
        MaoGame.SeatForfeited: mao_decided,  # it ends a change, as a person's act does
        object: passing,
    }

    def flush(self, changes: base.Changes) -> None:
        if not self.active:
            return
        self._your_moves(self._games.turns(None))  # the changes the games' and matches' flushes found whole
        self._mao_moves(self._matches.turns(None))
        made, self._made = self._made, []
        if not made:
            return
        # one query a batch for the choices of everyone it made a notice for: a choice counts at once
        chosen = notices.Notices(self.folds.store).prefs_of({player for player, *_ in made})
        rows = changes.to("notice")
        for player, kind, data, at, position in made:
            prefs = chosen.get(player)
            if prefs is None or kind not in prefs.kinds or not prefs.channels:
                continue
            mailed = notices.MAIL in prefs.channels and bool(prefs.email)
            created = at.timestamp()
            made_one = notices.Notice(
                notice_id=uuid5(_NOTICES, f"{player}:{position}:{kind}"),
                player_id=player,
                kind=kind,
                data=data,
                created=created,
                position=position,
                mail=notices.PENDING if mailed else notices.NONE,
                due=created,
            )
            rows.append(notices.row(made_one))

    def spoil(self, event: Any) -> None:
        # the notices of a batch that failed half way are made again when it is folded again
        self._made = []


class Queries(base.Store):
    @property
    def notices(self) -> notices.Notices:
        return notices.Notices(self)


VIEW = base.View(name="notices", create=create, statements=statements, fold=NoticesFold)
