"""Mao matches in the read models: their league's standings and the league's list of matches.

A ``MaoGame`` is not a card ``Game``: its events are ``MaoGame.Started`` (the league and the
seats) and ``MaoGame.Decided`` (each command's facts). A decision that deals, ends a round or
ends the match changes the match's list row (``Listed``); one holding ``MatchEnded`` adds to the
standings. That decision holds the match's last ``RoundEnded`` too (``mao.game`` ends both at
once), whose number is the rounds played. Mao scores no points: a round won is the points
column's one point (docs/standings.md). Bots' seats count for nobody.
"""

from collections.abc import Callable
from typing import Any, Literal
from uuid import UUID

import msgspec

from service.domain.mao.aggregate import BOT_PREFIX, MaoGame
from service.domain.mao.events import MatchEnded, RoundDealt, RoundEnded
from service.projections.standings import STATS

MaoStatus = Literal["playing", "over"]

# a match as it was at a version, read back from the event store when it is not in memory
MatchAt = Callable[[UUID, int], MaoGame]


class Listed(msgspec.Struct, kw_only=True):
    """A match's list row as the projection keeps it (its document, stored as msgpack)."""

    game_id: UUID
    league_id: UUID
    status: MaoStatus
    round_no: int  # the rounds dealt so far
    seats: tuple[str, ...]  # a player's id, or a bot's name
    wins: tuple[int, ...]  # rounds won, per seat
    winner: int | None  # the match's winning seat, once it is over

    @classmethod
    def of(cls, match: MaoGame) -> "Listed":
        s = match.state
        return cls(
            game_id=match.id,
            league_id=match.league_id,
            status="over" if s.winner >= 0 else "playing",
            round_no=s.round_no,
            seats=tuple(match.seats),
            wins=tuple(s.wins) or (0,) * len(match.seats),
            winner=s.winner if s.winner >= 0 else None,
        )


def is_mao(event_type: type) -> bool:
    return issubclass(event_type, (MaoGame.Started, MaoGame.Decided))


def started(event: Any) -> Listed:
    seats = tuple(event.seats)
    return Listed(
        game_id=event.originator_id,
        league_id=event.league_id,
        status="playing",
        round_no=0,
        seats=seats,
        wins=(0,) * len(seats),
        winner=None,
    )


# the facts that change a match's list row (and, the last, the standings)
LISTED = (RoundDealt, RoundEnded, MatchEnded)


def changes_list(event: Any) -> bool:
    return any(isinstance(fact, LISTED) for fact in event.facts)


def decided(listed: Listed, event: MaoGame.Decided) -> None:
    """Fold a decision's deals and ends into the list row."""
    for fact in event.facts:
        match fact:
            case RoundDealt():
                listed.round_no = fact.round_no
            case RoundEnded():
                listed.wins = fact.wins
            case MatchEnded():
                listed.status, listed.winner = "over", fact.winner
            case _:
                pass  # the row shows no other kind (a kind it shows belongs in LISTED too)


def match_rows(seats: tuple[str, ...], event: Any, dealt: int) -> list[tuple[UUID, list[int]]]:
    """Each seated player's STATS from a decision that ended the match; none if it did not.
    ``dealt``: the rounds dealt, each played once the match is over (a seat's forfeit ends the one
    in play, or ends the match between rounds: ``mao.game.end_by_forfeit``)."""
    ended = next((fact for fact in event.facts if isinstance(fact, MatchEnded)), None)
    if ended is None:
        return []
    rounds = max((fact.round_no for fact in event.facts if isinstance(fact, RoundEnded)), default=dealt)
    rows = []
    for seat, seated in enumerate(seats):
        if seated.startswith(BOT_PREFIX):
            continue
        won = ended.wins[seat]
        stats = dict.fromkeys(STATS, 0)
        stats.update(
            matches_played=1,
            matches_won=int(ended.winner == seat),
            rounds_played=rounds,
            rounds_won=won,
            points=won,
        )
        rows.append((UUID(seated), [stats[name] for name in STATS]))
    return rows
