"""League ratings: pure functions over openskill's Plackett-Luce model (``docs/ratings.md``).

Plackett-Luce is the model openskill's documentation recommends by default and for
games of more than two sides: each finished match is one ranking of its seats, however
many (2 to 6 here). Every rating starts at openskill's defaults (mu 25, sigma 25/3).

- A match's placing comes from its result (``places``): the winning seats share place 1;
  where seats were eliminated (101, faraon) those still in come next, then the eliminated,
  the later out the better; then the totals in the ruleset's direction decide, equal
  seats sharing a place (competition ranking: 1, 2, 2, 4).
- Only players' seats are rated (a bot holding a place has no rating); a match with
  fewer than two players' seats changes no rating.
- The clock-bot rule (``clock_played``, ``rate``): a seat whose turns the clock bot
  played more than half of is placed last (sharing last with any other such seat), and
  its player's rating is not raised by the match: when the update would raise the mean
  or the conservative value, the player keeps the rating they had.
- The conservative value shown is ``ordinal = mu - 3 * sigma``; a rating is provisional
  until ``PROVISIONAL_MATCHES`` matches are rated.

The update itself (``plackett_luce``) is openskill's ``PlackettLuce.rate`` for teams of one
with the model's defaults, step for step in the same floating-point order, so its answers
are exactly openskill's (``tests/unit/test_rating.py`` compares them on many matches) without
the objects openskill makes per call (it deep-copies the ratings and draws a uuid4 for each
player): a rebuild rates every match of the log (``bench/ratings.py``).
"""

import math
from bisect import bisect_left
from collections.abc import Sequence

import msgspec
from openskill.models import PlackettLuce

from service.domain.rulesets import Ruleset

PROVISIONAL_MATCHES = 5  # a rating is provisional until this many matches are rated
MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma
_BETA_SQUARED = MODEL.beta**2
_TAU_SQUARED = MODEL.tau * MODEL.tau
_KAPPA = MODEL.kappa
_STILL_IN = 1 << 30  # an out_round later than any round: a seat still in places before those out


class Rating(msgspec.Struct, frozen=True, array_like=True):
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative value shown: the skill is very likely (3 sigma) above it."""
        return self.mu - 3 * self.sigma


def provisional(matches: int) -> bool:
    return matches < PROVISIONAL_MATCHES


def last_standing(rules: Ruleset) -> bool:
    """The match is won by the last seat not eliminated (101, faraon), not by the best total."""
    return not rules.single_round and (rules.elimination_total is not None or rules.shrinking_hands)


def places(
    totals: Sequence[int], winners: Sequence[int], lowest_wins: bool, out_round: Sequence[int] = ()
) -> list[int]:
    """Each seat's place (1 is best): winners share 1; then the seats still in the match, then those
    eliminated, the later out the better (``out_round``: per seat, the round at whose end it went
    out, 0 still in; empty: nobody out); then by total; equal on all sharing a place."""
    sign = 1 if lowest_wins else -1
    keys = [
        (0 if seat in winners else 1, -(out_round[seat] or _STILL_IN) if out_round else 0, sign * total)
        for seat, total in enumerate(totals)
    ]
    ordered = sorted(keys)
    return [1 + bisect_left(ordered, key) for key in keys]  # 1 + the seats placed strictly better


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
        return plackett_luce(ratings, placed)
    last = len(placed) + 1
    ranks = [last if clock else place for place, clock in zip(placed, clocked, strict=True)]
    after = []
    for old, new, clock in zip(ratings, plackett_luce(ratings, ranks), clocked, strict=True):
        after.append(old if clock and (new.mu > old.mu or new.ordinal > old.ordinal) else new)
    return after


def plackett_luce(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """openskill's ``PlackettLuce().rate([[r] for r in ratings], ranks=ranks)``, each seat a team of one.

    Every sum runs in openskill's order (the seats sorted by rank, a stable sort) and every
    expression keeps its operands and grouping, so each float comes out bit for bit the same.
    Where openskill multiplies by a team's weight (1.0) or by a player's share of the team's
    variance (its own: exactly 1.0) nothing is done here; its averaging of tied seats' changes
    in ``_compute`` reads the ratings it has just updated in place, so it changes nothing.
    """
    n = len(ranks)
    order = sorted(range(n), key=ranks.__getitem__)
    ranked = [ranks[i] for i in order]
    mus = [ratings[i].mu for i in order]
    sigmas = [math.sqrt(ratings[i].sigma * ratings[i].sigma + _TAU_SQUARED) for i in order]
    squared = [sigma**2 for sigma in sigmas]
    collective = 0.0
    for value in squared:
        collective += value + _BETA_SQUARED
    c = math.sqrt(collective)
    exp = math.exp
    exps = [exp(mu / c) for mu in mus]
    # openskill's sum_q: for each seat q, the exps of the seats ranked no better, in order
    sum_q = [0.0] * n
    for i in range(n):
        for q in range(n):
            if ranked[i] >= ranked[q]:
                sum_q[q] += exps[i]
    a = [ranked.count(rank) for rank in ranked]
    c_squared = c**2
    after: list[Rating] = [Rating()] * n
    for i in range(n):
        omega = 0.0
        delta = 0.0
        rank_i = ranked[i]
        exp_i = exps[i]
        for q in range(n):
            share = exp_i / sum_q[q]
            if ranked[q] <= rank_i:
                delta += share * (1 - share) / a[q]
                if q == i:
                    omega += (1 - share) / a[q]
                else:
                    omega -= share / a[q]
        sigma_squared = squared[i]
        omega *= sigma_squared / c
        delta *= sigma_squared / c_squared
        delta *= math.sqrt(sigma_squared) / c
        after[order[i]] = Rating(mus[i] + omega, sigmas[i] * math.sqrt(max(1 - delta, _KAPPA)))
    return after
