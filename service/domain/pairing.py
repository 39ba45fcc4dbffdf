"""Pairing and ranking for tournaments at multi-seat tables: pure, deterministic functions.

Players are strings (entrant ids). Nothing here draws a random number: where a
choice is open, a ``salt`` (the tournament's seed and the round, passed in as
data) breaks the tie through a hash, so the same inputs give the same tables.

Table sizes (``table_sizes``)
    N players at tables of at most k seats sit at as few tables as possible,
    ceil(N / k), whose sizes differ by at most one, larger tables first:
    16 at 4 -> 4+4+4+4; 10 at 4 -> 4+3+3 (not 4+4+2); 5 at 4 -> 3+2; 7 at 6 -> 4+3.
    Fewer seats than that are never used, so a table is never smaller than it must be.

Byes (``choose_byes``)
    Only when no table can be formed for everyone (one player left over: an odd
    number at two-seat tables, or a single player). The bye goes to the
    lowest-ranked player among those with the fewest byes so far, so nobody gets
    a second bye while someone else has none. How a bye scores is the
    tournament's business (``service.domain.tournament``: one win and the mean of
    the round's winning totals).

Swiss (``pair_swiss``)
    Players in ranking order (so score groups are contiguous runs of it). Each
    table takes the best unseated player, then table-mates who have met nobody at
    the table before, the best-ranked first; a lower-ranked mate (from a lower
    score group) only where that avoids a repeat. ``group`` searches on for
    fewer repeats (see there).

Round robin (``pair_round_robin``)
    The same search over the seed order instead of the ranking, each round minimising the
    meetings repeated (a greedy social-golfer schedule), for ``round_robin_rounds``.

Double round robin (``pair_double_round_robin``)
    A cycle of round robin rounds, then each of them again in its order, every table's seats
    reversed (at two seats: swapped) and the same byes, among those still playing; whom a
    drop-out left alone at a table joins the byes, and they are paired as a round robin's round.

Single elimination (``pair_elimination``)
    The players still in, in ranking order, dealt to the tables in a snake
    (1st, 2nd, 3rd table, then 3rd, 2nd, 1st, ...) so the best do not meet
    early. Each table's winners go through, all of them when the win is shared;
    the others are out; a bye goes through. The round with a single table and
    no bye is the final.

Seats (``seat``)
    Within a table, the seat order with the fewest "sits right after" pairs seen
    in earlier rounds (play passes from seat i to seat i+1, cyclically), then
    the one whose first seat went to the player who had it least, then the salt.

Ranking (``rank``), best first
    0. those with a result (a table finished or a bye scored) before those without one
       (``played``: nothing to rank them by yet, so they are listed after, unranked), then
       those still playing before those who dropped out (``withdrawn``: their results
       stand, but they no longer play for a place among those who play on);
    1. for single elimination, the round reached (champions, then the final's
       losers, then those out in the round before, ...);
    2. points: the sum of the player's match totals (and bye points), fewer first
       when the ruleset's match winner has the lowest total (club), more first
       when the highest (mau-mau-150);
    3. wins (a shared win and a bye count as wins), more first; where the last seat
       not eliminated wins the match (101, faraon: ``wins_first``), wins come before
       points, since a match's totals do not say who won it;
    4. forfeits by clock, fewer first (a forfeit is a loss, and its table's
       worst total: ``Game.result``);
    5. the opponents' strength: the mean of the points of every opponent met
       (once per table shared), in the same direction as points (fewer is
       stronger in club); a player who met nobody comes last on this count;
    6. with the plan's rating tie-break, the league rating recorded at the start (``ratings``:
       the conservative value), higher first; a bot has none and comes after every player;
    7. the seed order.

Seed order (``seed_order``)
    A hash of the seed and each entrant; seeding by rating orders by the recorded
    rating first (higher first, bots after every player), the hash breaking equal ratings.
"""

import hashlib
import math
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from itertools import permutations

import msgspec

MIN_TABLE = 2
# Partial tables the search may extend before it settles for the best split found so far.
BUDGET = 5_000


class Pairing(msgspec.Struct, frozen=True):
    tables: tuple[tuple[str, ...], ...]  # each table's players, in seat order
    byes: tuple[str, ...]


