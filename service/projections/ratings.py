"""League ratings as a read model: each finished match folded into its players' ratings, once.

The rating update is ``domain.rating`` (pure); this module feeds it the matches in the
order they finished in the log and turns its answers into rows (``views_ratings``,
``views_rating_history``) written in the projection's batch, with its tracking
position, so a match is rated exactly once and a rebuild rates the same matches in
the same order.

A match is rated at its first finish (``Ledger.rated``). A ruling that later voids
back into it and changes its result does not rate it again: the ratings after it were
already built on the first result (``docs/ratings.md``).
"""

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from service.domain.rating import Rating, clock_played, places, rate
from service.projections.fold import Facts, Tracked
from service.projections.store import Changes, Views


def rated_seats(tracked: Tracked, facts: Facts) -> list[tuple[UUID, int, bool]]:
    """The players' seats of a finished match: (player, place, clock-played), in seat order."""
    game = tracked.game
    s = game.state
    placed = places(s.totals, s.winners, game.ruleset.match_winner == "lowest_total")
    turns = tracked.ledger.turns
    clock_turns = [0] * len(game.seats)
    for mark in facts.timeouts:
        clock_turns[mark.seat] += mark.count
    return [
        (
            UUID(occupant.name),
            placed[seat],
            clock_played(clock_turns[seat], turns[seat] if turns else 0),
        )
        for seat, occupant in enumerate(game.seats)
        if occupant.kind == "player"
    ]


class RatingsFold:
    """The ratings of the players met so far, and the rows each rated match adds to a batch."""

    def __init__(self, views: Views) -> None:
        self.views = views
        self.known: dict[tuple[UUID, UUID], tuple[Rating, int]] = {}  # (league, player): rating, matches

    def fold(self, finished: Iterable[tuple[int, Tracked]], changes: Changes) -> None:
        """Rate these matches (position of the finishing event, game), in that order, into ``changes``."""
        touched: dict[tuple[UUID, UUID], None] = {}
        for position, tracked in finished:
            game = tracked.game
            if not game.over or tracked.ledger.rated or game.league_id is None:
                continue  # voided back before it was written: rated when it finishes again
            tracked.ledger.rated = True
            seats = rated_seats(tracked, tracked.ledger.in_force())
            if len(seats) < 2:
                continue
            self.rate_match(game.league_id, game.id, position, seats, changes.rating_history, touched)
        for key in touched:
            rating, matches = self.known[key]
            changes.ratings.append((*key, rating.mu, rating.sigma, matches))

    def rate_match(
        self,
        league: UUID,
        game_id: UUID,
        position: int,
        seats: list[tuple[UUID, int, bool]],
        history: list[tuple[Any, ...]],
        touched: dict[tuple[UUID, UUID], None],
    ) -> None:
        keys = [(league, player) for player, _, _ in seats]
        self._load(league, [key for key in keys if key not in self.known])
        before = [self.known[key] for key in keys]
        after = rate(
            [rating for rating, _ in before],
            [place for _, place, _ in seats],
            [clocked for _, _, clocked in seats],
        )
        for key, (_, matches), new, (player, place, clocked) in zip(keys, before, after, seats, strict=True):
            self.known[key] = (new, matches + 1)
            touched[key] = None
            history.append((league, player, game_id, position, new.mu, new.sigma, place, int(clocked)))

    def _load(self, league: UUID, keys: list[tuple[UUID, UUID]]) -> None:
        if not keys:
            return
        stored = self.views.ratings_of(league, [player for _, player in keys])
        for key in keys:
            found = stored.get(key[1])
            self.known[key] = (Rating(), 0) if found is None else (Rating(found[0], found[1]), found[2])

    def forget(self) -> None:
        self.known = {}
