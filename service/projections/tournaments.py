"""Tournaments as the projection keeps them: the Tournament aggregate, folded from its events; the bracket.

The projection folds a tournament's events into the aggregate itself (each
event's ``mutate``), so the due times, results and ranking it shows are the
domain's own (``Tournament.due_at``, ``standings``), never computed a second
way. Between batches, and across restarts, the aggregate is kept in the
projection's table as a ``StoredTournament`` (``image``/``restore``).

``tournament_view`` draws the bracket with player names and the position left
empty (the reader fills them in when it answers); the HTTP layer draws a
tournament it has just changed the same way. ``seat_rows`` are each player's
seats at the tables of a round, which the next-game read looks up by player.
"""

from collections.abc import Iterator
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from service.domain.pairing import ranking_order
from service.domain.rating import last_standing
from service.domain.struct_from import struct_from
from service.domain.tournament import Tournament
from service.domain.tournament_entries import BOT_ENTRANT
from service.domain.tournament_plan import Plan
from service.domain.tournament_round import Round
from service.projections.models import (
    KeptResult,
    TournamentPlacing,
    TournamentRound,
    TournamentStatus,
    TournamentTable,
    TournamentView,
)


class TournamentImage(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a Tournament holds (the attributes ``Tournament.__init__`` makes)."""

    created_on: datetime
    modified_on: datetime
    league_id: UUID
    name: str
    ruleset_name: str
    options: dict[str, Any]
    plan: Plan
    entrants: tuple[str, ...]
    seed: str
    order: tuple[str, ...]
    planned_rounds: int
    started_at: datetime | None
    rounds: list[Round]
    ranking: tuple[str, ...]
    winners: tuple[str, ...]
    checked_in: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()
    cancelled: str = ""
    ratings: dict[str, float] = msgspec.field(default_factory=dict)


class StoredTournament(msgspec.Struct, frozen=True, kw_only=True):
    version: int
    created: int  # the log position of its Announced: lists are in the order tournaments were announced
    image: TournamentImage


_encode = msgspec.msgpack.Encoder().encode
_decode_stored = msgspec.msgpack.Decoder(StoredTournament).decode


# the attributes an image copies as they are (``created_on`` is the aggregate's own, set apart)
_COPIED = tuple(name for name in TournamentImage.__struct_fields__ if name != "created_on")


def image_of(tournament: Tournament) -> TournamentImage:
    fields = {name: getattr(tournament, name) for name in _COPIED}
    fields.update(options=dict(tournament.options), rounds=list(tournament.rounds))
    return TournamentImage(created_on=tournament.created_on, **fields)


def restore(tournament_id: UUID, version: int, image: TournamentImage) -> Tournament:
    tournament = object.__new__(Tournament)
    tournament.__base_init__(
        originator_id=tournament_id, originator_version=version, timestamp=image.created_on
    )
    for name in _COPIED:
        setattr(tournament, name, getattr(image, name))
    tournament.options = dict(image.options)
    tournament.rounds = list(image.rounds)
    return tournament


class TrackedTournament:
    """A tournament in the projection's memory; ``touched``: the rounds whose seats changed since the
    last write."""

    __slots__ = ("created", "touched", "tournament")

    def __init__(self, tournament: Tournament, created: int) -> None:
        self.tournament = tournament
        self.created = created
        self.touched: set[int] = set()

    @classmethod
    def announced(cls, event: Any, position: int) -> "TrackedTournament":
        return cls(event.mutate(None), position)

    def apply(self, event: Any) -> None:
        """Fold one stored Tournament event, which must be the tournament's next."""
        self.tournament = event.mutate(self.tournament)
        round_no = getattr(event, "round_no", None)
        if round_no is not None:
            self.touched.add(round_no)

    def image(self) -> bytes:
        tournament = self.tournament
        return _encode(
            StoredTournament(version=tournament.version, created=self.created, image=image_of(tournament))
        )

    @classmethod
    def restore(cls, tournament_id: UUID, data: bytes) -> "TrackedTournament":
        stored = _decode_stored(data)
        return cls(restore(tournament_id, stored.version, stored.image), stored.created)


def status_of(tournament: Tournament) -> TournamentStatus:
    if tournament.cancelled:
        return "cancelled"
    if tournament.finished:
        return "finished"
    return "running" if tournament.started else "announced"


def is_bot(entrant: str) -> bool:
    return entrant.startswith(BOT_ENTRANT)


def tournament_view(tournament: Tournament, position: int = 0) -> TournamentView:
    """The bracket: every round, table and result, and the ranking as the results stand.

    Players' names are left empty (bots are named by their entrant): the reader fills them in.
    """
    plan = tournament.plan
    entrants = tournament.order if tournament.started else tournament.entrants
    tie_breaks, rule = ranking_order(
        tournament.rules.match_winner == "lowest_total",
        tournament.format_unit.eliminates,
        plan.rating_tie_break,
        last_standing(tournament.rules),
    )
    # the plan's own fields (format, table size, clock, places, check-in, seeding) as announced
    return struct_from(
        TournamentView,
        plan,
        tournament_id=tournament.id,
        league_id=tournament.league_id,
        name=tournament.name,
        planned_rounds=(tournament.planned_rounds or None) if tournament.started else plan.rounds,
        status=status_of(tournament),
        starts_at=tournament.due_at(1) if tournament.started else plan.starts_at,
        entrants=list(entrants),
        rounds=[_round(tournament, played) for played in tournament.rounds],
        ranking=[_placing(placing, tournament.ratings) for placing in tournament.standings()],
        winners=list(tournament.winners),
        position=position,
        ruleset=tournament.ruleset_name,
        names={entrant: entrant if is_bot(entrant) else "" for entrant in (*entrants, *tournament.dropped)},
        tie_breaks=tie_breaks,
        rule=rule,
        check_in_opens=tournament.check_in_opens,
        checked_in=list(tournament.checked_in),
        dropped=list(tournament.dropped),
        cancelled=tournament.cancelled or None,
    )


def _round(tournament: Tournament, played: Round) -> TournamentRound:
    tables = []
    in_person = tournament.in_person_tables(played)
    for number, entrants in enumerate(played.tables):
        result = played.results.get(number)
        kept = played.kept.get(number)
        tables.append(
            TournamentTable(
                table=number,
                entrants=list(entrants),
                game_id=played.games.get(number),
                totals=None if result is None else list(result.totals),
                winners=[] if result is None else list(result.winners),
                finished=result is not None,
                timed_out=None if result is None else list(result.timed_out),
                forfeited=[] if result is None else list(result.forfeited),
                out_round=[] if result is None else list(result.out_round),
                abandoned=bool(tournament.cancelled) and number in played.games and result is None,
                in_person=number in in_person,
                kept=None
                if kept is None
                else KeptResult(totals=list(kept.totals), winners=list(kept.winners)),
                stand_ins=list(played.stand_ins.get(number, ())),
            )
        )
    return TournamentRound(
        round_no=played.round_no,
        due_at=tournament.due_at(played.round_no),
        tables=tables,
        byes=list(played.byes),
        out=list(played.out),
        finished=played.finished_at is not None,
        bye_points=played.bye_points if played.finished_at is not None else None,
    )


def _placing(placing: Any, ratings: dict[str, float]) -> TournamentPlacing:
    return TournamentPlacing(
        rank=placing.rank if placing.played else None,
        entrant=placing.entrant,
        name=placing.entrant if is_bot(placing.entrant) else "",
        points=placing.points,
        wins=placing.wins,
        tables=placing.tables,
        byes=placing.byes,
        bot_turns=placing.bot_turns,
        opponents=placing.opponents,
        stage=placing.stage,
        forfeits=placing.forfeits,
        dropped=placing.dropped,
        rating=ratings.get(placing.entrant),
    )


def seat_rows(tracked: TrackedTournament, rounds: set[int]) -> Iterator[tuple[Any, ...]]:
    """Each player's seat at the tables of these rounds: (entrant, tournament, round, table, seat, game,
    finished), the table's game once made, finished once its result is recorded."""
    tournament = tracked.tournament
    for round_no in sorted(rounds):
        played = tournament.rounds[round_no - 1]
        for number, entrants in enumerate(played.tables):
            game_id = played.games.get(number)
            finished = int(number in played.results)
            for seat, entrant in enumerate(entrants):
                if not is_bot(entrant):
                    yield (entrant, tournament.id, round_no, number, seat, game_id, finished)