class Played(msgspec.Struct, frozen=True):
    """One finished table: its players in seat order, their match totals and the winning seats."""

    seats: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    timed_out: tuple[int, ...] = ()  # per seat, turns a clock bot played
    forfeited: tuple[int, ...] = ()  # seats that forfeited by clock
    # seats a bot played for an entrant who had dropped out before the table's game was made: the
    # seat's result is the bot's, so it counts for nobody, and the bot is no opponent met
    stand_ins: tuple[int, ...] = ()


class Placing(msgspec.Struct, frozen=True, kw_only=True):
    rank: int  # 1 is the best; every rank is distinct (the seed order breaks the last ties)
    entrant: str
    points: int
    wins: int
    tables: int  # tables played
    byes: int
    opponents: float | None  # the mean points of the opponents met; None when none yet
    stage: int  # single elimination: the round reached (0 for the other formats)
    bot_turns: int  # turns a clock bot played for the entrant (flagged)
    forfeits: int = 0  # games the entrant forfeited by clock
    dropped: bool = False  # dropped out: placed after everyone still playing
    played: bool = True  # has a result (a table or a bye); False: placed after everyone who has, unranked


def pair_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


class History:
    """What earlier rounds tell the pairing: who met whom, who sat right after whom,
    who had the first seat, who had byes."""

    def __init__(self, rounds: Iterable[tuple[Sequence[Sequence[str]], Sequence[str]]] = ()) -> None:
        self.met: Counter[tuple[str, str]] = Counter()
        self.after: Counter[tuple[str, str]] = Counter()
        self.first: Counter[str] = Counter()
        self.byes: Counter[str] = Counter()
        for tables, byes in rounds:
            self.add(tables, byes)

    def add(self, tables: Sequence[Sequence[str]], byes: Sequence[str]) -> None:
        for table in tables:
            self.first[table[0]] += 1
            for i, player in enumerate(table):
                self.after[(player, table[(i + 1) % len(table)])] += 1
                for other in table[i + 1 :]:
                    self.met[pair_key(player, other)] += 1
        self.byes.update(byes)


