"""Engine facts stored as ``Game`` events: the event class each engine event is stored in
(``Game.CardPlayed`` stores a ``CardPlayed``, and so on for every engine event type), made once as
``game`` is imported (``make_fact_events``); ``record`` stores a command's facts (a shuffle with
its fresh commitment and salt, the salts revealed at a round's end) and ``settle_chance`` the
deals and recycles that follow.

A stored event is found again by its topic: each class is made with the module and the qualified
name of the ``Game`` it is set on (``service.domain.game:Game.CardPlayed``), whichever module makes it.
"""

from typing import TYPE_CHECKING, TypeVar, assert_never

from service.domain.chance import Shuffler
from service.domain.commands import Command, DealRound
from service.domain.engine import decide
from service.domain.events import (
    EVENT_TYPES,
    DealAnnulled,
    HiddenCardsReshuffled,
    RoundDealt,
    RoundEnded,
    Shuffle,
    StockRecycled,
)
from service.domain.events import Event as EngineEvent
from service.domain.fairness import commitment, salt_for
from service.domain.history import Cause
from service.domain.state import DEAL, RECYCLE

if TYPE_CHECKING:
    from service.domain.game import Game

# the Game event class a fact is stored in: a shuffle's or any fact's
_Stored = TypeVar("_Stored", bound="Game.Fact")

# engine event type -> the Game event class that stores it
FACT_EVENTS: dict[type[EngineEvent], type["Game.Fact"]] = {}
# the shuffles among them, and the reshuffle a void may lead to (never decided by the engine)
SHUFFLE_EVENTS: dict[type[EngineEvent], type["Game.Shuffled"]] = {}


def make_fact_events(game: type["Game"]) -> None:
    for engine_type in EVENT_TYPES:
        if issubclass(engine_type, Shuffle):
            FACT_EVENTS[engine_type] = SHUFFLE_EVENTS[engine_type] = _fact_event(
                game, engine_type, game.Shuffled
            )
        else:
            FACT_EVENTS[engine_type] = _fact_event(game, engine_type, game.Fact)
    SHUFFLE_EVENTS[HiddenCardsReshuffled] = _fact_event(game, HiddenCardsReshuffled, game.Shuffled)


def _fact_event(game: type["Game"], engine_type: type[EngineEvent], base: type[_Stored]) -> type[_Stored]:
    """``Game.<Name>``, storing the engine event ``<Name>``."""
    name = engine_type.__name__
    event_class = type(
        name,
        (base,),
        {
            "__module__": game.__module__,
            "__qualname__": f"{game.__qualname__}.{name}",
            "__annotations__": {"fact": engine_type},
            "__doc__": f"The engine's ``{name}``, stored.",
        },
    )
    setattr(game, name, event_class)
    return event_class


def record(game: "Game", facts: list[EngineEvent], cause: Cause | None) -> None:
    """The facts a command (or chance) decided, the first carrying its ``cause``; at a round's
    end, the salts of its shuffles (``DeckRevealed``)."""
    ended = None
    for fact in facts:
        if isinstance(fact, Shuffle):
            record_shuffle(game, fact, cause)
        else:
            game.trigger_event(FACT_EVENTS[type(fact)], fact=fact, cause=cause)
        cause = None
        if type(fact) is RoundEnded:
            ended = fact.round_no
    if ended is not None and game.unrevealed:
        game.trigger_event(game.DeckRevealed, round_no=ended, salts=tuple(game.unrevealed))


def record_shuffle(game: "Game", fact: Shuffle, cause: Cause | None = None) -> None:
    """A deal, a recycle or a reshuffle, with its commitment and its salt, both fresh."""
    salt = salt_for(game.seed, game.version + 1)
    match fact:
        case RoundDealt() | DealAnnulled():
            order = fact.deck
        case StockRecycled() | HiddenCardsReshuffled():
            order = fact.order
        case _:
            assert_never(fact)
    kind = SHUFFLE_EVENTS[type(fact)]
    game.trigger_event(kind, fact=fact, cause=cause, commitment=commitment(salt, order), salt=salt)


def settle_chance(game: "Game") -> None:
    """Deal and recycle from the game's secret until a seat is to move (nothing at a real table)."""
    s = game.state
    if game.in_person:  # the table shuffles and deals its own cards
        return
    # a deck given at creation deals the first round once: a deal it annuls (four of a kind,
    # ``DealAnnulled``) is dealt again from a shuffle
    explicit = game.deck if s.round_no == 0 else None
    while s.phase == DEAL or s.phase == RECYCLE:
        if s.phase == DEAL and explicit is not None:
            command: Command = DealRound(explicit)
            explicit = None
        else:
            command = Shuffler(f"{game.seed}:{game.version + 1}").outcome(s)
        record(game, decide(s, command), None)
