"""The engine's plays: a card played (``play_card``: the usual play, with its checks inline for
speed), several cards of one rank (``quick``), a card face down (``blind``) and its challenge, a
card's effect on the turn, the debt and the others' hands, and the player a card lets choose."""

from service.domain.cards import (
    CARD_BITS,
    CARD_COUNT,
    alike,
    format_card,
)
from service.domain.commands import (
    ChallengeDeclaration,
    ChoosePlayer,
    PlayCard,
)
from service.domain.draws import draw_cards
from service.domain.errors import RuleError
from service.domain.events import (
    CardPlayed,
    CardsDrawn,
    DeclarationChallenged,
    Event,
    PlayerChosen,
)
from service.domain.refusals import check_seat, phase_refusal
from service.domain.round_end import round_end, window_closes
from service.domain.rulebook import MAU, MAU_MAU, NO_CALL, Rulebook
from service.domain.rulesets import BLIND_PENALTY
from service.domain.state import (
    CHOOSING,
    DEAL,
    DRAWN,
    EFFECT,
    NEW,
    OVER,
    PENALTY,
    PLAY,
    RECYCLE,
    State,
    next_seat,
)


def play_card(s: State, c: PlayCard) -> list[Event]:
    if c.declared != -1:
        return _play_declared(s, c)
    if c.more:
        return _play_several(s, c)
    seat, card = c.seat, c.card
    phase = s.phase
    # The usual play passes these four checks at once; a refusal finds its reason below.
    if seat != s.turn or not (phase == PLAY or (phase == DRAWN and card == s.drawn)):
        raise _play_refusal(s, c)
    if not 0 <= card < CARD_COUNT:
        raise _play_refusal(s, c)
    book = s.book
    hand = s.hands[seat]
    debt = s.debt
    bit = CARD_BITS[card]
    if not hand & bit & (book.answers_to[s.shown] if debt else s.follow):
        raise _play_refusal(s, c)
    if hand == bit and bit & book.no_finish:
        raise RuleError("cannot_go_out", card=format_card(card))
    suit = c.suit
    if book.is_wild[card]:
        if not 0 <= suit < 4:
            raise RuleError("suit_required")
    elif suit != -1:
        raise RuleError("suit_not_allowed", card=format_card(card))

    left = hand.bit_count() - 1
    call = c.call
    missed = NO_CALL
    if left < 2 or call:
        due = book.calls_due[left][card] if left < 2 else NO_CALL
        if call != due:
            if call == NO_CALL or (call == MAU and due == MAU_MAU):
                missed = due
            else:
                raise RuleError("call_not_due")

    seats, direction = s.seats, s.direction
    skipped = -1
    phase = PLAY
    # an ordinary card is plain too: tested first, as it is most plays
    if book.is_ordinary[card] and not s.out:
        turn = (seat + direction) % seats
        if left and s.missed is None:  # most plays: no effect, no round end, no window to close
            return [CardPlayed(seat, card, suit, call, missed, turn, debt, direction, skipped, phase)]
    elif s.out or not book.is_plain[card]:
        turn, debt, direction, skipped, phase = _effect(s, seat, card, debt, left == 0)
    else:
        debt += book.debt_of[card]
        if book.reverses[card]:
            direction = -direction
        turn = (seat + direction) % seats
        if book.skips[card]:
            skipped = turn
            turn = (turn + direction) % seats
        if left == 0 and turn == seat:
            # an empty-handed player awaiting a challenge is passed over, so the
            # seat the 8 skipped (two players) moves after all
            turn = (turn + direction) % seats
            skipped = -1
    played = CardPlayed(seat, card, suit, call, missed, turn, debt, direction, skipped, phase)
    if left == 0 and not missed:
        hands = s.hands.copy()
        hands[seat] = 0
        return [played, *round_end(s, seat, "went_out", hands, card)]
    events: list[Event] = [played]
    if book.others_draw[card]:
        events += _others_draw(s, seat, book.others_draw[card], turn, phase)
    if s.missed is not None:
        hands = s.hands.copy()
        hands[seat] = hand ^ bit
        return [*events, *window_closes(s, hands)]
    return events


