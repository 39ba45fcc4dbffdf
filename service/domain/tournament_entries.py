"""A tournament's entrants: the start (no-shows dropped, empty places filled by bots, the seed
order, round 1 paired), an edit before it, the check-in, and an entrant dropping out while it runs
(``drop``: one who withdrew; ``withdraw_erased``: one whose player was erased)."""

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

import msgspec

from service.domain import tournament_results
from service.domain.errors import RuleError
from service.domain.names import checked_name
from service.domain.pairing import seed_order
from service.domain.rating import Rating
from service.domain.tournament_plan import EDITABLE, check_plan

if TYPE_CHECKING:
    from service.domain.tournament import Tournament

BOT_ENTRANT = "bot:"  # an entrant ``bot:<bot>#<n>`` is a place a bot filled at the start
# why an entrant was dropped: absent at a check-in start, withdrew while running, erased on request
NO_SHOW, WITHDREW, ERASED = "no_show", "withdrew", "erased"
UNRATED = Rating().ordinal  # the conservative value of a player the league has not rated yet


def start(tournament: "Tournament", seed: str, ratings: Mapping[str, float] | None = None) -> None:
    """Drop the entrants who did not check in (with a check-in window), close the entries, fill
    the empty places with bots, fix the seed order, pair round 1.

    ``ratings``: the league's ratings (player id: conservative value), used when the plan
    seeds or breaks ties by them; a player not in it has the starting rating."""
    tournament._check_open()
    checking = tournament.plan.check_in_minutes is not None
    no_shows = [e for e in tournament.entrants if e not in tournament.checked_in] if checking else []
    present = [e for e in tournament.entrants if e not in no_shows]
    bots = (tournament.plan.places or 0) - len(present)
    entrants = [*present, *(f"{BOT_ENTRANT}{tournament.plan.fill_bot}#{n}" for n in range(1, bots + 1))]
    if len(entrants) < 2:
        raise RuleError("too_few_players", why="tournament_needs_least", count=len(entrants))
    rounds = tournament.format_unit.rounds_to_play(
        tournament.plan.rounds, len(entrants), tournament.plan.table_size
    )
    for entrant in no_shows:
        tournament.trigger_event(tournament.Dropped, entrant=entrant, reason=NO_SHOW, after_round=0)
    rated: dict[str, float] | None = None
    if tournament.plan.uses_ratings:
        known = ratings or {}
        rated = {e: float(known.get(e, UNRATED)) for e in entrants if not e.startswith(BOT_ENTRANT)}
    order = seed_order(entrants, seed, rated if tournament.plan.seeding == "rating" else None)
    tournament.trigger_event(
        tournament.Started,
        seed=seed,
        order=tuple(order),
        rounds=rounds,
        ratings=tuple((rated or {}).items()),
    )
    tournament_results.pair_next(tournament)


def edit(tournament: "Tournament", name: str | None = None, changes: dict[str, Any] | None = None) -> None:
    """A new name and new values of the plan's ``EDITABLE`` fields, before the start; checked as
    the announcement is. An edit that changes nothing records nothing."""
    tournament._check_open()
    changes = dict(changes or {})
    fixed = sorted(set(changes) - set(EDITABLE))
    if fixed:
        raise RuleError("not_editable", fixed=", ".join(fixed), editable=", ".join(EDITABLE))
    new_name = tournament.name if name is None else checked_name(name, "tournament")
    plan = msgspec.structs.replace(tournament.plan, **changes)
    check_plan(plan, tournament.rules)
    if plan.places is not None and plan.places < len(tournament.entrants):
        raise RuleError("invalid_places", why="joined_no_fewer", count=len(tournament.entrants))
    if (new_name, plan) != (tournament.name, tournament.plan):
        tournament.trigger_event(tournament.Edited, name=new_name, plan=plan)


def check_in(tournament: "Tournament", entrant: str, now: datetime) -> None:
    """An entrant says they will play, in the window before the start."""
    tournament._check_open()
    opens = tournament.check_in_opens
    if opens is None:
        raise RuleError("no_check_in")
    if entrant not in tournament.entrants:
        raise RuleError("not_joined", why="player_not_joined")
    if now < opens:
        raise RuleError("check_in_not_open", opens=opens.isoformat())
    if entrant in tournament.checked_in:
        raise RuleError("already_checked_in")
    tournament.trigger_event(tournament.CheckedIn, entrant=entrant)


def drop(tournament: "Tournament", entrant: str) -> None:
    """An entrant leaves a running swiss or round robin: the rounds paired after this one go
    without them; what they played stands."""
    tournament._current()
    tournament.format_unit.check_drop()
    if entrant not in tournament.order:
        raise RuleError("not_joined", why="player_does_not")
    if entrant in tournament.dropped:
        raise RuleError("already_dropped")
    if len(tournament.active) <= 2:
        raise RuleError("too_few_players", why="last_two_players")
    tournament.trigger_event(
        tournament.Dropped, entrant=entrant, reason=WITHDREW, after_round=len(tournament.rounds)
    )


def withdraw_erased(tournament: "Tournament", entrant: str) -> None:
    """The entrant's player was erased on request: out of the entries before the start; once
    running, dropped from the rounds paired later whatever the format, as one who withdrew
    (``drop``'s refusals do not hold: an erasure is never refused). A tournament over or
    cancelled, or an entrant gone already, records nothing."""
    if tournament.cancelled or tournament.finished:
        return
    if not tournament.started:
        if entrant in tournament.entrants:
            tournament.trigger_event(tournament.Left, entrant=entrant)
    elif entrant in tournament.order and entrant not in tournament.dropped:
        tournament.trigger_event(
            tournament.Dropped, entrant=entrant, reason=ERASED, after_round=len(tournament.rounds)
        )
