"""Commands: what a seat (or chance) asks of the engine. Imperative names; ``command_for`` the
command an action (``actions``) stands for."""

import msgspec

from service.domain.actions import (
    BLIND_PLAY,
    CHALLENGE,
    CHALLENGE_DECLARATION,
    CHOOSE,
    DRAW,
    KEEP,
    NAME_SUIT,
    SEVERAL_PLAY,
    WILD_PLAY,
    blind_play,
    several_cards,
)
from service.domain.cards import CARD_COUNT
from service.domain.rulebook import NO_CALL
from service.domain.rulesets import Ruleset


class BaseCommand(msgspec.Struct, frozen=True, gc=False, tag=True):
    pass


class StartMatch(BaseCommand, frozen=True):
    rules: Ruleset
    seats: int
    first_dealer: int  # chance: drawn outside the engine


class DealRound(BaseCommand, frozen=True):
    deck: tuple[int, ...]  # chance: the shuffled deck, first card dealt first


class NameSuit(BaseCommand, frozen=True):
    """The dealer names the suit when the starter is a wild card."""

    seat: int
    suit: int


class ChoosePlayer(BaseCommand, frozen=True):
    """The player of a card that makes another player draw names who."""

    seat: int
    chosen: int


class PlayCard(BaseCommand, frozen=True):
    seat: int
    card: int
    suit: int = -1  # the suit named with a wild card
    call: int = NO_CALL  # what the player says with the play: part of the move
    # with ``quick``: more cards of the same rank laid on ``card`` in the same play, the last on top
    more: tuple[int, ...] = ()
    # with ``blind``: the card ``card`` is declared as, played face down; -1: played face up
    declared: int = -1


class DrawCard(BaseCommand, frozen=True):
    seat: int


class KeepCard(BaseCommand, frozen=True):
    """End the turn keeping the card just drawn instead of playing it."""

    seat: int


class Challenge(BaseCommand, frozen=True):
    """Challenge the missed call whose window is open."""

    seat: int


class ChallengeDeclaration(BaseCommand, frozen=True):
    """The next player doubts the face-down card just played (``blind``): it is turned up."""

    seat: int


class GivePenalty(BaseCommand, frozen=True):
    """A referee's ruling: a seat draws penalty cards; the turn stays where it is."""

    seat: int
    count: int


class RecycleStock(BaseCommand, frozen=True):
    order: tuple[int, ...]  # chance: the discards below the top card, shuffled, top first


class ScoreRound(BaseCommand, frozen=True):
    """A round played with real cards, scored from its sheet (``scoresheet``): no card moves.

    ``values`` are the points of the cards each seat has left, by this ruleset's card values.
    """

    winner: int  # the seat that went out; -1: the round stopped with no winner
    values: tuple[int, ...]  # per seat
    last_card: int = -1  # the card the winner went out with; -1: the sheet does not say


# every command the engine decides: ``decide`` has a case for each, so a command added here
# without its case fails the type check
Command = (
    StartMatch
    | DealRound
    | NameSuit
    | ChoosePlayer
    | PlayCard
    | DrawCard
    | KeepCard
    | Challenge
    | ChallengeDeclaration
    | GivePenalty
    | RecycleStock
    | ScoreRound
)

# the commands a seat may send; the chance commands (deal, recycle), the match start and what
# officials decide (penalties, scored rounds) come from the game itself
Move = PlayCard | DrawCard | KeepCard | NameSuit | Challenge | ChoosePlayer | ChallengeDeclaration


def command_for(seat: int, action: int, call: int = NO_CALL) -> Command:
    """The command that takes ``action`` for ``seat``, saying ``call`` with a play."""
    if action >= BLIND_PLAY:
        card, declared, suit = blind_play(action)
        return PlayCard(seat, card, suit, call, declared=declared)
    if action >= SEVERAL_PLAY:
        cards, suit = several_cards(action)
        return PlayCard(seat, cards[0], suit, call, cards[1:])
    if action < WILD_PLAY:
        return PlayCard(seat, action, -1, call)
    if action < DRAW:
        return PlayCard(seat, (action - WILD_PLAY) >> 2, action & 3, call)
    if action == DRAW:
        return DrawCard(seat)
    if action == KEEP:
        return KeepCard(seat)
    if action == CHALLENGE:
        return Challenge(seat)
    if action == CHALLENGE_DECLARATION:
        return ChallengeDeclaration(seat)
    if action >= CHOOSE:
        return ChoosePlayer(seat, action - CHOOSE)
    return NameSuit(seat, action - NAME_SUIT)


# Per seat met so far, the command each action stands for when no call is said.
# Commands are immutable and a seat's plays, draws and keeps recur all game long, so a
# bot hands the engine one made once instead of building one every move. A plain dict
# (a dict subclass's [] costs twice as much): seat_commands() adds a seat.
SEAT_COMMANDS: dict[int, dict[int, Command]] = {}
MOST_SEATS = 16  # the seats a player may be chosen from, for the commands made once


def seat_commands(seat: int) -> dict[int, Command]:
    commands = SEAT_COMMANDS.get(seat)
    if commands is None:
        wild_plays = range(WILD_PLAY, WILD_PLAY + CARD_COUNT * 4)
        suits_named = range(NAME_SUIT, NAME_SUIT + 4)
        chosen = range(CHOOSE, CHOOSE + MOST_SEATS)
        actions = (
            *range(CARD_COUNT),
            *wild_plays,
            DRAW,
            KEEP,
            CHALLENGE,
            CHALLENGE_DECLARATION,
            *suits_named,
            *chosen,
        )
        commands = SEAT_COMMANDS[seat] = {action: command_for(seat, action) for action in actions}
    return commands
