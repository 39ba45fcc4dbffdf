"""League ratings: pure functions over openskill's Plackett-Luce model (``docs/ratings.md``).

Plackett-Luce is the model openskill's documentation recommends by default and for
games of more than two sides: each finished match is one ranking of its seats, however
many (2 to 6 here). Every rating starts at openskill's defaults (mu 25, sigma 25/3).

- A match's placing comes from its result (``places``): the winning seats share place 1,
  the others follow by their totals in the ruleset's direction, equal totals sharing a
  place (competition ranking: 1, 2, 2, 4).
- Only players' seats are rated (a bot holding a place has no rating); a match with
  fewer than two players' seats changes no rating.
- The clock-bot rule (``clock_played``, ``rate``): a seat whose turns the clock bot
  played more than half of is placed last (sharing last with any other such seat), and
  its player's rating is not raised by the match: when the update would raise the mean
  or the conservative value, the player keeps the rating they had.
- The conservative value shown is ``ordinal = mu - 3 * sigma``; a rating is provisional
  until ``PROVISIONAL_MATCHES`` matches are rated.
"""

from collections.abc import Sequence

import msgspec
from openskill.models import PlackettLuce

PROVISIONAL_MATCHES = 5  # a rating is provisional until this many matches are rated
MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma


class Rating(msgspec.Struct, frozen=True, array_like=True):
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative value shown: the skill is very likely (3 sigma) above it."""
        return self.mu - 3 * self.sigma


def provisional(matches: int) -> bool:
    return matches < PROVISIONAL_MATCHES


def places(totals: Sequence[int], winners: Sequence[int], lowest_wins: bool) -> list[int]:
    """Each seat's place (1 is best): winners share 1, then by total, equal totals sharing a place."""
    sign = 1 if lowest_wins else -1
    keys = [(0 if seat in winners else 1, sign * total) for seat, total in enumerate(totals)]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def clock_played(clock_turns: int, turns: int) -> bool:
    """The clock bot played more than half of the seat's turns."""
    return 2 * clock_turns > turns


def rate(ratings: Sequence[Rating], placed: Sequence[int], clocked: Sequence[bool]) -> list[Rating]:
    """The seats' ratings after a match in which they took these places (ties share a place).

    ``clocked``: the seats the clock bot mostly played (the clock-bot rule above).
    """
    if len(ratings) < 2:
        return list(ratings)
    if not any(clocked):
        teams = MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings], ranks=list(placed))
        return [Rating(team[0].mu, team[0].sigma) for team in teams]
    last = len(placed) + 1
    ranks = [last if clock else place for place, clock in zip(placed, clocked, strict=True)]
    teams = MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings], ranks=ranks)
    after = []
    for old, (new_rating,), clock in zip(ratings, teams, clocked, strict=True):
        new = Rating(new_rating.mu, new_rating.sigma)
        if clock and (new.mu > old.mu or new.ordinal > old.ordinal):
            new = old
        after.append(new)
    return after
