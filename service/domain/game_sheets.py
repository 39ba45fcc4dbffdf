"""A game played in person (``Game.in_person``): nothing is dealt, each round is entered from its
score sheet (``scoresheet``) by a seated player or an official, scored by the engine as a round
played here is, and confirmed by the other players (``Game.enter_round``, ``Game.confirm_round``)."""

from typing import TYPE_CHECKING

from service.domain.commands import ScoreRound
from service.domain.engine import decide
from service.domain.errors import RuleError
from service.domain.game_facts import record
from service.domain.history import Cause
from service.domain.roles import Actor
from service.domain.scoresheet import RoundEntry, RoundSheet, values_of
from service.domain.seats import Seat
from service.domain.state import State

if TYPE_CHECKING:
    from service.domain.game import Game


def check_in_person(
    seats: tuple[Seat, ...],
    deck: tuple[int, ...] | None,
    first_dealer: int | None,
    turn_clock: int | None,
    forfeit_after: int,
) -> None:
    """A game created to be played in person: people only, no deck or dealer chosen, no clock."""
    if any(seat.kind == "bot" for seat in seats):
        raise RuleError("bots_not_at_real_tables")
    if deck is not None or first_dealer is not None:
        raise RuleError("played_in_person", why="own_deck")
    if turn_clock is not None or forfeit_after:
        raise RuleError("played_in_person", why="no_clock")


def enter_round(game: "Game", entry: RoundEntry, cause: Cause) -> None:
    """The next round, from its score sheet; an impossible entry is refused and changes nothing."""
    if not game.in_person:
        raise RuleError("not_in_person", why="game_played_here")
    game.check_playable()
    _check_scorer(game, cause.actor)
    facts = decide(game.state, sheet_score(game.state, entry))
    game.trigger_event(game.RoundEntered, round_no=game.state.round_no + 1, entry=entry, cause=cause)
    record(game, facts, None)


def confirm_round(game: "Game", round_no: int, cause: Cause) -> None:
    """A seated player, not the one who entered it, agrees with a round's entry in force."""
    if not game.in_person:
        raise RuleError("not_in_person", why="game_played_here")
    if game.abandoned is not None:
        raise RuleError("game_abandoned", abandoned=game.abandoned)
    actor = cause.actor
    seat = game.seat_of(actor.id) if actor.role == "player" else None
    if seat is None:
        raise RuleError("not_allowed", why="players_table_confirm")
    sheet = game.sheets.get(round_no) if type(round_no) is int else None
    if sheet is None or round_no > game.state.round_no:
        raise RuleError("no_such_round", why="game_no_round", round_no=round_no)
    if sheet.entered_by == actor:
        raise RuleError("own_entry")
    if seat in sheet.confirmed_by:
        raise RuleError("already_confirmed", round_no=round_no)
    game.trigger_event(game.RoundConfirmed, round_no=round_no, seat=seat, cause=cause)


def apply_entry(game: "Game", round_no: int, entry: RoundEntry, cause: Cause, number: int) -> None:
    """``RoundEntered`` at event ``number``: the round's sheet; the entries of later rounds (left out
    of force by a ruling) go, as this one replaces them."""
    for later in [other for other in game.sheets if other >= round_no]:
        del game.sheets[later]
    game.sheets[round_no] = RoundSheet(
        round_no=round_no, entry=entry, entered_by=cause.actor, entered_at=number
    )


def sheet_score(s: State, entry: RoundEntry) -> ScoreRound:
    """The engine command that scores a score sheet's round, or why the entry is impossible."""
    values = values_of(s.book, s.seats, entry, s.out)
    last_card = -1 if entry.last_card is None else entry.last_card
    return ScoreRound(-1 if entry.winner is None else entry.winner, tuple(values), last_card)


def _check_scorer(game: "Game", actor: Actor) -> None:
    if actor.officiates or (actor.role == "player" and game.seat_of(actor.id) is not None):
        return
    raise RuleError("not_allowed", why="player_table_official")
