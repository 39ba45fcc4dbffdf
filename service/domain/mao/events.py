"""Mao's events: one past-tense fact each, applied without any rule.

Each carries what ``game.decide`` worked out (who moves next, the clauses now in force,
the calls now due), so the fold only records facts. Cards are ints (see ``cards``). Each declares
beside its fields what each sight keeps of it (``declaration``: ``sight.kept`` when all its fields
are public, else its piece in ``mao.sight``); a class without one fails at import (``EVENT_TYPES``).
"""

from abc import abstractmethod
from typing import ClassVar, get_args

import msgspec

from service.domain import sight
from service.domain.cards import CARD_BITS
from service.domain.declaration import Shows
from service.domain.mao import sight as mao_sight
from service.domain.mao.rule import parse_rule
from service.domain.mao.state import DEAL, DRAWN, OVER, PENALTY, PLAY, RECYCLE, State, Window


class BaseEvent(msgspec.Struct, frozen=True, tag=True):
    declaration: ClassVar[Shows]  # what each sight keeps of it (``mao.sight``, read by ``redaction``)

    # abstract for the type checker (a Struct is no ABC): an event made without its own apply
    # fails the type check, so every fold knows every kind
    @abstractmethod
    def apply(self, s: State) -> None:
        raise NotImplementedError


class MatchStarted(BaseEvent, frozen=True):
    seats: int
    first_dealer: int
    hand_size: int
    rounds_to_win: int
    judge: str
    declaration = Shows(sight.kept)

    def apply(self, s: State) -> None:
        s.seats = self.seats
        s.next_dealer = self.first_dealer
        s.hand_size = self.hand_size
        s.rounds_to_win = self.rounds_to_win
        s.judge = self.judge
        s.wins = [0] * self.seats
        s.phase = DEAL


class RuleWritten(BaseEvent, frozen=True):
    """The secret rule of round ``round_no``, fixed before its deal."""

    round_no: int
    text: str
    by: str  # "server" or "referee"
    declaration = Shows(mao_sight.judge_only("text"))

    def apply(self, s: State) -> None:
        s.rule = parse_rule(self.text)
        s.rule_round = self.round_no


class RoundDealt(BaseEvent, frozen=True):
    """The whole deck order is recorded, so the deal replays without a seed."""

    round_no: int
    dealer: int
    deck: tuple[int, ...]
    declaration = Shows(mao_sight.round_dealt)

    def apply(self, s: State) -> None:
        seats, deck = s.seats, self.deck
        dealt = seats * s.hand_size
        hands = [0] * seats
        # one card at a time clockwise from the dealer's left
        for k in range(seats):
            hand = 0
            for card in deck[k:dealt:seats]:
                hand |= CARD_BITS[card]
            hands[(self.dealer + 1 + k) % seats] = hand
        s.hands = hands
        s.discard = [deck[dealt]]
        s.stock = list(reversed(deck[dealt + 1 :]))
        s.in_force = ()  # the starter has no effect
        s.owing = []
        s.penalties = []
        s.window = None
        s.paused_by = -1
        s.round_no = self.round_no
        s.dealer = self.dealer
        s.next_dealer = (self.dealer + 1) % seats
        s.turn = (self.dealer + 1) % seats
        s.phase = PLAY


class CardPlayed(BaseEvent, frozen=True):
    """An accepted play."""

    seat: int
    card: int
    in_force: tuple[int, ...]  # the clauses the card put in force (all others lifted)
    due: tuple[str, ...]  # the calls the play owes
    turn: int
    declaration = Shows(mao_sight.card_played)

    def apply(self, s: State) -> None:
        s.hands[self.seat] ^= CARD_BITS[self.card]
        s.discard.append(self.card)
        s.in_force = self.in_force
        s.window = Window(self.seat, self.due)
        s.turn = self.turn


class PlayReturned(BaseEvent, frozen=True):
    """A play on turn that broke the rule or did not match: the card goes back, the turn ends."""

    seat: int
    card: int
    reason: str  # the judge's reason code (``judge.REASONS``)
    turn: int
    declaration = Shows(mao_sight.named)  # the card was shown on the table, then taken back

    def apply(self, s: State) -> None:
        s.window = None
        s.turn = self.turn


class PlayCancelled(BaseEvent, frozen=True):
    """A play out of turn: the card goes back; the turn stays where it was."""

    seat: int
    card: int
    declaration = Shows(mao_sight.named)

    def apply(self, s: State) -> None:
        pass


class CardDrawn(BaseEvent, frozen=True):
    """A seat drew one card instead of playing; the card itself comes with ``CardTaken``."""

    seat: int
    in_force: tuple[int, ...]  # with the draw clauses added
    turn: int
    declaration = Shows(mao_sight.judge_only("in_force"))

    def apply(self, s: State) -> None:
        s.owing.append((self.seat, DRAWN))
        s.in_force = self.in_force
        s.window = None
        s.turn = self.turn


class CallMade(BaseEvent, frozen=True):
    """A seat said a call that was due."""

    seat: int
    words: str
    declaration = Shows(sight.kept)

    def apply(self, s: State) -> None:
        window = s.window
        assert window is not None
        s.window = Window(window.seat, window.due, (*window.said, self.words))


class Spoke(BaseEvent, frozen=True):
    """A seat said something that was not due: table talk the judge penalises."""

    seat: int
    words: str
    declaration = Shows(sight.kept)

    def apply(self, s: State) -> None:
        pass


