"""The Player and League aggregates.

A player is a name with an id (the id is what a game's seat holds). A league
fixes a ruleset and its options for its games, its turn clock and forfeit rule
(``service.domain.clock``) and its time zone (``service.domain.time_zone``),
admits and removes members, appoints referees and dismisses them. Public methods validate; the
events only mutate.

A player erased on request (``Player.erase``) is called ``ERASED_NAME`` from then
on, and no one else may take that name; ``docs/privacy.md`` says what else erasure
does to the store.
"""

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from service.domain.clock import FORFEIT_AFTER, check_clock
from service.domain.errors import RuleError
from service.domain.mao.league import MAO, check_mao_options
from service.domain.names import checked_name, display_key, refuse_taken
from service.domain.ruleset_options import check_options, ruleset
from service.domain.rulesets import Ruleset
from service.domain.time_zone import DEFAULT_TIME_ZONE, checked_time_zone

ERASED_NAME = "erased player"


def player_name(name: object) -> str:
    """A name a person chose (``checked_name``), which may not read as the label of the erased."""
    name = checked_name(name, "player")
    if display_key(name) == display_key(ERASED_NAME):
        raise RuleError("name_reserved", erased_name=ERASED_NAME)
    return name


class Player(Aggregate):
    class Event(Aggregate.Event):
        pass

    class Registered(Aggregate.Created):
        name: str

    class Renamed(Event):
        name: str

        def apply(self, player: "Player") -> None:
            player.name = self.name

    class Erased(Event):
        # holds nothing of the player's: the names in their earlier events are scrubbed in place
        def apply(self, player: "Player") -> None:
            player.name = ERASED_NAME
            player.erased = True

    def __init__(self, name: str) -> None:
        self.name = name
        self.erased = False

    @classmethod
    def register(cls, name: str) -> "Player":
        return cls._create(cls.Registered, name=player_name(name))

    def rename(self, name: str) -> None:
        self.check_not_erased()
        self.trigger_event(self.Renamed, name=player_name(name))

    def erase(self) -> None:
        """Erased on request: called ``ERASED_NAME`` from now on (once; erasing again records nothing)."""
        if not self.erased:
            self.trigger_event(self.Erased)

    def check_not_erased(self) -> None:
        if self.erased:
            raise RuleError("player_erased")


class League(Aggregate):
    class Event(Aggregate.Event):
        pass

    class Founded(Aggregate.Created):
        name: str
        ruleset_name: str
        options: dict[str, Any]
        # seconds per turn in the league's games (a tournament's plan sets its own); None: no clock
        turn_clock: int | None = None
        # timed-out turns in a row after which a seat forfeits (0: never); leagues founded before
        # there were forfeits get the default
        forfeit_after: int = FORFEIT_AFTER
        # where the club meets (an IANA name); leagues founded before there were time zones are in UTC
        time_zone: str = DEFAULT_TIME_ZONE

    class MemberAdmitted(Event):
        player_id: UUID

        def apply(self, league: "League") -> None:
            league.members = (*league.members, self.player_id)

    class MemberRemoved(Event):
        player_id: UUID

        def apply(self, league: "League") -> None:
            league.members = tuple(member for member in league.members if member != self.player_id)

    class RefereeAppointed(Event):
        referee: str  # the referee's id, as the HTTP layer authenticates it

        def apply(self, league: "League") -> None:
            league.referees = (*league.referees, self.referee)

    class RefereeDismissed(Event):
        referee: str  # as appointed

        def apply(self, league: "League") -> None:
            league.referees = tuple(referee for referee in league.referees if referee != self.referee)

    def __init__(
        self,
        name: str,
        ruleset_name: str,
        options: dict[str, Any],
        turn_clock: int | None = None,
        forfeit_after: int = FORFEIT_AFTER,
        time_zone: str = DEFAULT_TIME_ZONE,
    ) -> None:
        self.name = name
        self.ruleset_name = ruleset_name
        self.options = dict(options)
        self.turn_clock = turn_clock
        self.forfeit_after = forfeit_after
        self.time_zone = time_zone
        self.members: tuple[UUID, ...] = ()
        self.referees: tuple[str, ...] = ()

    @classmethod
    def found(
        cls,
        name: str,
        ruleset_name: str = "club",
        options: dict[str, Any] | None = None,
        turn_clock: int | None = None,
        forfeit_after: int | None = FORFEIT_AFTER,
        time_zone: str = DEFAULT_TIME_ZONE,
    ) -> "League":
        """``forfeit_after`` None or 0: a seat never forfeits by clock."""
        options = dict(options or {})
        if ruleset_name == MAO:
            check_mao_options(options)
        else:
            ruleset(ruleset_name, **options)  # refuses an unknown ruleset or a bad option
            check_options(options)
        forfeit_after = 0 if forfeit_after is None else forfeit_after
        check_clock(turn_clock, forfeit_after)
        time_zone = checked_time_zone(time_zone)
        return cls._create(
            cls.Founded,
            name=checked_name(name, "league"),
            ruleset_name=ruleset_name,
            options=options,
            turn_clock=turn_clock,
            forfeit_after=forfeit_after,
            time_zone=time_zone,
        )

    @property
    def rules(self) -> Ruleset:
        if self.ruleset_name == MAO:
            raise RuleError("mao_league")
        return ruleset(self.ruleset_name, **self.options)

    def admit(self, player_id: UUID, name: str | None = None, member_names: Iterable[str] = ()) -> None:
        """Admit a player called ``name``, which must differ from the names of the members now."""
        if player_id in self.members:
            raise RuleError("already_a_member")
        if name is not None:
            refuse_taken(name, member_names, "the league")
        self.trigger_event(self.MemberAdmitted, player_id=player_id)

    def remove(self, player_id: UUID) -> None:
        """A member leaves the member list (and so joins no more of its tournaments); their results stay."""
        if player_id not in self.members:
            raise RuleError("member_not_found")
        self.trigger_event(self.MemberRemoved, player_id=player_id)

    def appoint_referee(self, referee: str) -> None:
        if not referee:
            raise RuleError("invalid_referee")
        if referee in self.referees:
            raise RuleError("already_a_referee")
        self.trigger_event(self.RefereeAppointed, referee=referee)

    def dismiss_referee(self, referee: str) -> None:
        """A referee taken off the league: they rule on and officiate its games no more; their rulings
        stay. They may be appointed again."""
        if referee not in self.referees:
            raise RuleError("league_referee_not_found")
        self.trigger_event(self.RefereeDismissed, referee=referee)