def _play_several(s: State, c: PlayCard) -> list[Event]:
    """A play of several cards of one rank (``quick``): ``c.card`` at the bottom, ``c.more`` on it.

    The bottom card must be playable; the top card's effect counts once, every card's draw adds
    to the debt, and with ``quick_skips_add`` every skipping card skips one more player.
    """
    seat, card = c.seat, c.card
    if s.phase != PLAY or seat != s.turn or not 0 <= card < CARD_COUNT:
        raise _play_refusal(s, c)
    book = s.book
    if not book.rules.quick:
        raise RuleError("several_cards_not_allowed", ruleset=book.rules.name)
    hand = s.hands[seat]
    cards = (card, *c.more)
    same_rank = book.rank_mask[card]  # the deck's cards of the bottom's rank: a held card is in the deck
    cancels, debt_of, skips_of = book.cancels, book.debt_of, book.skips
    played = added = skips = 0
    cancelled = False
    # one pass checks each card and adds up what the cards do together
    for other in cards:
        if not 0 <= other < CARD_COUNT:
            raise RuleError("malformed_card", why="not_card", card=other)
        if not hand >> other & 1:
            raise RuleError("card_not_in_hand", why="card", card=format_card(other))
        if played >> other & 1:
            raise RuleError("card_repeated", card=format_card(other))
        if not same_rank >> other & 1:
            raise RuleError("cards_of_different_ranks")
        played |= CARD_BITS[other]
        cancelled = cancelled or cancels[other]
        added += debt_of[other]
        skips += skips_of[other]
    debt = s.debt
    if not hand & CARD_BITS[card] & (book.answers_to[s.shown] if debt else s.follow):
        raise _play_refusal(s, c)
    top = cards[-1]
    if hand == played and CARD_BITS[top] & book.no_finish:
        raise RuleError("cannot_go_out", card=format_card(top))
    suit, call = c.suit, c.call
    _check_named_suit(book, top, suit)
    left = hand.bit_count() - len(cards)
    missed = _missed_call(book, left, top, call)
    debt = (0 if cancelled else debt) + added
    if not book.rules.quick_skips_add:
        skips = skips_of[top]
    turn, direction, skipped, phase = _several_moves_on(s, seat, top, skips, left == 0)
    event = CardPlayed(seat, card, suit, call, missed, turn, debt, direction, skipped, phase, c.more)
    if left == 0 and not missed:
        hands = s.hands.copy()
        hands[seat] = 0
        return [event, *round_end(s, seat, "went_out", hands, top)]
    return _after_play(s, event, top, hand ^ played)


def _play_declared(s: State, c: PlayCard) -> list[Event]:
    """A card played face down as the card ``c.declared`` (``blind``): the declared card must be
    one that may be played now, the real one only held; the play acts as the declared card.

    Reading: a hand's last card, a drawn card and a play of several cards are played face up.
    """
    seat, card, declared = c.seat, c.card, c.declared
    if s.phase != PLAY or seat != s.turn or not 0 <= card < CARD_COUNT:
        if s.phase == DRAWN and seat == s.turn:
            raise RuleError("drawn_card_face_up")
        raise _play_refusal(s, c)
    book = s.book
    if not book.rules.blind:
        raise RuleError("declaration_not_allowed", ruleset=book.rules.name)
    if c.more:
        raise RuleError("several_cards_face_up")
    hand = s.hands[seat]
    if not hand >> card & 1:
        raise RuleError("card_not_in_hand", why="card", card=format_card(card))
    if not 0 <= declared < CARD_COUNT:
        raise RuleError("malformed_card", why="not_card", card=declared)
    if not book.deck_mask >> declared & 1:
        raise RuleError(
            "card_not_in_deck", why="plays_without", ruleset=book.rules.name, card=format_card(declared)
        )
    if hand == CARD_BITS[card]:
        raise RuleError("last_card_face_up")
    debt = s.debt
    if not CARD_BITS[declared] & (book.answers_to[s.shown] if debt else s.follow):
        if debt:
            raise RuleError("debt_pending", debt=debt)
        raise RuleError("card_does_not_match", name=format_card(declared))
    suit, call = c.suit, c.call
    _check_named_suit(book, declared, suit)
    missed = _missed_call(book, hand.bit_count() - 1, declared, call)
    turn, debt, direction, skipped, phase = _effect(s, seat, declared, debt, False)
    played = CardPlayed(seat, card, suit, call, missed, turn, debt, direction, skipped, phase, (), declared)
    return _after_play(s, played, declared, hand ^ CARD_BITS[card])


# The modifiers' plays share these steps with ``play_card``, which keeps its own copy inline: a call
# more on every ordinary play costs club's decisions per second.


def _check_named_suit(book: Rulebook, card: int, suit: int) -> None:
    """A wild ``card`` names a suit; any other names none."""
    if book.is_wild[card]:
        if not 0 <= suit < 4:
            raise RuleError("suit_required")
    elif suit != -1:
        raise RuleError("suit_not_allowed", card=format_card(card))


def _missed_call(book: Rulebook, left: int, card: int, call: int) -> int:
    """The call a play of ``card`` leaving ``left`` cards missed (NO_CALL: none); one not due is refused."""
    due = book.calls_due[left][card] if left < 2 else NO_CALL
    if call == due:
        return NO_CALL
    if call == NO_CALL or (call == MAU and due == MAU_MAU):
        return due
    raise RuleError("call_not_due")


def _after_play(s: State, played: CardPlayed, acting: int, rest: int) -> list[Event]:
    """A play that did not end the round, acting as ``acting``, leaving the player ``rest``: the
    others draw, and a missed call's window closes."""
    events: list[Event] = [played]
    others = s.book.others_draw[acting]
    if others:
        events += _others_draw(s, played.seat, others, played.turn, played.phase)
    if s.missed is not None:
        hands = s.hands.copy()
        hands[played.seat] = rest
        return [*events, *window_closes(s, hands)]
    return events


