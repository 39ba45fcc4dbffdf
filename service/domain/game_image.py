"""A game's snapshot: everything a ``Game`` holds (``GameImage``), taken (``image_of_game``) and
restored (``game_from_image``) by ``Game.Snapshot``."""

from datetime import datetime
from typing import TYPE_CHECKING
from uuid import UUID

import msgspec

from service.domain.adjudication import Dispute
from service.domain.fairness import Revealed
from service.domain.history import CREATED
from service.domain.image import StateImage, image_of, restore
from service.domain.rulesets import Ruleset
from service.domain.scoresheet import RoundSheet
from service.domain.seats import Seat, TableRef, table_of_version_1_key

if TYPE_CHECKING:
    from service.domain.game import Game


class GameImage(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a Game holds, for its snapshots."""

    created_on: datetime
    modified_on: datetime
    ruleset: Ruleset
    seats: tuple[Seat, ...]
    seed: str  # the game's secret (``fairness.game_secret``), not the seed as given
    deck: tuple[int, ...] | None
    league_id: UUID | None
    state: StateImage
    dispute: Dispute | None
    disputes: int
    keys: dict[str, tuple[str, int]]
    unrevealed: list[Revealed]
    # added with forfeits by clock: snapshots taken before them decode with these defaults
    turn_clock: int | None = None
    forfeit_after: int = 0
    clock_runs: list[int] = msgspec.field(default_factory=list)
    forfeited: tuple[int, ...] = ()
    # added with cancelled tournaments: snapshots taken before decode as not abandoned
    abandoned: str | None = None
    # added with score sheets: snapshots taken before decode as games played here
    in_person: bool = False
    sheets: dict[int, RoundSheet] = msgspec.field(default_factory=dict)
    # added with the table in ``Created``: unset in an image taken before (``Game.from_image`` finds it)
    table: TableRef | msgspec.UnsetType | None = msgspec.UNSET


def image_of_game(game: "Game") -> GameImage:
    return GameImage(
        created_on=game.created_on,
        modified_on=game.modified_on,
        ruleset=game.ruleset,
        seats=game.seats,
        seed=game.seed,
        deck=game.deck,
        league_id=game.league_id,
        state=image_of(game.state),
        dispute=game.dispute,
        disputes=game.disputes,
        keys=dict(game.keys),
        unrevealed=list(game.unrevealed),
        turn_clock=game.turn_clock,
        forfeit_after=game.forfeit_after,
        clock_runs=list(game.clock_runs),
        forfeited=game.forfeited,
        abandoned=game.abandoned,
        in_person=game.in_person,
        sheets=dict(game.sheets),
        table=game.table,
    )


def game_from_image(cls: type["Game"], game_id: UUID, version: int, image: GameImage) -> "Game":
    game = object.__new__(cls)
    game.__base_init__(originator_id=game_id, originator_version=version, timestamp=image.created_on)
    game.modified_on = image.modified_on
    game.ruleset = image.ruleset
    game.seats = image.seats
    game.seed = image.seed
    game.deck = image.deck
    game.league_id = image.league_id
    game.state = restore(image.state)
    game.dispute = image.dispute
    game.disputes = image.disputes
    game.keys = dict(image.keys)
    game.unrevealed = list(image.unrevealed)
    game.turn_clock = image.turn_clock
    game.forfeit_after = image.forfeit_after
    game.clock_runs = list(image.clock_runs) or [0] * len(image.seats)
    game.forfeited = tuple(image.forfeited)
    game.abandoned = image.abandoned
    game.in_person = image.in_person
    game.sheets = dict(image.sheets)
    match image.table:
        case msgspec.UnsetType():
            # taken before games carried their table: the key of the game's creation names it
            created = next((key for key, (_, number) in image.keys.items() if number == CREATED), None)
            game.table = table_of_version_1_key(created)
        case table:
            game.table = table
    return game
