"""What a seat may do now: ``legal_actions`` (from the rulebook's memos), the call a play owes
(``call_due``), and the state's other questions (chance next, over, the returns)."""

from service.domain.actions import (
    CHALLENGE,
    CHALLENGE_DECLARATION,
    CHOOSE,
    FACE_DOWN_STEP,
    KEEP,
    NAME_SUIT,
)
from service.domain.cards import (
    CARD_BITS,
    cards_in,
)
from service.domain.draws import drawable
from service.domain.rulebook import NO_CALL
from service.domain.state import (
    CHOOSING,
    DEAL,
    DRAWN,
    NAMING_SUIT,
    OVER,
    PLAY,
    RECYCLE,
    State,
)


def legal_actions(s: State, seat: int) -> tuple[int, ...]:
    """Every action the rules allow this seat now (a seat not on turn may only challenge)."""
    phase = s.phase
    if seat != s.turn:
        if phase == NAMING_SUIT:
            return _SUITS_TO_NAME if seat == s.dealer else ()
        actions: tuple[int, ...] = ()
    elif phase == PLAY:
        book = s.book
        hand = s.hands[seat]
        if s.debt:
            # answer the debt (club: with a seven), or draw it
            answers = hand & book.answers_to[s.shown]
            if answers & book.no_finish and not hand & (hand - 1):
                answers = 0  # its last card may not end the hand
            actions = book.plays_and_draw.get(answers) or book.plays_and_draw_for(answers)
            if book.modified:
                actions = _modified_plays(s, seat, actions, answers)
        elif book.plain_turns:
            try:
                actions = book.plays_else_draw[hand & s.follow]
            except KeyError:  # a mask not met before
                actions = book.plays_else_draw_for(hand & s.follow)
        else:
            playable = hand & s.follow
            if playable & book.no_finish and not hand & (hand - 1):
                playable = 0  # a last card that may not end the hand: draw instead
            # facing a waiting skip, the draw takes it
            if s.skip_due or (playable and book.voluntary_draw and drawable(s)):
                actions = book.plays_and_draw.get(playable) or book.plays_and_draw_for(playable)
            else:
                try:
                    actions = book.plays_else_draw[playable]
                except KeyError:  # a mask not met before
                    actions = book.plays_else_draw_for(playable)
            if book.turn_extras:
                if s.passing:  # playing again is a choice: the turn may end here, with no draw
                    actions = (*book.plays_of(playable), KEEP)
                if book.blind:
                    actions = _modified_plays(s, seat, actions, playable)
                elif book.quick:  # quick alone: most turns no two cards share a playable rank
                    bottoms, rank_mask = playable, book.rank_mask
                    while bottoms:
                        low = bottoms & -bottoms
                        if hand & rank_mask[low.bit_length() - 1] != low:
                            # from this card up: the cards below it have no other of their rank
                            actions = _modified_plays(s, seat, actions, bottoms)
                            break
                        bottoms ^= low
    elif phase == DRAWN:
        book, drawn = s.book, s.drawn
        if book.no_finish >> drawn & 1 and s.hands[seat] == CARD_BITS[drawn]:
            # drawn into an empty hand (a missed call challenged at no penalty) and no last card
            actions = _KEEP_ONLY
        else:
            # a card drawn to cover the player's own card that must be covered is played, not kept
            actions = (book.drawn_card_plays if s.covering else book.drawn_card_moves)[drawn]
    elif phase == NAMING_SUIT:
        return _SUITS_TO_NAME if seat == s.dealer else ()
    elif phase == CHOOSING:
        out = s.out | 1 << seat
        actions = tuple(CHOOSE + other for other in range(s.seats) if not out >> other & 1)
    else:
        actions = ()
    missed = s.missed
    if missed is not None and missed[0] != seat and phase in _CHALLENGE_PHASES and not s.out >> seat & 1:
        return (*actions, CHALLENGE)
    return actions


def _modified_plays(s: State, seat: int, actions: tuple[int, ...], playable: int) -> tuple[int, ...]:
    """The seat on turn's ``actions`` with what the modifiers add: with ``quick`` the plays of
    several cards on each ``playable`` card; with ``blind`` each held card face down as any card it
    may be declared as now (a hand's last card is played face up), and the challenge of the
    face-down card before the seat.

    Both come from the rulebook's memos, so a turn costs a lookup per playable card and, with
    ``blind``, one action built per face-down play."""
    book = s.book
    hand = s.hands[seat]
    found: list[int] | None = None
    if book.quick:
        rank_mask, several_on = book.rank_mask, book.several_on
        bottoms = playable
        while bottoms:  # lowest card first, without a generator: this runs on every quick turn
            low = bottoms & -bottoms
            bottoms ^= low
            bottom = low.bit_length() - 1
            group = hand & rank_mask[bottom]
            if group == low:
                continue  # the usual card: no other of its rank in the hand
            key = group if group != hand else ~group
            plays = several_on[bottom].get(key)
            if plays is None:
                plays = book.several_plays_for(bottom, group, key)
            if found is None:
                found = list(actions)
            found += plays
    if not book.blind:
        return actions if found is None else tuple(found)
    if found is None:
        found = list(actions)
    if hand & (hand - 1):
        declarable = book.deck_mask & (book.answers_to[s.shown] if s.debt else s.follow)
        declared = book.declared_plays.get(declarable)
        if declared is None:
            declared = book.declared_plays_for(declarable)
        steps = [FACE_DOWN_STEP * card for card in cards_in(hand)]
        found += [step + play for plays in declared for step in steps for play in plays]
    if s.doubt is not None and s.doubt[1] == seat:
        found.append(CHALLENGE_DECLARATION)
    return tuple(found)


_SUITS_TO_NAME = tuple(NAME_SUIT + suit for suit in range(4))
_KEEP_ONLY = (KEEP,)
_CHALLENGE_PHASES = (PLAY, DRAWN, CHOOSING)  # a missed call may be challenged while the round is played


def call_due(s: State, seat: int, card: int, count: int = 1) -> int:
    """The call that playing ``card`` now owes (MAU, MAU_MAU or NO_CALL), on top of ``count`` cards."""
    left = s.hands[seat].bit_count() - count
    return s.book.calls_due[left][card] if left < 2 else NO_CALL


def is_chance(s: State) -> bool:
    """The next step is a shuffle from outside: a deal or a recycle."""
    return s.phase == DEAL or s.phase == RECYCLE


def is_terminal(s: State) -> bool:
    return s.phase == OVER


def returns(s: State) -> list[float]:
    """1 for each winner, shared equally; 0 for the others (OpenSpiel's convention)."""
    if s.phase != OVER:
        return [0.0] * s.seats
    share = 1.0 / len(s.winners)
    return [share if seat in s.winners else 0.0 for seat in range(s.seats)]


def recyclable(s: State) -> list[int]:
    """The cards a recycle shuffles: the discards under the top card."""
    return s.discard[:-1]