def challenge_declaration(s: State, c: ChallengeDeclaration) -> list[Event]:
    if s.phase in (NEW, DEAL, OVER, RECYCLE):
        raise phase_refusal(s, "")
    check_seat(s, c.seat)
    if s.doubt is None or s.phase != PLAY:
        raise RuleError("nothing_to_challenge", why="no_face_down")
    player, challenger = s.doubt
    if c.seat != challenger:
        raise RuleError("not_your_turn", why="next_player_challenge")
    card = s.discard[-1]
    lied = not alike(s.declared) >> card & 1
    loser = player if lied else c.seat
    challenged = DeclarationChallenged(c.seat, player, card, s.declared, lied)
    return [challenged, *draw_cards(s, loser, BLIND_PENALTY, PENALTY, True, PLAY)]


def _several_moves_on(s: State, seat: int, top: int, skips: int, emptied: bool) -> tuple[int, int, int, int]:
    """(turn, direction, skipped, phase) after a play of several cards with ``top`` on top.

    Reading: each skip passes over the next seat in the match, the player of the cards
    included, so two aces between two players give the turn back to the other player.
    """
    book = s.book
    direction = -s.direction if book.reverses[top] else s.direction
    if not emptied and (book.again[top] or book.choose_drawer[top]):
        return seat, direction, -1, CHOOSING if book.choose_drawer[top] else PLAY
    turn = next_seat(s, seat, direction)
    skipped = -1
    for _ in range(skips):
        if skipped == -1:
            skipped = turn
        turn = next_seat(s, turn, direction)
    if emptied and turn == seat:
        turn = next_seat(s, turn, direction)
        skipped = -1
    return turn, direction, skipped, PLAY


def _effect(s: State, seat: int, card: int, debt: int, emptied: bool) -> tuple[int, int, int, int, int]:
    """(turn, debt, direction, skipped, phase) after ``card``'s play: every effect, every seat out.

    A player left with no card (awaiting a challenge) neither plays again nor chooses.
    """
    book = s.book
    direction = s.direction
    if book.cancels[card]:
        debt = 0
    debt += book.debt_of[card]
    if book.reverses[card]:
        direction = -direction
    if not emptied and (book.again[card] or book.choose_drawer[card]):
        return seat, debt, direction, -1, CHOOSING if book.choose_drawer[card] else PLAY
    turn = next_seat(s, seat, direction)
    skipped = -1
    if book.skips[card] and not book.skip_waits[card]:  # a waiting skip lands when it is taken
        skipped = turn
        turn = next_seat(s, turn, direction)
    if emptied and turn == seat:
        turn = next_seat(s, turn, direction)
        skipped = -1
    return turn, debt, direction, skipped, PLAY


def _others_draw(s: State, seat: int, count: int, turn: int, phase: int) -> list[Event]:
    """Every other player in the match draws ``count``, in the order of play from ``seat``.

    The draws take what the stock holds, without recycling: a player the stock no longer
    reaches draws less or nothing.
    """
    stock = s.stock
    at = len(stock)
    events: list[Event] = []
    other = next_seat(s, seat, s.direction)
    while other != seat and at:
        cards = tuple(reversed(stock[max(0, at - count) : at]))
        at -= len(cards)
        events.append(CardsDrawn(other, cards, EFFECT, turn, phase))
        other = next_seat(s, other, s.direction)
    return events


def _play_refusal(s: State, c: PlayCard) -> RuleError:
    if s.phase != PLAY and s.phase != DRAWN:
        return phase_refusal(s, "")
    check_seat(s, c.seat)
    if c.seat != s.turn:
        return RuleError("not_your_turn", why="turn")
    if not 0 <= c.card < CARD_COUNT:
        return RuleError("malformed_card", why="not_card", card=c.card)
    name = format_card(c.card)
    if not s.hands[c.seat] >> c.card & 1:
        return RuleError("card_not_in_hand", why="card", card=name)
    if s.phase == DRAWN:
        return RuleError("only_drawn_card")
    if s.debt:
        return RuleError("debt_pending", debt=s.debt)
    if s.skip_due:
        return RuleError("skip_pending")
    return RuleError("card_does_not_match", name=name)


def choose_player(s: State, c: ChoosePlayer) -> list[Event]:
    if s.phase != CHOOSING:
        raise phase_refusal(s, "nothing_to_choose")
    check_seat(s, c.seat)
    if c.seat != s.turn:
        raise RuleError("not_your_turn", why="player_card_chooses")
    check_seat(s, c.chosen)
    if c.chosen == c.seat or s.out >> c.chosen & 1:
        raise RuleError("invalid_choice")
    turn = next_seat(s, c.seat, s.direction)
    count = s.book.choose_drawer[s.shown]
    cards = tuple(reversed(s.stock[-count:]))
    chosen = PlayerChosen(c.seat, c.chosen, turn)
    # Reading: the draw takes what the stock holds, without recycling
    return [chosen, CardsDrawn(c.chosen, cards, EFFECT, turn, PLAY)] if cards else [chosen]
