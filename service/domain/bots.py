"""Bots: a random legal player and a heuristic one.

Both see only what a player may see (their own hand, the table, card counts).
``forgetfulness`` is the chance to miss a call that is due; ``vigilance`` the
chance to challenge a missed call of another player, so bot tables exercise
calls and challenges.
"""

import random
from math import floor
from typing import Protocol

from service.domain.actions import (
    BLIND_PLAY,
    CHALLENGE,
    DRAW,
    SEVERAL_PLAY,
    WILD_PLAY,
    blind_play,
    several_cards,
)
from service.domain.cards import JOKER_SUIT, alike, cards_in, rank_cards, suit_of
from service.domain.commands import (
    ChallengeDeclaration,
    ChoosePlayer,
    Command,
    DrawCard,
    KeepCard,
    NameSuit,
    PlayCard,
)
from service.domain.engine import SEAT_COMMANDS, call_due, legal_actions, seat_commands
from service.domain.rulebook import NO_CALL
from service.domain.state import CHOOSING, DRAWN, NAMING_SUIT, PLAY, State


class Bot(Protocol):
    def choose(self, s: State, seat: int) -> Command:
        """The command of the seat whose move it is."""
        ...

    def challenges(self, s: State, seat: int) -> bool:
        """Whether this seat challenges the missed call that is open."""
        ...


class _CallingBot:
    def __init__(self, rng: random.Random, forgetfulness: float = 0.0, vigilance: float = 0.0) -> None:
        self.rng = rng
        self._random = rng.random
        self.forgetfulness = forgetfulness
        self.vigilance = vigilance

    def challenges(self, s: State, seat: int) -> bool:
        return self._random() < self.vigilance

    def _call(self, s: State, seat: int, card: int, count: int = 1) -> int:
        """The call due with this play (``card`` on top of ``count`` cards), unless the bot forgets it."""
        call = call_due(s, seat, card, count)
        if call and self._random() < self.forgetfulness:
            return NO_CALL
        return call


# (card, named suit) of every play action, by action
_PLAYS: tuple[tuple[int, int], ...] = tuple(
    (action, -1) if action < WILD_PLAY else ((action - WILD_PLAY) >> 2, action & 3) for action in range(DRAW)
)


class RandomBot(_CallingBot):
    """Picks uniformly among the legal actions (a challenge only by vigilance)."""

    def choose(self, s: State, seat: int) -> Command:
        actions = legal_actions(s, seat)
        # a challenge is offered only while a missed call is open; it is left to vigilance
        if s.missed is not None and actions[-1] == CHALLENGE:
            actions = actions[:-1]
        random = self._random  # an attribute load; self._random() would not be specialised
        action = actions[floor(random() * len(actions))]
        if action >= BLIND_PLAY:
            card, declared, suit = blind_play(action)
            return PlayCard(seat, card, suit, self._call(s, seat, declared), declared=declared)
        if action >= SEVERAL_PLAY:
            cards, suit = several_cards(action)
            return PlayCard(seat, cards[0], suit, self._call(s, seat, cards[-1], len(cards)), cards[1:])
        # only a play that leaves one card or none can owe a call
        if action < DRAW and s.hands[seat].bit_count() <= 2:
            card, suit = _PLAYS[action]
            call = self._call(s, seat, card)
            if call != NO_CALL:
                return PlayCard(seat, card, suit, call)
        try:
            return SEAT_COMMANDS[seat][action]
        except KeyError:  # the seat's first command
            return seat_commands(seat)[action]