def table_sizes(players: int, table_size: int, min_size: int = MIN_TABLE) -> tuple[list[int], int]:
    """The sizes of a round's tables for ``players`` and how many of them sit out (byes)."""
    if not MIN_TABLE <= min_size <= table_size:
        raise ValueError(f"tables of {min_size} to {table_size} seats")
    for byes in range(players + 1):
        seated = players - byes
        if seated == 0:
            break
        tables = -(-seated // table_size)
        small, extra = divmod(seated, tables)
        if small >= min_size:
            return [small + 1] * extra + [small] * (tables - extra), byes
    return [], players


def choose_byes(ranked: Sequence[str], count: int, byes: Mapping[str, int]) -> list[str]:
    """``count`` players to sit out: the lowest-ranked among those with the fewest byes, repeatedly."""
    chosen: list[str] = []
    for _ in range(count):
        left = [p for p in ranked if p not in chosen]
        fewest = min(byes.get(p, 0) for p in left)
        chosen.append(next(p for p in reversed(left) if byes.get(p, 0) == fewest))
    return chosen


def group(
    order: Sequence[str],
    sizes: Sequence[int],
    met: Mapping[tuple[str, str], int],
    budget: int = BUDGET,
) -> list[list[str]]:
    """Split ``order`` into tables of ``sizes`` repeating as few earlier meetings as the search finds.

    The cost of a split is the sum, over every two players at one table, of how
    often they met before. Depth first: each table starts with the first
    unseated player of ``order`` (at a table of each size still to fill, the
    larger first) and takes table-mates one at a time, those adding the least
    cost first, then the earliest in ``order``; mates are taken in ``order`` so
    every split is tried once. The first split found is that greedy one; the
    search goes on for a cheaper one until one costs nothing, every split was
    tried, or ``budget`` partial tables were extended. For about ten players the
    search is exhaustive, so the answer is a cheapest split there is; for more,
    swaps between tables mend what the search left (``_swap_down``).
    The tables come out in the order of their first players.
    """
    n = len(order)
    if sum(sizes) != n:
        raise ValueError("the table sizes must seat everyone")
    free = [True] * n
    left = Counter(sizes)  # tables still to start, by size
    tables: list[list[int]] = []
    targets: list[int] = []
    best: list[list[str]] | None = None
    best_cost = math.inf
    extended = 0

    # each player's earlier meetings, by the others' places in ``order``: what a candidate adds to a
    # table is then summed over the few players each mate met, not looked up for every candidate
    index = {player: i for i, player in enumerate(order)}
    met_by: list[dict[int, int]] = [{} for _ in order]
    for (a, b), count in met.items():
        if count and a in index and b in index and pair_key(a, b) == (a, b):
            met_by[index[a]][index[b]] = met_by[index[b]][index[a]] = count

    def search(cost: int) -> bool:
        """Seat the rest; True means stop (nothing cheaper can be found, or out of budget)."""
        nonlocal best, best_cost, extended
        if not tables or len(tables[-1]) == targets[-1]:
            if not +left:
                best, best_cost = [[order[i] for i in table] for table in tables], cost
                return cost == 0
            return start_table(cost)
        if best is not None and extended >= budget:
            return True
        extended += 1
        table = tables[-1]
        later = [i for i in range(table[-1] + 1, n) if free[i]]
        still = targets[-1] - len(table) - 1  # mates to take after this one, from players later in order
        adds: dict[int, int] = {}
        for mate in table:
            for other, count in met_by[mate].items():
                adds[other] = adds.get(other, 0) + count
        candidates = sorted((adds.get(i, 0), i) for i in later[: len(later) - still])
        for added, i in candidates:
            if cost + added >= best_cost:
                break
            free[i] = False
            table.append(i)
            stop = search(cost + added)
            table.pop()
            free[i] = True
            if stop:
                return True
        return False

    def start_table(cost: int) -> bool:
        head = free.index(True)
        free[head] = False
        tables.append([head])
        stop = False
        for size in sorted(+left, reverse=True):
            left[size] -= 1
            targets.append(size)
            stop = search(cost)
            targets.pop()
            left[size] += 1
            if stop:
                break
        tables.pop()
        free[head] = True
        return stop

    search(0)
    assert best is not None
    if best_cost:
        _swap_down(best, met)
    return best


def _swap_down(tables: list[list[str]], met: Mapping[tuple[str, str], int]) -> None:
    """Swap players between tables while a swap repeats fewer meetings, the lowest tables first.

    What the depth-first search leaves is mostly a clash at the last tables,
    which a swap with an earlier table mends (it moves the fewest good players).
    """
    while _swap_once(tables, met):
        pass


def _swap_once(tables: list[list[str]], met: Mapping[tuple[str, str], int]) -> bool:
    def cost(player: str, table: list[str], leaving: str) -> int:
        return sum(met.get(pair_key(player, other), 0) for other in table if other != leaving)

    # what each player repeats at their own table now: a swap of two players who repeat nothing where
    # they sit cannot repeat less, so only pairs of tables holding a repeat are tried (in the same order)
    own = {player: cost(player, table, player) for table in tables for player in table}
    repeats = [any(own[player] for player in table) for table in tables]
    for j in range(len(tables) - 1, 0, -1):
        for i in range(j - 1, -1, -1):
            if not (repeats[j] or repeats[i]):
                continue
            for x, a in enumerate(tables[j]):
                for y, b in enumerate(tables[i]):
                    now = own[a] + own[b]
                    if now and cost(a, tables[i], b) + cost(b, tables[j], a) < now:
                        tables[j][x], tables[i][y] = b, a
                        return True
    return False


def seat(table: Sequence[str], history: History, salt: str) -> tuple[str, ...]:
    """The seat order of one table (see the module doc)."""

    def key(order: tuple[str, ...]) -> tuple[int, int, str]:
        repeats = sum(history.after[(p, order[(i + 1) % len(order)])] for i, p in enumerate(order))
        return repeats, history.first[order[0]], _hash(salt, *order)

    return min(permutations(table), key=key)


def pair_swiss(ranked: Sequence[str], history: History, table_size: int, salt: str) -> Pairing:
    """A Swiss round: ``ranked`` is every active player, best first."""
    return _pair_by_meetings(ranked, ranked, history, table_size, salt)


def pair_round_robin(
    order: Sequence[str], ranked: Sequence[str], history: History, table_size: int, salt: str
) -> Pairing:
    """A round-robin round: tables over the fixed ``order`` (the seed order); byes by ``ranked``."""
    return _pair_by_meetings(order, ranked, history, table_size, salt)


def pair_double_round_robin(
    order: Sequence[str],
    ranked: Sequence[str],
    earlier: Sequence[tuple[Sequence[Sequence[str]], Sequence[str]]],
    cycle: int,
    history: History,
    table_size: int,
    salt: str,
) -> Pairing:
    """A double round robin's round: ``earlier`` are the rounds paired so far (tables, byes), the
    first ``cycle`` of them the round robin's; round ``cycle + i`` plays round ``i`` again."""
    if len(earlier) < cycle:
        return pair_round_robin(order, ranked, history, table_size, salt)
    tables, byes = earlier[len(earlier) - cycle]
    playing = set(order)
    kept = [tuple(p for p in reversed(table) if p in playing) for table in tables]
    rest = {p for table in kept if len(table) < MIN_TABLE for p in table} | (playing & set(byes))
    again = _pair_by_meetings(
        [p for p in order if p in rest], [p for p in ranked if p in rest], history, table_size, salt
    )
    return Pairing(tables=(*(t for t in kept if len(t) >= MIN_TABLE), *again.tables), byes=again.byes)


def pair_elimination(ranked: Sequence[str], history: History, table_size: int, salt: str) -> Pairing:
    """A single-elimination round: ``ranked`` are the players still in, best first."""
    sizes, bye_count = table_sizes(len(ranked), table_size)
    byes = choose_byes(ranked, bye_count, history.byes)
    rest = [p for p in ranked if p not in byes]
    count = len(sizes)
    dealt: list[list[str]] = [[] for _ in range(count)]
    for i, player in enumerate(rest):
        lap, place = divmod(i, count)
        dealt[place if lap % 2 == 0 else count - 1 - place].append(player)
    return _seated(dealt, byes, history, salt)


def round_robin_rounds(players: int, table_size: int) -> int:
    """The fewest rounds in which everyone could meet everyone (at tables of two: does; an odd field
    one round more than an even one, each sitting out once): a round meets each player with
    table_size - 1 others at most, and its tables (``table_sizes``) hold only so many meetings."""
    per_round = sum(size * (size - 1) // 2 for size in table_sizes(players, table_size)[0]) or 1
    pairs = players * (players - 1) // 2
    return max(1, -(-(players - 1) // (table_size - 1)), -(-pairs // per_round))


def rank(
    order: Sequence[str],
    played: Iterable[Played],
    byes: Iterable[tuple[str, int]],
    lower_is_better: bool,
    stage: Mapping[str, int] | None = None,
    withdrawn: Collection[str] = (),
    ratings: Mapping[str, float] | None = None,
    wins_first: bool = False,
) -> list[Placing]:
    """Every entrant of ``order`` (the seed order) placed by the tie-breaks of the module doc.

    ``byes`` are (entrant, points the bye scored); ``stage`` the round each
    entrant reached in a single elimination; ``withdrawn`` those who dropped out;
    ``ratings`` the players' ratings when they break ties (None: they do not);
    ``wins_first``: wins come before points (a match the last seat standing wins).
    """
    # every entrant counted from 0 at once: a count met first in the loops costs a Python-level call
    zero = dict.fromkeys(order, 0)
    points, wins, tables = Counter(zero), Counter(zero), Counter(zero)
    bye_count, bot_turns, forfeits = Counter(zero), Counter(zero), Counter(zero)
    opponents: dict[str, list[str]] = {entrant: [] for entrant in order}
    for table in played:
        totals, winners, timed_out, forfeited, stand_ins = (
            table.totals,
            table.winners,
            table.timed_out,
            table.forfeited,
            table.stand_ins,
        )
        sat = [entrant for i, entrant in enumerate(table.seats) if i not in stand_ins]
        for i, entrant in enumerate(table.seats):
            if i in stand_ins:  # a bot's result for someone who dropped out: it counts for nobody
                continue
            points[entrant] += totals[i]
            tables[entrant] += 1
            if i in winners:
                wins[entrant] += 1
            if timed_out:
                bot_turns[entrant] += timed_out[i]
            if i in forfeited:
                forfeits[entrant] += 1
            opponents[entrant] += sat
    for entrant, score in byes:
        points[entrant] += score
        wins[entrant] += 1
        bye_count[entrant] += 1
    sign = 1 if lower_is_better else -1
    # the mean points of the opponents met (each list holds its entrant once per table, taken out here).
    # A float orders these means as exactly as fractions would, and far faster: two different means
    # a/b and c/d lie at least 1/(b*d) apart, far beyond a double's rounding at any tournament's size
    strength: dict[str, float | None] = {}
    for entrant, met in opponents.items():
        count = len(met) - tables[entrant]
        met_points = sum([points[o] for o in met]) - points[entrant] * tables[entrant]
        strength[entrant] = met_points / count if count else None
    seed = {entrant: i for i, entrant in enumerate(order)}
    stage = stage or {}

    rated = ratings or {}

    def key(entrant: str) -> tuple[bool, bool, int, int, int, int, tuple[int, float], tuple[int, float], int]:
        opposition = strength[entrant]
        scored, won = sign * points[entrant], -wins[entrant]
        return (
            not (tables[entrant] or bye_count[entrant]),
            entrant in withdrawn,
            -stage.get(entrant, 0),
            *((won, scored) if wins_first else (scored, won)),
            forfeits[entrant],
            (1, 0.0) if opposition is None else (0, sign * opposition),
            _by_rating(entrant, rated) if ratings is not None else (0, 0.0),
            seed[entrant],
        )

    return [
        Placing(
            rank=place,
            entrant=entrant,
            points=points[entrant],
            wins=wins[entrant],
            tables=tables[entrant],
            byes=bye_count[entrant],
            opponents=strength[entrant],
            stage=stage.get(entrant, 0),
            bot_turns=bot_turns[entrant],
            forfeits=forfeits[entrant],
            dropped=entrant in withdrawn,
            played=bool(tables[entrant] or bye_count[entrant]),
        )
        for place, entrant in enumerate(sorted(order, key=key), start=1)
    ]


def ranking_order(
    lower_is_better: bool, elimination: bool, rating: bool = False, wins_first: bool = False
) -> tuple[list[str], str]:
    """The keys ``rank`` orders by, in the order it applies them, and the same in a sentence
    (``rating``: the plan's rating tie-break; ``wins_first``: as ``rank``'s)."""
    keys = ["stage"] if elimination else []
    keys += ["wins", "points"] if wins_first else ["points", "wins"]
    keys += ["forfeits", "opponents", *(["rating"] if rating else []), "seed"]
    fewer = "fewest" if lower_is_better else "most"
    scored = f"{fewer} points (the sum of the match totals and bye points)"
    won = "most wins (a shared win and a bye count)"
    first, second = (won, scored) if wins_first else (scored, won)
    by_rating = (
        "then the higher league rating at the start (the conservative value; a bot after every player), "
        if rating
        else ""
    )
    sentence = (
        ("The round reached (the furthest first), then " if elimination else "")
        + f"{first}, then {second}, then fewest forfeits, then the strongest opposition (the mean "
        f"points of the opponents met, in the same direction as points), {by_rating}then the seed order. "
        "A player whose turns the clock bot plays the league's forfeit_after times in a row "
        "forfeits the table: a loss, scored as the table's worst total. Entrants without a result yet "
        "(no table finished, no bye) are listed after, unranked; a bot that sat in for someone who had "
        "dropped out plays for nobody."
    )
    return keys, sentence[0].upper() + sentence[1:]


def seed_order(entrants: Sequence[str], seed: str, ratings: Mapping[str, float] | None = None) -> list[str]:
    """The entrants in the order the seed gives them (a hash of each, so joining order does not matter);
    with ``ratings``, by rating first, the best first (the hash breaks equal ratings)."""
    rated = ratings or {}
    return sorted(
        entrants,
        key=lambda entrant: (
            _by_rating(entrant, rated) if ratings is not None else (0, 0.0),
            _hash(seed, entrant),
            entrant,
        ),
    )


def _by_rating(entrant: str, ratings: Mapping[str, float]) -> tuple[int, float]:
    """A sort key, the higher rating first; an entrant without one (a bot) after every rated one."""
    rating = ratings.get(entrant)
    return (1, 0.0) if rating is None else (0, -rating)


def _pair_by_meetings(
    order: Sequence[str], ranked: Sequence[str], history: History, table_size: int, salt: str
) -> Pairing:
    sizes, bye_count = table_sizes(len(order), table_size)
    byes = choose_byes(ranked, bye_count, history.byes)
    tables = group([p for p in order if p not in byes], sizes, history.met)
    return _seated(tables, byes, history, salt)


def _seated(tables: Sequence[Sequence[str]], byes: Sequence[str], history: History, salt: str) -> Pairing:
    return Pairing(
        tables=tuple(seat(table, history, f"{salt}:{i}") for i, table in enumerate(tables)),
        byes=tuple(byes),
    )


def _hash(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()
