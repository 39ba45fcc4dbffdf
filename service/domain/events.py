"""Events: one past-tense fact each, applied by ``apply`` without any rule.

Each event carries what ``decide`` worked out (the next seat, the new debt),
so that the fold only records facts. Cards are ints (see ``cards``).
"""

from abc import abstractmethod
from typing import ClassVar, Literal

import msgspec

from service.domain import record as lines
from service.domain import record_lines, sight
from service.domain.cards import CARD_BITS
from service.domain.dealing import dealt_hands
from service.domain.declaration import Declaration
from service.domain.record_lines import copied
from service.domain.rulebook import rulebook
from service.domain.rulesets import Ruleset
from service.domain.state import DEAL, DRAWN, OVER, PENALTY, PLAY, RECYCLE, PendingDraw, State


class Event(msgspec.Struct, frozen=True, gc=False, tag=True):
    # abstract for the type checker (a Struct is no ABC): an event made without its own apply
    # fails the type check, so every fold knows every kind
    declaration: ClassVar[Declaration]  # its sights, record line and words (``declaration``)

    @abstractmethod
    def apply(self, s: State) -> None:
        raise NotImplementedError


class MatchStarted(Event, frozen=True):
    rules: Ruleset
    seats: int
    first_dealer: int
    declaration = Declaration(sight.kept, copied(lines.MatchStarted), official="The match starts")

    def apply(self, s: State) -> None:
        s.book = rulebook(self.rules)
        s.seats = self.seats
        s.next_dealer = self.first_dealer
        s.totals = [0] * self.seats
        s.phase = DEAL


class RoundDealt(Event, frozen=True):
    """The whole deck order is recorded, so the deal replays without a seed."""

    round_no: int
    dealer: int
    deck: tuple[int, ...]
    turn: int  # the first player, after the starter's effect
    debt: int  # a draw debt the starter puts on the first player
    direction: int
    phase: int  # NAMING_SUIT when the dealer must name a suit for a wild starter
    # per seat, the cards dealt when hands differ (a seat out of the match gets 0); empty: the
    # ruleset's hand_size each
    sizes: tuple[int, ...] = ()
    declaration = Declaration(sight.round_dealt, record_lines.dealt, words="Round {number} is dealt")

    def apply(self, s: State) -> None:
        seats, deck = s.seats, self.deck
        if self.sizes:
            dealt = sum(self.sizes)
            hands = dealt_hands(seats, self.dealer, deck, self.sizes)
        else:
            dealt = seats * s.book.rules.hand_size
            # one card at a time clockwise from the dealer's left: the player `k` seats
            # round gets every seats-th card from the k-th
            hands = [0] * seats
            for k in range(seats):
                hand = 0
                for card in deck[k:dealt:seats]:
                    hand |= CARD_BITS[card]
                hands[(self.dealer + 1 + k) % seats] = hand
        starter = deck[dealt]
        s.hands = hands
        s.discard = [starter]
        s.stock = list(reversed(deck[dealt + 1 :]))
        s.follow = s.book.may_follow[starter]
        s.named_suit = -1
        s.debt = self.debt
        s.turn = self.turn
        s.direction = self.direction
        s.phase = self.phase
        s.drawn = -1
        s.covering = False
        s.skip_due = False
        s.passing = False
        s.missed = None
        s.pending = None
        s.round_no = self.round_no
        s.dealer = self.dealer
        s.next_dealer = (self.dealer + 1) % seats
        s.declared = -1
        s.doubt = None
        s.face_down = []
        s.recycled_hands = []


class SuitNamed(Event, frozen=True):
    seat: int
    suit: int
    declaration = Declaration(sight.suit_named, copied(lines.SuitNamed))

    def apply(self, s: State) -> None:
        s.follow = s.book.follows_named_suit[self.suit]
        s.named_suit = self.suit
        s.phase = PLAY