class HeuristicBot(_CallingBot):
    """Plays like a careful club player.

    Keeps its answers to a draw debt (7s) for when it faces one, dumps its
    highest ordinary cards first, skips or loads the next player when they are
    close to going out, holds wild cards for last and names the suit it holds
    most of.
    """

    def choose(self, s: State, seat: int) -> Command:
        hand = s.hands[seat]
        if s.phase == NAMING_SUIT:
            return NameSuit(seat, self._best_suit(hand))
        if s.phase == CHOOSING:
            return ChoosePlayer(seat, self._closest_to_going_out(s, seat))
        book = s.book
        if s.doubt is not None and s.doubt[1] == seat and s.phase == PLAY:
            # a declared card all of whose copies the bot holds is surely a lie
            copies = alike(s.declared) & book.deck_mask
            if hand & copies == copies:
                return ChallengeDeclaration(seat)
        following = (seat + s.direction) % s.seats
        threatened = s.hands[following].bit_count() <= 2
        if s.phase == DRAWN:
            drawn = s.drawn
            if book.debt_answers >> drawn & 1 and not threatened and hand.bit_count() > 2:
                return KeepCard(seat)  # a 7 in hand answers the next debt
            return self._play(s, seat, drawn, hand ^ 1 << drawn, alone=True)
        # a last card that may not end the hand is no play
        last_blocked = hand & book.no_finish if not hand & (hand - 1) else 0
        if s.debt:
            answers = hand & book.answers_to[s.shown] & ~last_blocked
            if answers:
                return self._play(s, seat, next(cards_in(answers)), hand)
            return DrawCard(seat)
        playable = hand & s.follow & ~last_blocked
        if not playable:
            return self._bluff(s, seat, hand) or DrawCard(seat)
        wild = playable & book.wild
        loaders = playable & book.debt_answers & ~wild
        skippers = playable & book.skip_cards & ~wild & ~loaders
        ordinary = playable & ~wild & ~loaders & ~skippers
        if threatened:
            preference = (loaders, skippers, ordinary, wild)
        else:
            preference = (ordinary, skippers, loaders, wild)
        group = next(cards for cards in preference if cards)
        rest = hand & ~group
        # dump the most points first; between equals, play from the suit held most
        card = max(cards_in(group), key=lambda c: (book.points[c], self._held(rest, c)))
        return self._play(s, seat, card, hand ^ 1 << card)

    def _play(self, s: State, seat: int, card: int, rest: int, alone: bool = False) -> Command:
        book = s.book
        rest &= ~(1 << card)
        more: tuple[int, ...] = ()
        if book.quick and not alone:
            # lay every other card of the rank too, unless that would end the hand on a card
            # that may not be the last
            more = tuple(c for c in rank_cards(card) if rest >> c & 1)
            if more and rest == sum(1 << c for c in more) and book.no_finish >> more[-1] & 1:
                more = ()
            for c in more:
                rest ^= 1 << c
        top = more[-1] if more else card
        suit = self._best_suit(rest) if book.wild >> top & 1 else -1
        return PlayCard(seat, card, suit, self._call(s, seat, top, 1 + len(more)), more)

    def _bluff(self, s: State, seat: int, hand: int) -> Command | None:
        """With blind and nothing to play: its costliest card face down, declared as an ordinary
        card that may be played and that the bot does not hold; None when there is none."""
        book = s.book
        if not book.rules.blind or not hand & (hand - 1):
            return None
        declarable = book.deck_mask & s.follow & book.effectless & ~hand
        if not declarable:
            return None
        declared = (declarable & -declarable).bit_length() - 1
        card = max(cards_in(hand), key=lambda c: book.points[c])
        return PlayCard(seat, card, -1, self._call(s, seat, declared), declared=declared)

    @staticmethod
    def _closest_to_going_out(s: State, seat: int) -> int:
        others = [other for other in range(s.seats) if other != seat and not s.out >> other & 1]
        return min(others, key=lambda other: s.hands[other].bit_count())

    @staticmethod
    def _held(hand: int, card: int) -> int:
        suit = suit_of(card)
        return sum(1 for c in cards_in(hand) if suit_of(c) == suit)

    @staticmethod
    def _best_suit(hand: int) -> int:
        counts = [0] * (JOKER_SUIT + 1)
        for c in cards_in(hand):
            counts[suit_of(c)] += 1
        # the first of the four suits held most: jokers, counted last, are never picked
        return counts.index(max(counts[:JOKER_SUIT]))


BOTS: dict[str, type[_CallingBot]] = {"random": RandomBot, "heuristic": HeuristicBot}
