"""The engine: a pure decider over any ruleset.

``decide(state, command)`` returns the events a command causes or raises a
``RuleError`` with a stable code; ``fold(events)`` applies them (each event applies itself).
A state is the fold of its events. Nothing here does I/O or draws a random
number: deals and recycles arrive as data in ``DealRound`` / ``RecycleStock``.

Here: the dispatch, the match's start, the deal and the starter's suit. The other commands are
decided in ``plays`` (a card or several played, face up or down, and their effects), ``draws``
(draws, keeping, challenges of a missed call, penalties, recycles) and ``round_end`` (a round's
end and scoring, a score sheet's round); ``refusals`` holds the refusals they share, ``legal``
the queries (``legal_actions``), ``commands`` the command each action stands for.
"""

from collections.abc import Iterable
from typing import assert_never

from service.domain.cards import (
    RANKS,
)
from service.domain.commands import (
    Challenge,
    ChallengeDeclaration,
    ChoosePlayer,
    Command,
    DealRound,
    DrawCard,
    GivePenalty,
    KeepCard,
    NameSuit,
    PlayCard,
    RecycleStock,
    ScoreRound,
    StartMatch,
)
from service.domain.dealing import dealt_hands, four_of_a_kind
from service.domain.draws import challenge, draw_card, give_penalty, keep_card, recycle_stock
from service.domain.errors import RuleError
from service.domain.events import (
    DealAnnulled,
    Event,
    MatchStarted,
    RoundDealt,
    SuitNamed,
)
from service.domain.folding import fold_into
from service.domain.plays import challenge_declaration, choose_player, play_card
from service.domain.refusals import check_seat, check_suit, phase_refusal
from service.domain.round_end import score_entered
from service.domain.ruleset_checks import check, check_table
from service.domain.state import (
    CLOCKWISE,
    DEAL,
    NAMING_SUIT,
    NEW,
    PLAY,
    State,
    next_seat,
)

# ---------------------------------------------------------------------------
# decide


def decide(s: State, command: Command) -> list[Event]:
    # Plays and draws are nearly every command: an identity test of the type each (a class
    # pattern is an isinstance call, 5% of a club command's instructions) before the exhaustive
    # match. A call site of its own per command keeps the interpreter's call specialised (one
    # shared call to many functions is not).
    if type(command) is PlayCard:
        return play_card(s, command)
    if type(command) is DrawCard:
        return draw_card(s, command)
    match command:
        case PlayCard():
            return play_card(s, command)
        case DrawCard():
            return draw_card(s, command)
        case KeepCard():
            return keep_card(s, command)
        case DealRound():
            return _deal(s, command)
        case RecycleStock():
            return recycle_stock(s, command)
        case NameSuit():
            return _name_suit(s, command)
        case ChoosePlayer():
            return choose_player(s, command)
        case Challenge():
            return challenge(s, command)
        case ChallengeDeclaration():
            return challenge_declaration(s, command)
        case GivePenalty():
            return give_penalty(s, command)
        case StartMatch():
            return _start(s, command)
        case ScoreRound():
            return score_entered(s, command)
        case _:
            assert_never(command)


def fold(events: Iterable[Event], s: State | None = None) -> State:
    return fold_into(State() if s is None else s, events)


def _start(s: State, c: StartMatch) -> list[Event]:
    if s.phase != NEW:
        raise RuleError("match_already_started")
    check(c.rules)
    check_table(c.rules, c.seats)
    if not 0 <= c.first_dealer < c.seats:
        raise RuleError("not_a_seat", why="seat", seat=c.first_dealer)
    return [MatchStarted(c.rules, c.seats, c.first_dealer)]


def _deal(s: State, c: DealRound) -> list[Event]:
    if s.phase != DEAL:
        raise phase_refusal(s, "round_in_progress")
    book = s.book
    if sorted(c.deck) != book.sorted_deck:
        raise RuleError("invalid_deck", why="deck_cards_ruleset", count=len(book.deck))
    rules = book.rules
    seats, out = s.seats, s.out
    dealer = s.next_dealer if not out >> s.next_dealer & 1 else next_seat(s, s.next_dealer, CLOCKWISE)
    sizes = _deal_sizes(s)
    if rules.redeal_four_of_a_kind:
        hands = dealt_hands(seats, dealer, c.deck, sizes or (rules.hand_size,) * seats)
        for seat, hand in enumerate(hands):
            rank = four_of_a_kind(hand)
            if rank >= 0:
                return [DealAnnulled(s.round_no + 1, dealer, seat, RANKS[rank], tuple(c.deck))]
    starter = c.deck[sum(sizes) if sizes else seats * rules.hand_size]
    first = next_seat(s, dealer, CLOCKWISE)
    winner = s.round_winner
    if rules.first_player == "round_winner" and winner >= 0 and not out >> winner & 1:
        first = winner
    direction, debt, phase = CLOCKWISE, 0, PLAY
    turn = first
    if rules.starter_acts:
        # the starter acts as if the seat before the first player (the dealer, in club) had
        # played it. Reading: so a starter that skips passes over the round's winner too.
        opener = next_seat(s, first, -CLOCKWISE)
        if book.reverses[starter]:
            direction = -direction
        debt = book.debt_of[starter]
        turn = next_seat(s, opener, direction)
        if book.skips[starter]:
            turn = next_seat(s, turn, direction)
        if book.wild >> starter & 1:
            phase = NAMING_SUIT
    return [RoundDealt(s.round_no + 1, dealer, tuple(c.deck), turn, debt, direction, phase, sizes)]


def _deal_sizes(s: State) -> tuple[int, ...]:
    """Per seat, the cards this deal gives, when hands differ; () when each gets ``hand_size``."""
    if not s.out and not s.hand_sizes:
        return ()
    sizes = s.hand_sizes or [s.book.rules.hand_size] * s.seats
    return tuple([0 if s.out >> seat & 1 else size for seat, size in enumerate(sizes)])


def _name_suit(s: State, c: NameSuit) -> list[Event]:
    if s.phase != NAMING_SUIT:
        raise phase_refusal(s, "no_suit_to_name")
    check_seat(s, c.seat)
    if c.seat != s.dealer:
        raise RuleError("not_your_turn", why="dealer_names_suit")
    check_suit(c.suit)
    return [SuitNamed(c.seat, c.suit)]