class CardPlayed(Event, frozen=True):
    seat: int
    card: int
    suit: int  # named with a wild card, else -1
    call: int  # what was said
    missed: int  # the call that was due and not said, else 0: opens the challenge window
    turn: int  # who moves next
    debt: int  # the draw debt the next player faces
    direction: int
    skipped: int  # the seat that lost its turn, else -1
    phase: int = PLAY  # CHOOSING when its player must choose who draws
    more: tuple[int, ...] = ()  # cards of the same rank laid on ``card`` in the same play, the last on top
    declared: int = -1  # blind: what ``card``, played face down, was declared as; -1: face up
    declaration = Declaration(sight.card_played, record_lines.played)

    def apply(self, s: State) -> None:
        card, suit, book = self.card, self.suit, s.book
        s.hands[self.seat] ^= CARD_BITS[card]
        s.discard.append(card)
        if book.modified:  # only quick lays several cards, only blind plays one face down
            if self.more:
                for other in self.more:
                    s.hands[self.seat] ^= CARD_BITS[other]
                s.discard += self.more
                card = self.more[-1]
            if self.declared >= 0 or s.declared >= 0:
                s.declared = declared = self.declared
                s.doubt = None
                if declared >= 0:
                    s.face_down.append((self.seat, card, declared))
                    if self.turn != self.seat:
                        s.doubt = (self.seat, self.turn)
                    card = declared
        if suit < 0:
            s.follow = book.may_follow[card]
        else:
            s.follow = book.follows_named_suit[suit]
        s.named_suit = suit
        s.debt = self.debt
        s.turn = self.turn
        s.direction = self.direction
        if book.covers_or_waits:  # without such cards all three stay False all match
            s.covering = self.turn == self.seat and book.must_cover[card]
            s.passing = self.turn == self.seat and book.may_pass[card]
            # a waiting skip (skip_waits): the next player may only pass it on, or take it
            s.skip_due = book.skip_waits[card] and self.turn != self.seat
            if s.skip_due:
                s.follow = book.skip_passes
        s.missed = (self.seat, self.missed) if self.missed else None
        if s.phase != PLAY:  # the drawn card was played
            s.drawn = -1
        s.phase = self.phase


class PlayerChosen(Event, frozen=True):
    """The player of a card that makes another player draw chose who; the draw follows."""

    seat: int
    chosen: int
    turn: int  # who moves next
    declaration = Declaration(sight.kept, copied(lines.Chose), words="{who} chooses {other} to draw")

    def apply(self, s: State) -> None:
        s.turn = self.turn
        s.phase = PLAY


class CardsDrawn(Event, frozen=True):
    seat: int
    cards: tuple[int, ...]  # top of the stock first
    reason: int  # TURN, DEBT, PENALTY or EFFECT
    turn: int  # who moves next
    phase: int  # DRAWN while the drawn card may still be played
    declaration = Declaration(sight.cards_drawn, copied(lines.Drew))

    def apply(self, s: State) -> None:
        cards = self.cards
        if len(cards) == 1:
            s.hands[self.seat] |= CARD_BITS[cards[0]]
            s.stock.pop()
        else:
            hand = s.hands[self.seat]
            for c in cards:
                hand |= 1 << c
            s.hands[self.seat] = hand
            del s.stock[-len(cards) :]
        s.turn = self.turn
        s.phase = self.phase
        s.pending = None
        if self.reason >= PENALTY:  # a penalty or an effect: the turn goes on as it was
            return
        s.doubt = None  # the drawer believed the face-down card before them
        if self.phase == DRAWN:
            s.drawn = cards[-1]
            if s.book.window_closes_on_draw:
                s.missed = None
        else:
            # the drawer's turn is over: a debt is paid, a challenge window closes
            s.debt = 0
            s.missed = None
            s.drawn = -1
            s.covering = False


class SkipTaken(Event, frozen=True):
    """The player facing a waiting skip took it: their turn is over without a move, and with it a
    missed call's window."""

    seat: int
    turn: int  # who moves next
    declaration = Declaration(sight.kept, copied(lines.TookSkip), words="{who} misses the turn: {next} moves")

    def apply(self, s: State) -> None:
        s.turn = self.turn
        s.skip_due = False
        s.missed = None
        s.doubt = None  # taking the skip believes a face-down card (blind)
        s.follow = s.book.may_follow[s.shown]


