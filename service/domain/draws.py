"""The engine's draws: a turn's draw (or the skip or debt it takes), keeping the drawn card,
challenging a missed call, a referee's penalty, the stock recycled for a draw, and the steps they
share (``draw_cards``: a draw the stock cannot give runs it out, or stops the round)."""

from service.domain.cards import (
    CARD_BITS,
    CARD_COUNT,
    format_card,
)
from service.domain.commands import (
    Challenge,
    DrawCard,
    GivePenalty,
    KeepCard,
    RecycleStock,
)
from service.domain.errors import RuleError
from service.domain.events import (
    CardKept,
    CardsDrawn,
    Event,
    MissedCallChallenged,
    SkipTaken,
    StockRanOut,
    StockRecycled,
    TurnPassed,
)
from service.domain.refusals import check_seat, phase_refusal
from service.domain.round_end import round_end, window_closes
from service.domain.state import (
    DEAL,
    DEBT,
    DRAWN,
    NEW,
    OVER,
    PENALTY,
    PLAY,
    RECYCLE,
    TURN,
    State,
    next_seat,
)


def draw_card(s: State, c: DrawCard) -> list[Event]:
    seat = c.seat
    if s.phase != PLAY or seat != s.turn:
        if s.phase == PLAY or s.phase == DRAWN:
            check_seat(s, seat)
            if seat != s.turn:
                raise RuleError("not_your_turn", why="turn")
        raise phase_refusal(s, "already_drew")
    if s.skip_due:
        taken = SkipTaken(seat, next_seat(s, seat, s.direction))
        if s.missed is None:
            return [taken]
        # taking the skip completes the turn after a missed call: its window closes (an empty hand wins)
        return [taken, *window_closes(s, s.hands)]
    if s.debt:
        return draw_cards(s, seat, s.debt, DEBT, True, PLAY)
    if s.passing:
        raise RuleError("draw_not_allowed", why="you_play_again")
    follow = s.follow
    book = s.book
    hand = s.hands[seat]
    playable = hand & follow
    if playable & book.no_finish and not hand & (hand - 1):
        playable = 0  # a last card that may not end the hand is no play
    mandatory = not playable
    if not mandatory and not book.voluntary_draw:
        raise RuleError("draw_not_allowed", why="you_hold_playable")
    stock = s.stock
    if stock and book.draw_until_playable:
        return _draw_until_playable(s, seat)
    if stock and s.missed is None and not s.out:
        # the everyday draw, without the detours of draw_cards
        card = stock[-1]
        if follow & CARD_BITS[card] and book.play_drawn_card:
            return [CardsDrawn(seat, _ONE_CARD[card], TURN, seat, DRAWN)]
        return [CardsDrawn(seat, _ONE_CARD[card], TURN, (seat + s.direction) % s.seats, PLAY)]
    return draw_cards(s, seat, 1, TURN, mandatory, PLAY)


def _draw_until_playable(s: State, seat: int) -> list[Event]:
    """Draw from the stock until a playable card comes; a stock run out ends the search."""
    follow = s.follow
    cards: list[int] = []
    for card in reversed(s.stock):
        cards.append(card)
        if follow & CARD_BITS[card]:
            break
    return _drawn(s, seat, tuple(cards), TURN, PLAY)


def keep_card(s: State, c: KeepCard) -> list[Event]:
    if s.phase != DRAWN:
        if s.passing and s.phase == PLAY:
            if c.seat != s.turn:
                check_seat(s, c.seat)
                raise RuleError("not_your_turn", why="turn")
            # after a card that lets its player play again if they like: the turn ends here
            return [TurnPassed(c.seat, next_seat(s, c.seat, s.direction))]
        raise phase_refusal(s, "nothing_to_keep")
    if c.seat != s.turn:
        check_seat(s, c.seat)
        raise RuleError("not_your_turn", why="turn")
    if s.covering:
        covered = format_card(s.shown)  # a face-down card (blind) as declared
        raise RuleError("must_cover", covered=covered)
    kept = CardKept(c.seat, next_seat(s, c.seat, s.direction))
    if s.missed is not None:
        return [kept, *window_closes(s, s.hands)]
    return [kept]


