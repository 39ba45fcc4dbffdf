"""Bots: a random legal player and a heuristic one.

Both see only what a player may see (their own hand, the table, card counts).
``forgetfulness`` is the chance to miss a call that is due; ``vigilance`` the
chance to challenge a missed call of another player, so bot tables exercise
calls and challenges.
"""

import random
from functools import lru_cache
from math import floor
from typing import NamedTuple, Protocol

from service.domain.actions import (
    BLIND_PLAY,
    CHALLENGE,
    DRAW,
    SEVERAL_PLAY,
    WILD_PLAY,
    blind_play,
    several_cards,
)
from service.domain.cards import JOKER_SUIT, alike, cards_in, mask_of, rank_cards, suit_of
from service.domain.commands import (
    SEAT_COMMANDS,
    ChallengeDeclaration,
    ChoosePlayer,
    Command,
    DrawCard,
    KeepCard,
    NameSuit,
    PlayCard,
    seat_commands,
)
from service.domain.legal import call_due, legal_actions
from service.domain.rulebook import NO_CALL, Rulebook
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
        if action >= SEVERAL_PLAY:  # a modifier's play (BLIND_PLAY is above SEVERAL_PLAY): one test for both
            if action >= BLIND_PLAY:
                card, declared, suit = blind_play(action)
                return PlayCard(seat, card, suit, self._call(s, seat, declared), declared=declared)
            cards, suit = several_cards(action)
            return PlayCard(seat, cards[0], suit, self._call(s, seat, cards[-1], len(cards)), cards[1:])
        # only a play that leaves one card or none can owe a call
        if action < DRAW and s.hands[seat].bit_count() <= 2 and s.book.calls_owed:
            card, suit = _PLAYS[action]
            call = self._call(s, seat, card)
            if call != NO_CALL:
                return PlayCard(seat, card, suit, call)
        try:
            return SEAT_COMMANDS[seat][action]
        except KeyError:  # the seat's first command
            return seat_commands(seat)[action]


class HeuristicBot(_CallingBot):
    """Plays like a careful player of whatever ruleset the table plays.

    It reads the cards' effects from the rulebook, never a preset's name: keeps
    the cards that answer a draw debt for when it faces one, first plays a card
    that lets it move again when it holds a card to follow it with, dumps its
    highest ordinary cards, makes the next player draw or miss a turn (or every
    other player draw) when they are close to going out, holds wild cards for
    last, names the suit it holds most of and makes the player closest to going
    out draw when it chooses.
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
        following = _neighbour(s, seat, s.direction)
        threatened = s.hands[following].bit_count() <= 2
        if s.phase == DRAWN:
            drawn = s.drawn
            if book.debt_answers >> drawn & 1 and not threatened and hand.bit_count() > 2 and not s.covering:
                return KeepCard(seat)  # it answers the next debt
            if hand == 1 << drawn and book.no_finish >> drawn & 1:
                return KeepCard(seat)  # drawn into an empty hand, it may not be the last card
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
            if s.passing:
                return KeepCard(seat)  # playing again was a choice: with nothing to play, end the turn
            return self._bluff(s, seat, hand) or DrawCard(seat)
        tactics = _tactics(book)
        wild = playable & book.wild
        # a card that moves again is a free card with another card to follow it, else a lost turn
        again = playable & tactics.again & ~wild
        free = 0
        for card in cards_in(again):
            if hand & ~(1 << card) & book.may_follow[card]:
                free |= 1 << card
        loaders = playable & tactics.attacks & ~wild & ~free
        skippers = playable & book.skip_cards & ~wild & ~loaders & ~free
        stuck = again & ~free & ~loaders & ~skippers
        # an answer to a debt is worth keeping, unless it is all the bot may play
        kept = playable & book.debt_answers & ~wild & ~loaders & ~skippers & ~again
        ordinary = playable & ~wild & ~loaders & ~skippers & ~again & ~kept
        if threatened:
            previous = _neighbour(s, seat, -s.direction)
            # turning the play round helps only when the player behind is not close to out too
            turners = ordinary & tactics.reverses
            if s.hands[previous].bit_count() <= 2:
                turners = 0
            preference: tuple[int, ...] = (free, loaders, skippers, turners, ordinary, kept, stuck, wild)
        else:
            preference = (free, ordinary, skippers, kept, loaders, stuck, wild)
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


def _neighbour(s: State, seat: int, direction: int) -> int:
    """The next seat in ``direction`` still in the match (an empty hand out of it is no threat)."""
    other = (seat + direction) % s.seats
    while s.out >> other & 1 and other != seat:
        other = (other + direction) % s.seats
    return other


class _Tactics(NamedTuple):
    attacks: int  # cards that make another player draw: a debt, every other player, a chosen one
    again: int  # cards whose player moves again at once
    reverses: int  # cards that turn the direction of play round


@lru_cache(maxsize=512)  # as many as rulebook() keeps: a worker meets rulesets without end
def _tactics(book: Rulebook) -> _Tactics:
    """The heuristic's masks of a rulebook, made once per rulebook."""
    deck = book.deck
    attacks = mask_of(c for c in deck if book.debt_of[c] or book.others_draw[c] or book.choose_drawer[c])
    again = mask_of(c for c in deck if book.again[c])
    return _Tactics(attacks, again, mask_of(c for c in deck if book.reverses[c]))


BOTS: dict[str, type[RandomBot] | type[HeuristicBot]] = {"random": RandomBot, "heuristic": HeuristicBot}