class TurnPassed(Event, frozen=True):
    """The player who could play again after a card of theirs (``may_pass``) ended the turn instead.

    A missed call's window stays open: the pass is neither a play nor a draw.
    """

    seat: int
    turn: int  # who moves next
    declaration = Declaration(sight.kept, copied(lines.Passed), words="{who} plays no more: {next} moves")

    def apply(self, s: State) -> None:
        s.turn = self.turn
        s.passing = False
        if s.declared >= 0:  # blind: the next player may now doubt the face-down card the passer laid
            s.doubt = (self.seat, self.turn)


class CardKept(Event, frozen=True):
    seat: int
    turn: int
    declaration = Declaration(sight.kept, copied(lines.Kept), words="{who} keeps the card drawn")

    def apply(self, s: State) -> None:
        s.turn = self.turn
        s.phase = PLAY
        s.drawn = -1
        s.missed = None
        s.covering = False


class StockRanOut(Event, frozen=True):
    """A draw found too few cards in the stock: the discards must be shuffled first."""

    seat: int
    count: int
    reason: int
    declaration = Declaration(sight.stock_ran_out, copied(lines.RanOut), official="The stock ran out")

    def apply(self, s: State) -> None:
        s.pending = PendingDraw(self.seat, self.count, self.reason, s.phase)
        s.phase = RECYCLE


class StockRecycled(Event, frozen=True):
    """The discards under the top card, shuffled, go under what is left of the stock."""

    order: tuple[int, ...]  # top first
    declaration = Declaration(
        sight.stock_recycled,
        copied(lines.Recycled),
        official="The discard pile is shuffled into a new stock of {count} cards",
    )

    def apply(self, s: State) -> None:
        s.stock = list(reversed(self.order)) + s.stock
        s.discard = s.discard[-1:]
        s.recycled_hands = s.hands.copy()


class MissedCallChallenged(Event, frozen=True):
    seat: int  # the challenger
    offender: int
    call: int
    declaration = Declaration(
        sight.missed_call_challenged, copied(lines.Challenged), words="{who} challenges a missed call"
    )

    def apply(self, s: State) -> None:
        s.missed = None


class DeclarationChallenged(Event, frozen=True):
    """The next player doubted a face-down card (``blind``): it is turned up. A lie (a card that
    does not play as the declared one) costs its player, a truth the challenger: the penalty's
    draw follows."""

    seat: int  # the challenger
    player: int  # who played the card face down
    card: int
    declared: int
    lied: bool
    declaration = Declaration(sight.declaration_challenged, copied(lines.Doubted))

    def apply(self, s: State) -> None:
        s.doubt = None
        s.declared = -1
        s.face_down.remove((self.player, self.card, self.declared))
        if self.lied and not s.skip_due:  # the card is face up now: the next play follows it
            s.follow = s.book.may_follow[self.card]
            s.named_suit = -1


class DeclarationsRevealed(Event, frozen=True):
    """The round is over: every card still face down (``blind``) is turned up."""

    plays: tuple[tuple[int, int, int], ...]  # (seat, card, declared)
    declaration = Declaration(sight.declarations_revealed, record_lines.turned_up)

    def apply(self, s: State) -> None:
        s.face_down = []
        s.declared = -1


# why a round ended: "window_closed" when the last card's call window closed unchallenged
EndReason = Literal["went_out", "window_closed", "stock_exhausted", "stalled"]


class RoundEnded(Event, frozen=True):
    round_no: int
    winner: int  # -1 when nobody went out: the stock ran out, or the round stalled
    reason: EndReason
    points: tuple[int, ...]  # per seat, this round
    totals: tuple[int, ...]  # per seat, the match so far
    declaration = Declaration(sight.kept, copied(lines.RoundEnd), words="The round is over")

    def apply(self, s: State) -> None:
        s.round_points.append(self.points)
        s.totals = list(self.totals)
        # a round entered from a score sheet was never dealt: its end is what numbers it
        s.round_no = self.round_no
        s.round_winner = self.winner
        s.phase = DEAL
        s.doubt = None
        s.debt = 0
        s.missed = None
        s.pending = None
        s.drawn = -1
        s.covering = False
        s.skip_due = False


