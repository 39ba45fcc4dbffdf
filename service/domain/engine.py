"""The engine: a pure decider over any ruleset.

``decide(state, command)`` returns the events a command causes or raises a
``RuleError`` with a stable code; ``evolve(state, event)`` applies one event.
A state is the fold of its events. Nothing here does I/O or draws a random
number: deals and recycles arrive as data in ``DealRound`` / ``RecycleStock``.
"""

from collections.abc import Iterable
from typing import assert_never

from service.domain.actions import (
    BLIND_PLAY,
    CHALLENGE,
    CHALLENGE_DECLARATION,
    CHOOSE,
    DRAW,
    FACE_DOWN_STEP,
    KEEP,
    NAME_SUIT,
    SEVERAL_PLAY,
    WILD_PLAY,
    blind_play,
    several_cards,
)
from service.domain.cards import (
    CARD_BITS,
    CARD_COUNT,
    RANKS,
    alike,
    cards_in,
    format_card,
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
from service.domain.errors import RuleError
from service.domain.events import (
    CardKept,
    CardPlayed,
    CardsDrawn,
    DealAnnulled,
    DeclarationChallenged,
    DeclarationsRevealed,
    EndReason,
    Event,
    HandShrank,
    MatchEnded,
    MatchStarted,
    MissedCallChallenged,
    PlayerChosen,
    PlayerEliminated,
    RoundDealt,
    RoundEnded,
    SkipTaken,
    StockRanOut,
    StockRecycled,
    SuitNamed,
    TurnPassed,
)
from service.domain.round_scoring import hand_value, round_losers, round_points
from service.domain.rulebook import MAU, MAU_MAU, NO_CALL, Rulebook
from service.domain.rulesets import BLIND_PENALTY, Ruleset, check, check_table
from service.domain.state import (
    CHOOSING,
    CLOCKWISE,
    DEAL,
    DEBT,
    DRAWN,
    EFFECT,
    NAMING_SUIT,
    NEW,
    OVER,
    PENALTY,
    PLAY,
    RECYCLE,
    TURN,
    State,
)


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


# ---------------------------------------------------------------------------
# decide


def decide(s: State, command: Command) -> list[Event]:
    # Plays and draws are nearly every command: an identity test of the type each (a class
    # pattern is an isinstance call, 5% of a club command's instructions) before the exhaustive
    # match. A call site of its own per command keeps the interpreter's call specialised (one
    # shared call to many functions is not).
    if type(command) is PlayCard:
        return _play(s, command)
    if type(command) is DrawCard:
        return _draw(s, command)
    match command:
        case PlayCard():
            return _play(s, command)
        case DrawCard():
            return _draw(s, command)
        case KeepCard():
            return _keep(s, command)
        case DealRound():
            return _deal(s, command)
        case RecycleStock():
            return _recycle(s, command)
        case NameSuit():
            return _name_suit(s, command)
        case ChoosePlayer():
            return _choose(s, command)
        case Challenge():
            return _challenge(s, command)
        case ChallengeDeclaration():
            return _challenge_declaration(s, command)
        case GivePenalty():
            return _give_penalty(s, command)
        case StartMatch():
            return _start(s, command)
        case ScoreRound():
            return _score(s, command)
        case _:
            assert_never(command)


def evolve(s: State, event: Event) -> State:
    event.apply(s)
    return s


def fold(events: Iterable[Event], s: State | None = None) -> State:
    s = State() if s is None else s
    for event in events:
        event.apply(s)
    return s


def _start(s: State, c: StartMatch) -> list[Event]:
    if s.phase != NEW:
        raise RuleError("match_already_started", "this match has already started")
    check(c.rules)
    check_table(c.rules, c.seats)
    if not 0 <= c.first_dealer < c.seats:
        raise RuleError("not_a_seat", f"seat {c.first_dealer} is not at this table")
    return [MatchStarted(c.rules, c.seats, c.first_dealer)]


def _deal(s: State, c: DealRound) -> list[Event]:
    if s.phase != DEAL:
        raise _refusal(s, "round_in_progress", "a round is being played")
    book = s.book
    if sorted(c.deck) != book.sorted_deck:
        raise RuleError("invalid_deck", f"the deck must be the {len(book.deck)} cards of the ruleset")
    rules = book.rules
    seats, out = s.seats, s.out
    dealer = s.next_dealer if not out >> s.next_dealer & 1 else _next(s, s.next_dealer, CLOCKWISE)
    sizes = _deal_sizes(s)
    if rules.redeal_four_of_a_kind:
        hands = dealt_hands(seats, dealer, c.deck, sizes or (rules.hand_size,) * seats)
        for seat, hand in enumerate(hands):
            rank = four_of_a_kind(hand)
            if rank >= 0:
                return [DealAnnulled(s.round_no + 1, dealer, seat, RANKS[rank], tuple(c.deck))]
    starter = c.deck[sum(sizes) if sizes else seats * rules.hand_size]
    first = _next(s, dealer, CLOCKWISE)
    winner = s.round_winner
    if rules.first_player == "round_winner" and winner >= 0 and not out >> winner & 1:
        first = winner
    direction, debt, phase = CLOCKWISE, 0, PLAY
    turn = first
    if rules.starter_acts:
        # the starter acts as if the seat before the first player (the dealer, in club) had
        # played it. Reading: so a starter that skips passes over the round's winner too.
        opener = _next(s, first, -CLOCKWISE)
        if book.reverses[starter]:
            direction = -direction
        debt = book.debt_of[starter]
        turn = _next(s, opener, direction)
        if book.skips[starter]:
            turn = _next(s, turn, direction)
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
        raise _refusal(s, "no_suit_to_name", "no suit is waiting to be named")
    _check_seat(s, c.seat)
    if c.seat != s.dealer:
        raise RuleError("not_your_turn", "the dealer names the suit for the starter")
    _check_suit(c.suit)
    return [SuitNamed(c.seat, c.suit)]


def _play(s: State, c: PlayCard) -> list[Event]:
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
        raise RuleError("cannot_go_out", f"{format_card(card)} may not be the last card: draw instead")
    suit = c.suit
    if book.is_wild[card]:
        if not 0 <= suit < 4:
            raise RuleError("suit_required", "name a suit with a wild card")
    elif suit != -1:
        raise RuleError("suit_not_allowed", f"{format_card(card)} does not name a suit")

    left = hand.bit_count() - 1
    call = c.call
    missed = NO_CALL
    if left < 2 or call:
        due = book.calls_due[left][card] if left < 2 else NO_CALL
        if call != due:
            if call == NO_CALL or (call == MAU and due == MAU_MAU):
                missed = due
            else:
                raise RuleError("call_not_due", "that call is not due with this play")

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
        return [played, *_round_end(s, seat, "went_out", hands, card)]
    events: list[Event] = [played]
    if book.others_draw[card]:
        events += _others_draw(s, seat, book.others_draw[card], turn, phase)
    if s.missed is not None:
        hands = s.hands.copy()
        hands[seat] = hand ^ bit
        return [*events, *_window_closes(s, hands)]
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
        raise RuleError("several_cards_not_allowed", f"{book.rules.name} plays one card at a time")
    hand = s.hands[seat]
    cards = (card, *c.more)
    same_rank = book.rank_mask[card]  # the deck's cards of the bottom's rank: a held card is in the deck
    cancels, debt_of, skips_of = book.cancels, book.debt_of, book.skips
    played = added = skips = 0
    cancelled = False
    # one pass checks each card and adds up what the cards do together
    for other in cards:
        if not 0 <= other < CARD_COUNT:
            raise RuleError("malformed_card", f"{other!r} is not a card")
        if not hand >> other & 1:
            raise RuleError("card_not_in_hand", f"{format_card(other)} is not in your hand")
        if played >> other & 1:
            raise RuleError("card_repeated", f"{format_card(other)} is played once")
        if not same_rank >> other & 1:
            raise RuleError("cards_of_different_ranks", "the cards played together must be of one rank")
        played |= CARD_BITS[other]
        cancelled = cancelled or cancels[other]
        added += debt_of[other]
        skips += skips_of[other]
    debt = s.debt
    if not hand & CARD_BITS[card] & (book.answers_to[s.shown] if debt else s.follow):
        raise _play_refusal(s, c)
    top = cards[-1]
    if hand == played and CARD_BITS[top] & book.no_finish:
        raise RuleError("cannot_go_out", f"{format_card(top)} may not be the last card: draw instead")
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
        return [event, *_round_end(s, seat, "went_out", hands, top)]
    return _after_play(s, event, top, hand ^ played)


def _play_declared(s: State, c: PlayCard) -> list[Event]:
    """A card played face down as the card ``c.declared`` (``blind``): the declared card must be
    one that may be played now, the real one only held; the play acts as the declared card.

    Reading: a hand's last card, a drawn card and a play of several cards are played face up.
    """
    seat, card, declared = c.seat, c.card, c.declared
    if s.phase != PLAY or seat != s.turn or not 0 <= card < CARD_COUNT:
        if s.phase == DRAWN and seat == s.turn:
            raise RuleError("drawn_card_face_up", "a card just drawn is played face up")
        raise _play_refusal(s, c)
    book = s.book
    if not book.rules.blind:
        raise RuleError("declaration_not_allowed", f"{book.rules.name} plays every card face up")
    if c.more:
        raise RuleError("several_cards_face_up", "cards played together are played face up")
    hand = s.hands[seat]
    if not hand >> card & 1:
        raise RuleError("card_not_in_hand", f"{format_card(card)} is not in your hand")
    if not 0 <= declared < CARD_COUNT:
        raise RuleError("malformed_card", f"{declared!r} is not a card")
    if not book.deck_mask >> declared & 1:
        raise RuleError("card_not_in_deck", f"{book.rules.name} plays without {format_card(declared)}")
    if hand == CARD_BITS[card]:
        raise RuleError("last_card_face_up", "a hand's last card is played face up")
    debt = s.debt
    if not CARD_BITS[declared] & (book.answers_to[s.shown] if debt else s.follow):
        if debt:
            raise RuleError("debt_pending", f"you face a draw debt of {debt}: answer it or draw")
        raise RuleError("card_does_not_match", f"{format_card(declared)} does not match the top card")
    suit, call = c.suit, c.call
    _check_named_suit(book, declared, suit)
    missed = _missed_call(book, hand.bit_count() - 1, declared, call)
    turn, debt, direction, skipped, phase = _effect(s, seat, declared, debt, False)
    played = CardPlayed(seat, card, suit, call, missed, turn, debt, direction, skipped, phase, (), declared)
    return _after_play(s, played, declared, hand ^ CARD_BITS[card])


# The modifiers' plays share these steps with ``_play``, which keeps its own copy inline: a call
# more on every ordinary play costs club's decisions per second.


def _check_named_suit(book: Rulebook, card: int, suit: int) -> None:
    """A wild ``card`` names a suit; any other names none."""
    if book.is_wild[card]:
        if not 0 <= suit < 4:
            raise RuleError("suit_required", "name a suit with a wild card")
    elif suit != -1:
        raise RuleError("suit_not_allowed", f"{format_card(card)} does not name a suit")


def _missed_call(book: Rulebook, left: int, card: int, call: int) -> int:
    """The call a play of ``card`` leaving ``left`` cards missed (NO_CALL: none); one not due is refused."""
    due = book.calls_due[left][card] if left < 2 else NO_CALL
    if call == due:
        return NO_CALL
    if call == NO_CALL or (call == MAU and due == MAU_MAU):
        return due
    raise RuleError("call_not_due", "that call is not due with this play")


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
        return [*events, *_window_closes(s, hands)]
    return events


def _challenge_declaration(s: State, c: ChallengeDeclaration) -> list[Event]:
    if s.phase in (NEW, DEAL, OVER, RECYCLE):
        raise _refusal(s, "", "")
    _check_seat(s, c.seat)
    if s.doubt is None or s.phase != PLAY:
        raise RuleError("nothing_to_challenge", "no face-down card is open to challenge")
    player, challenger = s.doubt
    if c.seat != challenger:
        raise RuleError("not_your_turn", "only the next player may challenge the face-down card")
    card = s.discard[-1]
    lied = not alike(s.declared) >> card & 1
    loser = player if lied else c.seat
    challenged = DeclarationChallenged(c.seat, player, card, s.declared, lied)
    return [challenged, *_draw_cards(s, loser, BLIND_PENALTY, PENALTY, True, PLAY)]


def _several_moves_on(s: State, seat: int, top: int, skips: int, emptied: bool) -> tuple[int, int, int, int]:
    """(turn, direction, skipped, phase) after a play of several cards with ``top`` on top.

    Reading: each skip passes over the next seat in the match, the player of the cards
    included, so two aces between two players give the turn back to the other player.
    """
    book = s.book
    direction = -s.direction if book.reverses[top] else s.direction
    if not emptied and (book.again[top] or book.choose_drawer[top]):
        return seat, direction, -1, CHOOSING if book.choose_drawer[top] else PLAY
    turn = _next(s, seat, direction)
    skipped = -1
    for _ in range(skips):
        if skipped == -1:
            skipped = turn
        turn = _next(s, turn, direction)
    if emptied and turn == seat:
        turn = _next(s, turn, direction)
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
    turn = _next(s, seat, direction)
    skipped = -1
    if book.skips[card] and not book.skip_waits[card]:  # a waiting skip lands when it is taken
        skipped = turn
        turn = _next(s, turn, direction)
    if emptied and turn == seat:
        turn = _next(s, turn, direction)
        skipped = -1
    return turn, debt, direction, skipped, PLAY


def _next(s: State, seat: int, direction: int) -> int:
    """The next seat in ``direction`` still in the match."""
    seats, out = s.seats, s.out
    seat = (seat + direction) % seats
    while out >> seat & 1:
        seat = (seat + direction) % seats
    return seat


def _others_draw(s: State, seat: int, count: int, turn: int, phase: int) -> list[Event]:
    """Every other player in the match draws ``count``, in the order of play from ``seat``.

    The draws take what the stock holds, without recycling: a player the stock no longer
    reaches draws less or nothing.
    """
    stock = s.stock
    at = len(stock)
    events: list[Event] = []
    other = _next(s, seat, s.direction)
    while other != seat and at:
        cards = tuple(reversed(stock[max(0, at - count) : at]))
        at -= len(cards)
        events.append(CardsDrawn(other, cards, EFFECT, turn, phase))
        other = _next(s, other, s.direction)
    return events


def _play_refusal(s: State, c: PlayCard) -> RuleError:
    if s.phase != PLAY and s.phase != DRAWN:
        return _refusal(s, "", "")
    _check_seat(s, c.seat)
    if c.seat != s.turn:
        return RuleError("not_your_turn", "it is not your turn")
    if not 0 <= c.card < CARD_COUNT:
        return RuleError("malformed_card", f"{c.card!r} is not a card")
    name = format_card(c.card)
    if not s.hands[c.seat] >> c.card & 1:
        return RuleError("card_not_in_hand", f"{name} is not in your hand")
    if s.phase == DRAWN:
        return RuleError("only_drawn_card", "after drawing, only the drawn card may be played")
    if s.debt:
        return RuleError("debt_pending", f"you face a draw debt of {s.debt}: answer it or draw")
    if s.skip_due:
        return RuleError(
            "skip_pending", "you face a skip: pass it on with a card that skips, or draw to take it"
        )
    return RuleError("card_does_not_match", f"{name} does not match the top card")


def _choose(s: State, c: ChoosePlayer) -> list[Event]:
    if s.phase != CHOOSING:
        raise _refusal(s, "nothing_to_choose", "no player is waiting to be chosen")
    _check_seat(s, c.seat)
    if c.seat != s.turn:
        raise RuleError("not_your_turn", "the player of the card chooses who draws")
    _check_seat(s, c.chosen)
    if c.chosen == c.seat or s.out >> c.chosen & 1:
        raise RuleError("invalid_choice", "choose another player who is still in the match")
    turn = _next(s, c.seat, s.direction)
    count = s.book.choose_drawer[s.shown]
    cards = tuple(reversed(s.stock[-count:]))
    chosen = PlayerChosen(c.seat, c.chosen, turn)
    # Reading: the draw takes what the stock holds, without recycling
    return [chosen, CardsDrawn(c.chosen, cards, EFFECT, turn, PLAY)] if cards else [chosen]


def _draw(s: State, c: DrawCard) -> list[Event]:
    seat = c.seat
    if s.phase != PLAY or seat != s.turn:
        if s.phase == PLAY or s.phase == DRAWN:
            _check_seat(s, seat)
            if seat != s.turn:
                raise RuleError("not_your_turn", "it is not your turn")
        raise _refusal(s, "already_drew", "you have drawn already: play the drawn card or keep it")
    if s.skip_due:
        return [SkipTaken(seat, _next(s, seat, s.direction))]
    if s.debt:
        return _draw_cards(s, seat, s.debt, DEBT, True, PLAY)
    if s.passing:
        raise RuleError("draw_not_allowed", "you may play again or end the turn (keep); no card is drawn")
    follow = s.follow
    book = s.book
    hand = s.hands[seat]
    playable = hand & follow
    if playable & book.no_finish and not hand & (hand - 1):
        playable = 0  # a last card that may not end the hand is no play
    mandatory = not playable
    if not mandatory and not book.voluntary_draw:
        raise RuleError("draw_not_allowed", "you hold a playable card: play it")
    stock = s.stock
    if stock and book.draw_until_playable:
        return _draw_until_playable(s, seat)
    if stock and s.missed is None and not s.out:
        # the everyday draw, without the detours of _draw_cards
        card = stock[-1]
        if follow & CARD_BITS[card] and book.play_drawn_card:
            return [CardsDrawn(seat, _ONE_CARD[card], TURN, seat, DRAWN)]
        return [CardsDrawn(seat, _ONE_CARD[card], TURN, (seat + s.direction) % s.seats, PLAY)]
    return _draw_cards(s, seat, 1, TURN, mandatory, PLAY)


def _draw_until_playable(s: State, seat: int) -> list[Event]:
    """Draw from the stock until a playable card comes; a stock run out ends the search."""
    follow = s.follow
    cards: list[int] = []
    for card in reversed(s.stock):
        cards.append(card)
        if follow & CARD_BITS[card]:
            break
    return _drawn(s, seat, tuple(cards), TURN, PLAY)


def _keep(s: State, c: KeepCard) -> list[Event]:
    if s.phase != DRAWN:
        if s.passing and s.phase == PLAY:
            if c.seat != s.turn:
                _check_seat(s, c.seat)
                raise RuleError("not_your_turn", "it is not your turn")
            # after a card that lets its player play again if they like: the turn ends here
            return [TurnPassed(c.seat, _next(s, c.seat, s.direction))]
        raise _refusal(s, "nothing_to_keep", "keeping is for the card just drawn")
    if c.seat != s.turn:
        _check_seat(s, c.seat)
        raise RuleError("not_your_turn", "it is not your turn")
    if s.covering:
        covered = format_card(s.shown)  # a face-down card (blind) as declared
        raise RuleError("must_cover", f"the drawn card covers your {covered}: play it")
    kept = CardKept(c.seat, _next(s, c.seat, s.direction))
    if s.missed is not None:
        return [kept, *_window_closes(s, s.hands)]
    return [kept]


def _challenge(s: State, c: Challenge) -> list[Event]:
    if s.phase in (NEW, OVER, RECYCLE):
        raise _refusal(s, "", "")
    _check_seat(s, c.seat)
    if s.missed is None:
        raise RuleError("nothing_to_challenge", "no missed call is open to challenge")
    offender, call = s.missed
    if c.seat == offender:
        raise RuleError("cannot_challenge_self", "you cannot challenge your own call")
    if s.out >> c.seat & 1:
        raise RuleError("seat_out", "a player out of the match does not challenge")
    events: list[Event] = [MissedCallChallenged(c.seat, offender, call)]
    penalty = s.book.rules.call_penalty
    if penalty:
        events += _draw_cards(s, offender, penalty, PENALTY, True, s.phase)
    return events


def _give_penalty(s: State, c: GivePenalty) -> list[Event]:
    if s.phase in (NEW, DEAL, RECYCLE, OVER):
        raise _refusal(s, "", "")
    _check_seat(s, c.seat)
    if c.count < 1:
        raise RuleError("invalid_penalty", "a penalty is at least one card")
    # not mandatory: a penalty the stock cannot give is refused, the round goes on
    return _draw_cards(s, c.seat, c.count, PENALTY, False, s.phase)


def _recycle(s: State, c: RecycleStock) -> list[Event]:
    if s.phase != RECYCLE:
        raise _refusal(s, "no_shuffle_due", "the stock does not need recycling")
    order = tuple(c.order)
    if sorted(order) != sorted(s.discard[:-1]):
        raise RuleError("invalid_recycle", "the new stock must be the discards under the top card")
    pending = s.pending
    assert pending is not None
    stock = list(reversed(order)) + s.stock
    cards = tuple(reversed(stock[-pending.count :]))
    return [
        StockRecycled(order),
        *_drawn(s, pending.seat, cards, pending.reason, pending.resume_phase),
    ]


# ---------------------------------------------------------------------------
# shared steps


def _draw_cards(
    s: State, seat: int, count: int, reason: int, mandatory: bool, resume_phase: int
) -> list[Event]:
    stock = s.stock
    if len(stock) >= count:
        cards = (stock[-1],) if count == 1 else tuple(reversed(stock[-count:]))
        return _drawn(s, seat, cards, reason, resume_phase)
    if _drawable(s) >= count:
        if mandatory and s.book.rules.stalled_round_ends and s.recycled_hands == s.hands:
            # since the last recycle every card drawn went back on the pile: no card of the draw
            # moves and the round stops, as when the stock is exhausted
            return _round_end(s, -1, "stalled", s.hands, -1)
        return [StockRanOut(seat, count, reason)]
    if mandatory:
        # the draw cannot be made in full: no card of it moves, the round stops
        return _round_end(s, -1, "stock_exhausted", s.hands, -1)
    raise RuleError("stock_exhausted", "there is no card left to draw")


def _drawn(s: State, seat: int, cards: tuple[int, ...], reason: int, resume_phase: int) -> list[Event]:
    if reason >= PENALTY:
        return [CardsDrawn(seat, cards, reason, s.turn, resume_phase)]
    if reason == TURN and s.book.play_drawn_card and s.follow >> cards[-1] & 1:
        kept_open = CardsDrawn(seat, cards, TURN, seat, DRAWN)
        if s.missed is None or not s.book.window_closes_on_draw:
            return [kept_open]
        return [kept_open, *_window_closes(s, _with_cards(s.hands, seat, cards))]
    if reason == DEBT and not s.book.debt_skips[s.shown]:
        turn = seat  # the debt's drawer plays on
    else:
        turn = _next(s, seat, s.direction) if s.out else (seat + s.direction) % s.seats
    drawn = CardsDrawn(seat, cards, reason, turn, PLAY)
    if s.missed is None:
        return [drawn]
    return [drawn, *_window_closes(s, _with_cards(s.hands, seat, cards))]


def _with_cards(hands: list[int], seat: int, cards: tuple[int, ...]) -> list[int]:
    """The hands after ``seat`` draws ``cards``."""
    hands = hands.copy()
    for c in cards:
        hands[seat] |= 1 << c
    return hands


def _window_closes(s: State, hands: list[int]) -> list[Event]:
    """The turn after a missed call is complete: an unchallenged empty hand wins now."""
    assert s.missed is not None
    offender, call = s.missed
    if call == MAU_MAU and not hands[offender]:
        # nothing has covered the offender's last card yet: the turn closing the window is
        # still being decided
        return _round_end(s, offender, "window_closed", hands, s.shown)
    return []


def _round_end(s: State, winner: int, reason: EndReason, hands: list[int], last_card: int) -> list[Event]:
    book = s.book
    values = [hand_value(book, hand) for hand in hands]
    if s.face_down:  # blind: the cards still face down are turned up as the round ends
        revealed = DeclarationsRevealed(tuple(s.face_down))
        return [revealed, *score_round(s, s.round_no, winner, reason, values, last_card)]
    return score_round(s, s.round_no, winner, reason, values, last_card)


def score_round(
    s: State, round_no: int, winner: int, reason: EndReason, values: list[int], last_card: int = -1
) -> list[Event]:
    """The end of round ``round_no`` from the points each seat has left in hand (``values``) and
    the card the winner went out with (``last_card``, -1: none or not known).

    The one scoring path: a round played here passes its hands' points, a round entered from a
    score sheet the points of the cards the sheet names (or the points it gives).
    """
    rules = s.book.rules
    points = round_points(rules, winner, last_card, values)
    # lists, not generators, inside tuple(): a generator is resumed once per item
    totals = tuple([total + p for total, p in zip(s.totals, points, strict=True)])
    if rules.reset_totals:
        totals = tuple([0 if total in rules.reset_totals else total for total in totals])
    events: list[Event] = [RoundEnded(round_no, winner, reason, points, totals)]
    out = s.out
    if rules.elimination_total is not None:
        for seat, total in enumerate(totals):
            if total > rules.elimination_total and not out >> seat & 1:
                events.append(PlayerEliminated(seat, "over_ceiling", total))
                out |= 1 << seat
    if rules.shrinking_hands:
        for seat in round_losers(winner, values, s.out):
            size = s.hand_sizes[seat] if s.hand_sizes else rules.hand_size
            if size <= 1:
                events.append(PlayerEliminated(seat, "lost_holding_one_card", totals[seat]))
                out |= 1 << seat
            else:
                events.append(HandShrank(seat, size - 1))
    winners = _match_winners(s, rules, totals, out)
    if winners is not None:
        events.append(MatchEnded(winners, totals))
    return events


def _match_winners(s: State, rules: Ruleset, totals: tuple[int, ...], out: int) -> tuple[int, ...] | None:
    """Who wins the match with these totals and these seats out, None while it goes on."""
    standing = [seat for seat in range(s.seats) if not out >> seat & 1]
    if rules.winning_total is not None:
        outright = tuple(seat for seat in standing if totals[seat] == rules.winning_total)
        if outright:
            return outright
    last_standing = rules.elimination_total is not None or rules.shrinking_hands
    if last_standing and not rules.single_round:
        if len(standing) > 1:
            return None
        # Reading: when a round puts out every seat still in, those seats share the win
        return tuple(standing) or tuple(seat for seat in range(s.seats) if not s.out >> seat & 1)
    if not rules.single_round and max(totals) < rules.target_score:
        return None
    best = min(totals) if rules.match_winner == "lowest_total" else max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)