class TalkedInPause(BaseEvent, frozen=True):
    """A seat spoke during a pause about the turn order or safety: allowed, not a call, no penalty."""

    seat: int
    about: str  # "order" or "safety", as the speaker said
    words: str
    declaration = Shows(sight.kept)

    def apply(self, s: State) -> None:
        pass


class CallMissed(BaseEvent, frozen=True):
    """The next player acted before a due call was said."""

    seat: int
    words: str
    kind: str  # "spade", "mao" or "rule" (``speech``): the rule's calls stay secret
    declaration = Shows(mao_sight.call_missed)

    def apply(self, s: State) -> None:
        pass


class PenaltyGiven(BaseEvent, frozen=True):
    """One penalty card is owed to ``seat``; ``CardTaken`` gives it."""

    seat: int
    reason: str  # a judge's reason code, "out_of_turn", "missed_call" or "extra_utterance"
    declaration = Shows(sight.kept)

    def apply(self, s: State) -> None:
        s.owing.append((self.seat, PENALTY))
        s.penalties.append((self.seat, self.reason))


class CardTaken(BaseEvent, frozen=True):
    """The oldest card owed is given from the top of the stock."""

    seat: int
    card: int
    why: str  # "draw" or "penalty"
    declaration = Shows(mao_sight.card_taken)

    def apply(self, s: State) -> None:
        s.stock.pop()
        s.hands[self.seat] |= CARD_BITS[self.card]
        del s.owing[0]


class StockRanOut(BaseEvent, frozen=True):
    """A card is owed and the stock is empty: the discards under the top card must be shuffled."""

    declaration = Shows(sight.kept)

    def apply(self, s: State) -> None:
        s.phase = RECYCLE


class StockRecycled(BaseEvent, frozen=True):
    """The discards under the top card, shuffled, are the new stock; the restriction stays."""

    order: tuple[int, ...]  # top first
    declaration = Shows(mao_sight.stock_recycled)

    def apply(self, s: State) -> None:
        s.stock = list(reversed(self.order)) + s.stock
        s.discard = s.discard[-1:]
        s.phase = PLAY


class PauseCalled(BaseEvent, frozen=True):
    seat: int
    declaration = Shows(sight.kept)

    def apply(self, s: State) -> None:
        s.paused_by = self.seat


class PauseEnded(BaseEvent, frozen=True):
    seat: int
    declaration = Shows(sight.kept)

    def apply(self, s: State) -> None:
        s.paused_by = -1


class RoundEnded(BaseEvent, frozen=True):
    round_no: int
    winner: int  # -1 for a drawn round
    # "went_out", "stopped" (a card owed could not be given) or "forfeited" (a seat's forfeit ended
    # the match: ``game.end_by_forfeit``)
    reason: str
    counts: tuple[int, ...]  # per seat: cards in hand plus penalty cards still owed
    wins: tuple[int, ...]  # per seat, the match so far
    declaration = Shows(sight.kept)

    def apply(self, s: State) -> None:
        s.wins = list(self.wins)
        s.last_winner = self.winner
        s.window = None
        s.paused_by = -1
        s.owing = []
        s.phase = DEAL


class RuleRevealed(BaseEvent, frozen=True):
    round_no: int
    text: str
    declaration = Shows(sight.kept)

    def apply(self, s: State) -> None:
        s.revealed = self.text


class RuleProposed(BaseEvent, frozen=True):
    seat: int
    text: str
    declaration = Shows(mao_sight.rule_proposed)

    def apply(self, s: State) -> None:
        s.proposal = (self.seat, parse_rule(self.text))


class RuleApproved(BaseEvent, frozen=True):
    text: str
    declaration = Shows(mao_sight.judge_only("text"))

    def apply(self, s: State) -> None:
        s.proposal = None


class RuleRefused(BaseEvent, frozen=True):
    text: str
    code: str  # "refused_by_judge"
    declaration = Shows(mao_sight.judge_only("text"))

    def apply(self, s: State) -> None:
        s.proposal = None


class MatchEnded(BaseEvent, frozen=True):
    winner: int
    wins: tuple[int, ...]
    declaration = Shows(sight.kept)

    def apply(self, s: State) -> None:
        s.winner = self.winner
        s.phase = OVER


# every fact a Mao match records (a stored ``Decided`` holds them, each told apart by its tag):
# a fold over them matches each, so a fact added without its case fails the type check
Event = (
    MatchStarted
    | RuleWritten
    | RoundDealt
    | CardPlayed
    | PlayReturned
    | PlayCancelled
    | CardDrawn
    | CallMade
    | Spoke
    | TalkedInPause
    | CallMissed
    | PenaltyGiven
    | CardTaken
    | StockRanOut
    | StockRecycled
    | PauseCalled
    | PauseEnded
    | RoundEnded
    | RuleRevealed
    | RuleProposed
    | RuleApproved
    | RuleRefused
    | MatchEnded
)
EVENT_TYPES: tuple[type[BaseEvent], ...] = get_args(Event)
_UNDECLARED = [
    kind.__name__ for kind in EVENT_TYPES if not isinstance(kind.__dict__.get("declaration"), Shows)
]
if _UNDECLARED:  # as a card game's event does (``declared``), a kind without its declaration fails at import
    raise TypeError(f"Mao events without their declaration: {', '.join(_UNDECLARED)}")