class DealAnnulled(Event, frozen=True):
    """A hand was dealt four cards of one rank (``redeal_four_of_a_kind``): the deal does not
    stand and the same dealer deals again from a new shuffle. Nothing moves.

    The annulled deal's whole deck order is kept, committed to and revealed at the round's end
    like any deal's (``fairness``), so the redeal can be checked afterwards."""

    round_no: int
    dealer: int
    seat: int  # the seat dealt the four
    rank: str
    deck: tuple[int, ...] = ()  # the order the annulled deal came in; empty in events stored before
    declaration = Declaration(
        sight.deal_annulled,
        copied(lines.Annulled, order="deck"),
        words="{who} was dealt four of a kind: round {number} is dealt again",
    )

    def apply(self, s: State) -> None:
        pass


class PlayerEliminated(Event, frozen=True):
    """A seat is out of the match: it is dealt nothing more, the others play on."""

    seat: int
    # "over_ceiling": its total went over the ruleset's elimination_total;
    # "lost_holding_one_card": it lost a round it was dealt a single card for (shrinking_hands)
    reason: str
    total: int
    declaration = Declaration(sight.kept, copied(lines.Eliminated))

    def apply(self, s: State) -> None:
        s.out |= 1 << self.seat
        if not s.out_round:
            s.out_round = [0] * s.seats
        s.out_round[self.seat] = s.round_no  # the RoundEnded before it numbered the round


class HandShrank(Event, frozen=True):
    """A round's loser is dealt fewer cards from the next round on (``shrinking_hands``)."""

    seat: int
    hand_size: int
    declaration = Declaration(sight.kept, copied(lines.Shrank))

    def apply(self, s: State) -> None:
        if not s.hand_sizes:
            s.hand_sizes = [s.book.rules.hand_size] * s.seats
        s.hand_sizes[self.seat] = self.hand_size


class MatchEnded(Event, frozen=True):
    winners: tuple[int, ...]  # players tied for the best total share the win
    totals: tuple[int, ...]
    declaration = Declaration(sight.kept, copied(lines.MatchEnd), words="The match is over")

    def apply(self, s: State) -> None:
        s.winners = self.winners
        s.phase = OVER


EVENT_TYPES: tuple[type[Event], ...] = (
    MatchStarted,
    RoundDealt,
    SuitNamed,
    CardPlayed,
    CardsDrawn,
    CardKept,
    StockRanOut,
    StockRecycled,
    MissedCallChallenged,
    RoundEnded,
    MatchEnded,
    DealAnnulled,
    PlayerEliminated,
    HandShrank,
    PlayerChosen,
    DeclarationChallenged,
    DeclarationsRevealed,
    SkipTaken,
    TurnPassed,
)


class HiddenCardsReshuffled(Event, frozen=True):
    """A void reopened a round whose deck orders are public: every card whose place they tell,
    each hand and the stock, was gathered, shuffled anew and dealt back.

    Seat 0 first, each seat takes as many cards of ``order`` as ``counts`` says (as many as it
    held); the rest is the stock, its first card drawn first. A card drawn this turn that may
    still be played stays with its drawer (the rules tie the turn to that very card), so it is
    in no count and not in ``order``.

    Not among ``EVENT_TYPES``: the engine never decides it, a referee's void leads to it
    (``game.Game.give_ruling``), so most games never hold one.
    """

    order: tuple[int, ...]
    counts: tuple[int, ...]
    declaration = Declaration(sight.hidden_cards_reshuffled, record_lines.reshuffled)

    def apply(self, s: State) -> None:
        kept = CARD_BITS[s.drawn] if s.phase == DRAWN and s.drawn >= 0 else 0
        hands, at = [], 0
        for seat, count in enumerate(self.counts):
            hand = s.hands[seat] & kept
            for card in self.order[at : at + count]:
                hand |= CARD_BITS[card]
            hands.append(hand)
            at += count
        s.hands = hands
        s.stock = list(reversed(self.order[at:]))


# the facts that carry a shuffled order (an annulled deal's too): each is stored with a commitment
# to its order, revealed at the round's end (``game_facts.record_shuffle``)
Shuffle = RoundDealt | DealAnnulled | StockRecycled | HiddenCardsReshuffled