def _score(s: State, c: ScoreRound) -> list[Event]:
    if s.phase != DEAL:
        raise _refusal(s, "round_in_progress", "a round is being played")
    if len(c.values) != s.seats:
        raise RuleError("seat_count", f"this table has {s.seats} seats, not {len(c.values)}")
    if c.winner != -1:
        _check_seat(s, c.winner)
    for seat, value in enumerate(c.values):
        if s.out >> seat & 1 and (value or seat == c.winner):
            raise RuleError("seat_out", f"seat {seat} is out of the match: it holds no card and cannot win")
    if c.last_card != -1:
        if c.winner == -1:
            raise RuleError("no_winner", "a round with no winner has no card that went out")
        if not 0 <= c.last_card < CARD_COUNT:
            raise RuleError("malformed_card", f"{c.last_card!r} is not a card")
        if not s.book.deck_mask >> c.last_card & 1:
            raise RuleError("card_not_in_deck", f"{s.book.rules.name} plays without that card")
    # a round stopped with no winner stopped because the stock could not give a draw (docs/rules/, section 5)
    reason: EndReason = "stock_exhausted" if c.winner == -1 else "went_out"
    return score_round(s, s.round_no + 1, c.winner, reason, list(c.values), c.last_card)


def _check_seat(s: State, seat: int) -> None:
    if not 0 <= seat < s.seats:
        raise RuleError("not_a_seat", f"seat {seat} is not at this table")


