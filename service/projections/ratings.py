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
from service.projections.fold import Tracked
from service.projections.store import Changes, Views


def rated_seats(tracked: Tracked) -> list[tuple[str, int, bool]]:
    """The players' seats of a finished match: (player id, place, clock-played), in seat order."""
    game = tracked.game
    result = game.result()  # as standings count it: a seat that forfeited by clock scores the worst
    lowest = game.ruleset.match_winner == "lowest_total"
    placed = places(list(result.totals), result.winners, lowest, result.out_round)
    ledger = tracked.ledger
    clock_turns = [0] * len(game.seats)
    if ledger.timeouts:  # the facts in force only where a clock bot played at all: most matches none
        for mark in ledger.in_force().timeouts:
            clock_turns[mark.seat] += mark.count
    # no turns counted: a game folded before the ledger counted them, where any clock-bot turn
    # counts as most of the seat's (``maumau projections rebuild`` counts them)
    turns = ledger.turns or clock_turns
    return [
        (occupant.name, placed[seat], clock_played(clock_turns[seat], turns[seat]))
        for seat, occupant in enumerate(game.seats)
        if occupant.kind == "player"
    ]


class RatingsFold:
    """The ratings of the players met so far, and the rows each rated match adds to a batch."""

    def __init__(self, views: Views) -> None:
        self.views = views
        # (league, player): rating, matches; ids as text (as the seats hold players'), which hash
        # and write faster than UUIDs: a rebuild rates every match of the log
        self.known: dict[tuple[str, str], tuple[Rating, int]] = {}

    def fold(self, finished: Iterable[tuple[int, Tracked]], changes: Changes) -> None:
        """Rate these matches (position of the finishing event, game), in that order, into ``changes``."""
        matches: list[tuple[str, str, int, list[tuple[str, int, bool]]]] = []
        missing: dict[str, set[str]] = {}
        for position, tracked in finished:
            game = tracked.game
            if not game.over or tracked.ledger.rated or game.league_id is None:
                continue  # voided back before it was written: rated when it finishes again
            tracked.ledger.rated = True
            seats = rated_seats(tracked)
            if len(seats) < 2:
                continue
            league = str(game.league_id)
            matches.append((league, str(game.id), position, seats))
            for player, _, _ in seats:
                if (league, player) not in self.known:
                    missing.setdefault(league, set()).add(player)
        # the batch's players not met yet, read back in one query per league
        for league, players in missing.items():
            self._load(league, [(league, player) for player in players])
        touched: dict[tuple[str, str], None] = {}
        for league, game_id, position, seats in matches:
            self.rate_match(league, game_id, position, seats, changes.rating_history, touched)
        for key in touched:
            rating, rated = self.known[key]
            changes.ratings.append((*key, rating.mu, rating.sigma, rated))

    def rate_match(
        self,
        league: str,
        game_id: str,
        position: int,
        seats: list[tuple[str, int, bool]],
        history: list[tuple[Any, ...]],
        touched: dict[tuple[str, str], None],
    ) -> None:
        known = self.known  # every player of the batch is in it (``fold`` read them back)
        keys = [(league, player) for player, _, _ in seats]
        before = [known[key] for key in keys]
        after = rate(
            [rating for rating, _ in before],
            [place for _, place, _ in seats],
            [clocked for _, _, clocked in seats],
        )
        for key, (_, matches), new, (player, place, clocked) in zip(keys, before, after, seats, strict=True):
            known[key] = (new, matches + 1)
            touched[key] = None
            history.append((league, player, game_id, position, new.mu, new.sigma, place, int(clocked)))

    def _load(self, league: str, keys: list[tuple[str, str]]) -> None:
        if not keys:
            return
        stored = self.views.ratings_of(UUID(league), [UUID(player) for _, player in keys])
        for key in keys:
            found = stored.get(UUID(key[1]))
            self.known[key] = (Rating(), 0) if found is None else (Rating(found[0], found[1]), found[2])

    def forget(self) -> None:
        self.known = {}