def challenge(s: State, c: Challenge) -> list[Event]:
    if s.phase in (NEW, OVER, RECYCLE):
        raise phase_refusal(s, "")
    check_seat(s, c.seat)
    if s.missed is None:
        raise RuleError("nothing_to_challenge", why="no_missed_call")
    offender, call = s.missed
    if c.seat == offender:
        raise RuleError("cannot_challenge_self")
    if s.out >> c.seat & 1:
        raise RuleError("seat_out", why="player_out_match")
    events: list[Event] = [MissedCallChallenged(c.seat, offender, call)]
    penalty = s.book.rules.call_penalty
    if penalty:
        events += draw_cards(s, offender, penalty, PENALTY, True, s.phase)
    return events


def give_penalty(s: State, c: GivePenalty) -> list[Event]:
    if s.phase in (NEW, DEAL, RECYCLE, OVER):
        raise phase_refusal(s, "")
    check_seat(s, c.seat)
    if c.count < 1:
        raise RuleError("invalid_penalty")
    # not mandatory: a penalty the stock cannot give is refused, the round goes on
    return draw_cards(s, c.seat, c.count, PENALTY, False, s.phase)


def recycle_stock(s: State, c: RecycleStock) -> list[Event]:
    if s.phase != RECYCLE:
        raise phase_refusal(s, "no_shuffle_due")
    order = tuple(c.order)
    if sorted(order) != sorted(s.discard[:-1]):
        raise RuleError("invalid_recycle")
    pending = s.pending
    assert pending is not None
    stock = list(reversed(order)) + s.stock
    cards = tuple(reversed(stock[-pending.count :]))
    return [
        StockRecycled(order),
        *_drawn(s, pending.seat, cards, pending.reason, pending.resume_phase),
    ]


def draw_cards(
    s: State, seat: int, count: int, reason: int, mandatory: bool, resume_phase: int
) -> list[Event]:
    stock = s.stock
    if len(stock) >= count:
        cards = (stock[-1],) if count == 1 else tuple(reversed(stock[-count:]))
        return _drawn(s, seat, cards, reason, resume_phase)
    if drawable(s) >= count:
        if mandatory and s.book.rules.stalled_round_ends and s.recycled_hands == s.hands:
            # since the last recycle every card drawn went back on the pile: no card of the draw
            # moves and the round stops, as when the stock is exhausted
            return round_end(s, -1, "stalled", s.hands, -1)
        return [StockRanOut(seat, count, reason)]
    if mandatory:
        # the draw cannot be made in full: no card of it moves, the round stops
        return round_end(s, -1, "stock_exhausted", s.hands, -1)
    raise RuleError("stock_exhausted")


def _drawn(s: State, seat: int, cards: tuple[int, ...], reason: int, resume_phase: int) -> list[Event]:
    if reason >= PENALTY:
        return [CardsDrawn(seat, cards, reason, s.turn, resume_phase)]
    if reason == TURN and s.book.play_drawn_card and s.follow >> cards[-1] & 1:
        kept_open = CardsDrawn(seat, cards, TURN, seat, DRAWN)
        if s.missed is None or not s.book.window_closes_on_draw:
            return [kept_open]
        return [kept_open, *window_closes(s, _with_cards(s.hands, seat, cards))]
    if reason == DEBT and not s.book.debt_skips[s.shown]:
        turn = seat  # the debt's drawer plays on
    else:
        turn = next_seat(s, seat, s.direction) if s.out else (seat + s.direction) % s.seats
    drawn = CardsDrawn(seat, cards, reason, turn, PLAY)
    if s.missed is None:
        return [drawn]
    return [drawn, *window_closes(s, _with_cards(s.hands, seat, cards))]


def _with_cards(hands: list[int], seat: int, cards: tuple[int, ...]) -> list[int]:
    """The hands after ``seat`` draws ``cards``."""
    hands = hands.copy()
    for c in cards:
        hands[seat] |= 1 << c
    return hands


# the cards of a one-card draw, made once per card (events are immutable)
_ONE_CARD: tuple[tuple[int], ...] = tuple((card,) for card in range(CARD_COUNT))


def drawable(s: State) -> int:
    """How many cards a draw can get: the stock, then the discards under the top card."""
    return len(s.stock) + len(s.discard) - 1
