"""A tournament's plan (``Plan``): its format, table size, rounds, schedule, match length, turn
clock, places, check-in window, seeding and physical tables, checked when it is announced or
edited (``check_plan``).

Ratings (``docs/ratings.md``): a plan seeding by rating or breaking ties by it has the
players' league ratings passed to ``Tournament.start`` as plain data (the application reads them
from the read models; the domain cannot) and records them in ``Started``, so a replay pairs and
ranks the same. A player without a rating there has the starting one; a bot has none and
comes after every player.
In-person tables (``Plan.in_person_tables``, docs/tournaments.md): the club has that many physical
tables. In each round the first that many tables (in table order) whose seats are all people are
played with real cards, the scorer entering each round of the match; every other table is played
on the server. A bot cannot sit at a real table, so a table with a bot's seat (a ``fill_bot``
place, or the seat of someone who dropped out before the round's games were made) is always the
server's. Which tables are in person is fixed when the round's games are made
(``in_person_tables``, recorded by ``attach_game``); a table's result is recorded the same way
whichever way it was played.
"""

from datetime import datetime
from typing import Any, Literal

import msgspec

from service.domain.bots import BOTS
from service.domain.clock import MAX_TURN_CLOCK
from service.domain.errors import RuleError
from service.domain.formats import FORMATS
from service.domain.ruleset_checks import check_table, most_players
from service.domain.rulesets import Ruleset

MAX_TABLE = 6
MAX_ENTRANTS = 512  # the pairing search recurses once per seat
MAX_INTERVAL = 90 * 86_400  # a round a day is slow; a round a season is no tournament
BOT_ENTRANT = "bot:"
MAX_CHECK_IN = 7 * 24 * 60  # minutes: a week ahead is as early as any club opens its check-in
# what an edit before the start may change besides the name: the schedule, the places, the table size,
# how the seed order is made, whether the rating breaks ties, the physical tables
EDITABLE = (
    "starts_at",
    "interval",
    "check_in_minutes",
    "places",
    "table_size",
    "seeding",
    "rating_tie_break",
    "in_person_tables",
)
MAX_IN_PERSON = MAX_ENTRANTS // 2  # no round has more tables than that
SEEDINGS: tuple[str, ...] = ("draw", "rating")


class Plan(msgspec.Struct, frozen=True, kw_only=True):
    """How a tournament is played, fixed when it is announced."""

    format: str  # a name in ``formats.FORMATS``
    table_size: int  # the most seats at a table, within the ruleset's player range (2-6)
    # rounds, as the format takes them (its ``check_rounds``): required for swiss; round robin
    # defaults to the fewest in which everyone can meet everyone (pairing.round_robin_rounds); double
    # round robin (twice its cycle) and single elimination (it plays to one table) take none
    rounds: int | None = None
    starts_at: datetime | None = None  # round 1 (timezone-aware), or a start by hand before; None: that start
    interval: int | None = None  # seconds from one round's start to the next; None: when the previous ends
    target_score: int | None = None  # the match length: a target score ...
    single_round: bool = False  # ... or one round; neither: the league's own match end
    turn_clock: int | None = None  # seconds per turn; None: no clock
    late_policy: Literal["bot"] = "bot"  # a turn whose clock runs out is played by a bot, flagged
    places: int | None = None  # places filled by ``fill_bot`` entrants at the start when not taken
    fill_bot: str = "heuristic"
    # minutes before ``starts_at`` the check-in opens; None: no check-in (every entrant plays)
    check_in_minutes: int | None = None
    seeding: Literal["draw", "rating"] = "draw"  # the seed order: the seed's draw, or the league rating
    rating_tie_break: bool = False  # the league rating breaks ties before the seed order
    # the club's physical tables: each round's first this many tables seating no bot are played with
    # real cards (0: every table on the server)
    in_person_tables: int = 0

    @property
    def uses_ratings(self) -> bool:
        """The start needs the players' league ratings."""
        return self.seeding == "rating" or self.rating_tie_break


def match_options(plan: Plan) -> dict[str, Any]:
    if plan.single_round:
        return {"single_round": True}
    if plan.target_score is not None:
        return {"target_score": plan.target_score}
    return {}


def is_int(value: Any) -> bool:
    return type(value) is int


def check_plan(plan: Plan, rules: Ruleset) -> None:
    if not isinstance(plan.format, str) or plan.format not in FORMATS:
        raise RuleError("invalid_format", formats=", ".join(FORMATS))
    low, high = max(2, rules.min_players), min(MAX_TABLE, most_players(rules))
    if not is_int(plan.table_size) or not low <= plan.table_size <= high:
        raise RuleError("invalid_table_size", name=rules.name, low=low, high=high)
    check_table(rules, plan.table_size)  # the hands the options ask for fit a full table
    FORMATS[plan.format].check_rounds(plan.rounds)
    if plan.starts_at is not None and (
        not isinstance(plan.starts_at, datetime) or plan.starts_at.utcoffset() is None
    ):
        raise RuleError("invalid_schedule", why="start_time_needs")
    if plan.interval is not None and (not is_int(plan.interval) or not 1 <= plan.interval <= MAX_INTERVAL):
        raise RuleError("invalid_schedule", why="interval_whole_number", max_interval=MAX_INTERVAL)
    if type(plan.single_round) is not bool or (plan.target_score is not None and plan.single_round):
        raise RuleError("invalid_match_length", why="match_target_score")
    if plan.target_score is not None and (not is_int(plan.target_score) or plan.target_score < 1):
        raise RuleError("invalid_match_length", why="target_score_whole")
    if plan.turn_clock is not None and (
        not is_int(plan.turn_clock) or not 1 <= plan.turn_clock <= MAX_TURN_CLOCK
    ):
        raise RuleError("invalid_turn_clock", max_turn_clock=MAX_TURN_CLOCK)
    if plan.late_policy != "bot":
        raise RuleError("invalid_late_policy")
    if plan.places is not None and (not is_int(plan.places) or not 2 <= plan.places <= MAX_ENTRANTS):
        raise RuleError("invalid_places", why="tournament_places", max_entrants=MAX_ENTRANTS)
    if plan.fill_bot not in BOTS:
        raise RuleError("unknown_bot", why="no_bot_known", name=plan.fill_bot, known=", ".join(sorted(BOTS)))
    if not is_int(plan.in_person_tables) or not 0 <= plan.in_person_tables <= MAX_IN_PERSON:
        raise RuleError("invalid_in_person_tables", max_in_person=MAX_IN_PERSON)
    if plan.check_in_minutes is not None:
        if not is_int(plan.check_in_minutes) or not 1 <= plan.check_in_minutes <= MAX_CHECK_IN:
            raise RuleError("invalid_check_in", why="check_opens_minutes", max_check_in=MAX_CHECK_IN)
        if plan.starts_at is None:
            raise RuleError("invalid_check_in", why="check_needs_start")
    if plan.seeding not in SEEDINGS or type(plan.rating_tie_break) is not bool:
        raise RuleError("invalid_seeding")
