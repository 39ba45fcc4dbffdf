"""Mao matches in their league's standings: what a finished match adds, per player seated.

A ``MaoGame`` is not a card ``Game``: its events are ``MaoGame.Started`` (the league and the
seats) and ``MaoGame.Decided`` (each command's facts). Only a decision holding ``MatchEnded``
changes the standings; the same decision holds the match's last ``RoundEnded`` (``mao.game``
ends both at once), whose number is the rounds played. Mao scores no points: a round won is
the points column's one point (docs/standings.md). Bots' seats count for nobody.
"""

from collections.abc import Callable
from typing import Any
from uuid import UUID

from service.domain.mao.aggregate import BOT_PREFIX, MaoGame
from service.domain.mao.events import MatchEnded, RoundEnded
from service.projections.standings import STATS

# a match's league and seats, read back from the event store when its start is not in memory
SeatsOf = Callable[[UUID], tuple[UUID, tuple[str, ...]]]


def is_mao(event_type: type) -> bool:
    return issubclass(event_type, (MaoGame.Started, MaoGame.Decided))


def match_rows(seats: tuple[str, ...], event: Any) -> list[tuple[UUID, list[int]]]:
    """Each seated player's STATS from a decision that ended the match; none if it did not."""
    ended = next((fact for fact in event.facts if isinstance(fact, MatchEnded)), None)
    if ended is None:
        return []
    rounds = max((fact.round_no for fact in event.facts if isinstance(fact, RoundEnded)), default=0)
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
