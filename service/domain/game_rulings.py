"""A game's disputes and rulings (``adjudication``): raising one pauses the game, a referee's
ruling settles it (``Game.raise_dispute``, ``Game.give_ruling``, ``Game.RulingGiven``)."""

from collections.abc import Callable
from typing import TYPE_CHECKING, assert_never

import msgspec

from service.domain.adjudication import (
    Correct,
    Dispute,
    Penalty,
    Resume,
    Ruling,
    Void,
    check_penalty,
    check_void,
    penalty_events,
)
from service.domain.chance import Shuffler
from service.domain.engine import decide
from service.domain.errors import RuleError
from service.domain.events import Event as EngineEvent
from service.domain.game_facts import record, record_shuffle, settle_chance
from service.domain.game_sheets import sheet_score
from service.domain.history import CREATED, FIRST_VOIDABLE, Cause
from service.domain.image import image_of
from service.domain.scoresheet import Correction, RoundEntry, RoundSheet, values_of
from service.domain.state import DEAL, NEW, OVER

if TYPE_CHECKING:
    from service.domain.game import Game


def raise_dispute(game: "Game", cause: Cause, reason: str, about: int | None) -> None:
    """Stop the game until a referee rules."""
    actor = cause.actor
    if game.abandoned is not None:
        raise RuleError("game_abandoned", abandoned=game.abandoned)
    if game.dispute is not None:
        raise RuleError("dispute_open", number=game.dispute.number)
    seat = None
    if actor.role == "player":
        seat = game.seat_of(actor.id)
        if seat is None:
            raise RuleError("not_allowed", why="players_table_raise")
    if about is not None and not CREATED <= about <= game.version:
        raise RuleError("no_such_event", why="named", about=about)
    dispute = Dispute(
        number=game.disputes + 1,
        raised_by=actor,
        seat=seat,
        about=about,
        reason=reason[:1000],
        raised_at=game.version + 1,
    )
    game.trigger_event(game.DisputeRaised, dispute=dispute, cause=cause)


def give_ruling(
    game: "Game", ruling: Ruling, cause: Cause, note: str, game_after: Callable[[int], "Game"] | None
) -> None:
    """Settle the open dispute.

    A void needs ``game_after(n)``: the game right after event ``n`` (a replay), to go on
    from the state before the first voided event.

    A void can reopen a round whose shuffles were revealed at its end: then the order of
    what is left of the stock is public, and with the log so is every hand. Before anyone
    moves, the hidden cards (every hand and the stock) are shuffled anew from the game's
    secret and a fresh event number, under a new commitment (``HiddenCardsReshuffled``):
    each seat holds as many cards as before, the top card, the turn and the scores stay.
    """
    if game.dispute is None:
        raise RuleError("no_dispute")
    if not cause.actor.officiates:
        raise RuleError("not_allowed", why="referee_rules_dispute")
    facts: list[EngineEvent] = []
    image = None
    reopened = False
    rescored: list[RoundEntry] = []
    match ruling:
        case Correct():
            if game_after is None:
                raise ValueError("a correction needs the replay of the game before the corrected round")
            sheet = _corrected_sheet(game, ruling)
            image = image_of(game_after(sheet.entered_at - 1).state)
            later = range(ruling.round_no + 1, game.state.round_no + 1)
            rescored = [ruling.entry, *(game.sheets[number].entry for number in later)]
        case Penalty():
            check_penalty(game.state, ruling)
            facts = penalty_events(game.state, ruling.seat, ruling.cards)
        case Void():
            check_void(ruling, game.dispute, FIRST_VOIDABLE)
            if game_after is None:
                raise ValueError("a void needs the replay of the game before the first voided event")
            before = game_after(ruling.from_event - 1)
            image = image_of(before.state)
            # its round's shuffles were secret then; a DeckRevealed since takes them out of ``unrevealed``
            reopened = any(shuffle not in game.unrevealed for shuffle in before.unrevealed)
        case Resume():
            pass
        case _:
            assert_never(ruling)
    game.trigger_event(
        game.RulingGiven,
        dispute=game.dispute.number,
        ruling=ruling,
        note=note[:1000],
        restored=image,
        cause=cause,
    )
    if reopened and game.state.phase not in (NEW, DEAL, OVER):
        record_shuffle(game, Shuffler(f"{game.seed}:{game.version + 1}").hidden_reshuffle(game.state))
    # the corrected round and those after it, scored again; rounds entered after a match end
    # the correction brings forward are left out of force (``Game.rounds``)
    for entry in rescored:
        if game.state.phase == OVER:
            break
        record(game, decide(game.state, sheet_score(game.state, entry)), None)
    record(game, facts, None)
    settle_chance(game)


def apply_correction(game: "Game", ruling: Correct, dispute: int, cause: Cause, number: int) -> None:
    """A ``Correct`` ruling given at event ``number``: the round's entry replaced, its players'
    confirmations gone (they confirmed the entry replaced, not this one)."""
    sheet = game.sheets[ruling.round_no]
    correction = Correction(by=cause.actor, at=number, dispute=dispute, replaced=sheet.entry)
    game.sheets[ruling.round_no] = msgspec.structs.replace(
        sheet, entry=ruling.entry, confirmed_by=(), corrections=(*sheet.corrections, correction)
    )


def _corrected_sheet(game: "Game", ruling: Correct) -> RoundSheet:
    if not game.in_person:
        raise RuleError("not_in_person", why="round_entered_score")
    sheet = game.sheets.get(ruling.round_no) if type(ruling.round_no) is int else None
    if sheet is None or ruling.round_no > game.state.round_no:
        raise RuleError("no_such_round", why="game_no_round", round_no=ruling.round_no)
    values_of(game.state.book, len(game.seats), ruling.entry)
    return sheet