def _check_suit(suit: int) -> None:
    if not 0 <= suit < 4:
        raise RuleError("malformed_suit", f"{suit!r} is not a suit")


_PHASE_REFUSALS = {
    NEW: ("match_not_started", "the match has not started"),
    DEAL: ("round_not_dealt", "the next round has not been dealt"),
    NAMING_SUIT: ("suit_not_named", "the dealer must first name the suit for the starter"),
    CHOOSING: ("player_not_chosen", "the player of the card must first choose who draws"),
    RECYCLE: ("awaiting_shuffle", "the stock is being recycled"),
    OVER: ("game_over", "the match is over"),
}


def _refusal(s: State, code: str, message: str) -> RuleError:
    """Why a command does not fit the phase; `code` covers the phases not listed above."""
    code, message = _PHASE_REFUSALS.get(s.phase, (code, message))
    return RuleError(code, message)


# ---------------------------------------------------------------------------
# queries


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
            if s.skip_due or (playable and book.voluntary_draw and _drawable(s)):
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
# the cards of a one-card draw, made once per card (events are immutable)
_ONE_CARD: tuple[tuple[int], ...] = tuple((card,) for card in range(CARD_COUNT))


def _drawable(s: State) -> int:
    """How many cards a draw can get: the stock, then the discards under the top card."""
    return len(s.stock) + len(s.discard) - 1


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
