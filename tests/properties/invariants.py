"""Properties of the engine over thousands of bot games (hypothesis chooses the tables): the
checks, and the properties made for a number of examples (``tests/unit/test_properties.py`` runs
a few of each, ``tests/properties/test_engine_properties.py`` the long runs).

Bots with forgetfulness and vigilance above 0 miss calls and challenge them,
so the games reach the challenge window, penalty draws, recycles and
exhausted stocks. At every step of every game:

- every card of the deck is in exactly one place: a hand, the stock, the discard pile;
- each hand is exactly what the events gave (RoundDealt, CardsDrawn) minus what was played;
- ``legal_actions`` offers only actions ``decide`` accepts, and ``decide`` refuses every
  other action a seat could try (plays of its cards, draw, keep, challenge, naming a suit);

at sampled steps and at every round's end the fold of the events equals the live
state; every round ends with exactly one winner who has no card left, or by an
exhausted stock (a draw that truly could not be made) with no winner; the round's
points are the values of the hands as they stand (with the preset's card that went out and
hand of one kind), and the totals add up.

Every preset is played too, each of its switches on or off, with one deck or two: each deal
gives every seat still in its hand size (shrunk by one for a round's loser where hands shrink),
no deal that stands holds four of a kind where that annuls it, exactly the seats over the
ceiling or losing with one card are put out, a seat out is never dealt to nor deals, the last
seat standing wins, and a round of a preset ends within ``ROUND_STEPS`` commands.
"""

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.domain.actions import (
    BLIND_PLAY,
    CHALLENGE,
    CHALLENGE_DECLARATION,
    DRAW,
    KEEP,
    NAME_SUIT,
    SEVERAL_PLAY,
    WILD_PLAY,
    blind_action,
    blind_play,
    several_action,
    several_cards,
)
from service.domain.bots import BOTS
from service.domain.cards import CARD_COUNT, DECK_SIZE, format_card, mask_of, rank_cards, rank_name
from service.domain.commands import (
    Challenge,
    ChallengeDeclaration,
    Command,
    DrawCard,
    command_for,
    seat_commands,
)
from service.domain.engine import decide, fold
from service.domain.errors import RuleError
from service.domain.events import (
    CardPlayed,
    CardsDrawn,
    DealAnnulled,
    DeclarationsRevealed,
    Event,
    HandShrank,
    MatchEnded,
    MatchStarted,
    PlayerEliminated,
    RoundDealt,
    RoundEnded,
    StockRecycled,
)
from service.domain.legal import call_due, is_chance, legal_actions
from service.domain.presets import PRESETS, SWITCHES
from service.domain.rulebook import MAU, MAU_MAU, NO_CALL, rulebook
from service.domain.ruleset_checks import most_players
from service.domain.ruleset_options import ruleset
from service.domain.rulesets import BLIND_PENALTY, MODIFIERS, Ruleset
from service.domain.state import DRAWN, NAMING_SUIT, PENALTY, PLAY, State
from service.domain.table import Table
from tests.unit.scenario import small_deck_club

# A match may legally go on for ever (two players passing jacks round a tiny deck), and random
# bots that draw by choice can play tens of thousands of moves: a match still going after this
# many commands is stopped there, checked as it stands, and counted as unfinished.
MAX_STEPS = 30_000
# Every step is checked in full at first; a long game (random bots that draw by choice can play
# tens of thousands of moves) is then checked at sampled steps, so the suite stays fast.
CHECK_ALL_UNTIL = 400
CHECK_EVERY = 13
FOLD_EVERY = 29


def _bits(mask: int) -> list[int]:
    """The cards of a mask, lowest first (one step per card held, not per card of the deck)."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


@dataclass
class Tally:
    """What the games reached, so the suite can tell it exercised the rare paths."""

    games: int = 0
    rounds: int = 0
    steps: int = 0
    reasons: Counter = field(default_factory=Counter)
    challenges: int = 0
    recycles: int = 0
    penalty_draws: int = 0
    matches_over: int = 0
    unfinished: int = 0
    annulled: int = 0
    eliminated: int = 0


TALLY = Tally()


class Referee:
    """Follows one match event by event, from the events alone, and checks the state."""

    def __init__(self, rules: Ruleset, seats: int) -> None:
        self.rules = rules
        self.seats = seats
        self.book = rulebook(rules)
        # the values from the ruleset's table, not from the engine's compiled rulebook
        self.values = [rules.card_points.get(rank_name(c), 0) for c in range(CARD_COUNT)]
        self.hands: list[int] = [0] * seats
        self.totals = [0] * seats
        self.in_round = False
        self.went_out = -1
        self.last_played = [-1] * seats  # each seat's last card played: a winner's went out
        self.out = 0  # the seats put out of the match (PlayerEliminated), a bit each
        self.sizes = [rules.hand_size] * seats  # what the next deal gives each seat in
        self.dealt = [rules.hand_size] * seats  # what this round's deal gave each seat
        self.out_at_deals: list[int] = []  # the seats out when each round was dealt
        self.recycled_hands: list[int] = []  # the hands at this round's last recycle
        # after a round: the seats its end must put out or shrink, each named by one event
        self.owed: set[tuple[str, int]] = set()

    def call_due(self, card: int, left: int) -> int:
        if left == 1 and self.rules.mau_call:
            return MAU
        if left == 0:
            effects = self.rules.effects  # a card's own entry first, then its rank's
            wild = effects.get(format_card(card % DECK_SIZE), effects.get(rank_name(card)))
            if self.rules.mau_mau_call == "always" or (
                self.rules.mau_mau_call == "on_wild" and wild is not None and wild.wild
            ):
                return MAU_MAU
        return NO_CALL

    def value(self, hand: int) -> int:
        only = self.rules.only_points  # 101: a hand of queens only counts them so
        if only and hand and all(_entry(only, c) is not None for c in _bits(hand)):
            return sum(_entry(only, c) or 0 for c in _bits(hand))
        return sum(self.values[c] for c in _bits(hand))

    def expected_points(self, winner: int, values: list[int]) -> tuple[int, ...]:
        rules, times, bonus = self.rules, 1, 0
        if winner >= 0:
            card = self.last_played[winner]
            times = _entry(rules.out_multiplier, card) or 1
            bonus = _entry(rules.out_points, card) or 0
        if rules.scoring == "penalty":
            return tuple(bonus if seat == winner else values[seat] * times for seat in range(self.seats))
        if winner >= 0:
            gained = (sum(values) - values[winner]) * times + bonus
            return tuple(gained if seat == winner else 0 for seat in range(self.seats))
        return (0,) * self.seats

    def follow(self, event: Event, s: State) -> None:
        """``s`` is the state after ``event`` and every event after it in the same command."""
        if self.went_out >= 0:
            # the cards still face down (blind) are turned up first
            assert isinstance(event, RoundEnded | DeclarationsRevealed), (
                "a correctly called last card did not win at once"
            )
        if isinstance(event, RoundDealt):
            assert not self.in_round
            self.in_round = True
            assert not self.out >> event.dealer & 1, "a seat out of the match dealt"
            self.out_at_deals.append(self.out)
            sizes = [0 if self.out >> seat & 1 else size for seat, size in enumerate(self.sizes)]
            assert tuple(event.sizes or sizes) == tuple(sizes), "a seat was dealt other than its hand size"
            assert not self.owed, f"a round's end left seats unpunished: {self.owed}"
            self.dealt = sizes
            self.recycled_hands = []
            hands = [0] * self.seats
            at = 0
            for lap in range(max(sizes)):
                for k in range(1, self.seats + 1):
                    seat = (event.dealer + k) % self.seats
                    if sizes[seat] > lap:
                        hands[seat] |= 1 << event.deck[at]
                        at += 1
            self.hands = hands
            if self.rules.redeal_four_of_a_kind:
                for hand in hands:
                    ranks = Counter(rank_name(c) for c in _bits(hand))
                    assert max(ranks.values(), default=0) < 4, "a deal of four of a kind stood"
        elif isinstance(event, CardsDrawn):
            for c in event.cards:
                assert not any(hand >> c & 1 for hand in self.hands), "a drawn card was already held"
                self.hands[event.seat] |= 1 << c
            if event.reason == PENALTY:
                TALLY.penalty_draws += 1
        elif isinstance(event, CardPlayed):
            played = (event.card, *event.more)
            if event.more:
                assert self.rules.quick, "several cards were played without the quick modifier"
                assert len({rank_name(c) for c in played}) == 1, "cards of two ranks were played together"
            for c in played:
                assert self.hands[event.seat] >> c & 1, "a card was played that the events never gave"
                self.hands[event.seat] ^= 1 << c
            self.last_played[event.seat] = played[-1]
            if event.declared >= 0:
                assert self.rules.blind and not event.more, "a card was played face down without blind"
                assert self.hands[event.seat], "a hand's last card was played face down"
            shown = event.declared if event.declared >= 0 else played[-1]
            due = self.call_due(shown, self.hands[event.seat].bit_count())
            if event.call == due:
                assert event.missed == NO_CALL
            else:
                # only silence, or "Mau" for "Mau Mau", is accepted as a missed call
                assert event.call in (NO_CALL, MAU) and due != NO_CALL and event.missed == due
            if not self.hands[event.seat] and not event.missed:
                self.went_out = event.seat  # the next event must end the round with this winner
        elif isinstance(event, RoundEnded):
            self.round_ended(event)
        elif isinstance(event, StockRecycled):
            TALLY.recycles += 1
            self.recycled_hands = list(self.hands)
        elif isinstance(event, PlayerEliminated):
            self.eliminated(event)
        elif isinstance(event, HandShrank):
            self.owed.remove(("lost", event.seat))
            assert event.hand_size == self.dealt[event.seat] - 1 >= 1, "a hand shrank by other than one card"
            self.sizes[event.seat] = event.hand_size
        elif isinstance(event, DealAnnulled):
            assert self.rules.redeal_four_of_a_kind and not self.in_round
            TALLY.annulled += 1
        elif isinstance(event, MatchEnded):
            assert not self.owed, f"the match ended with seats unpunished: {self.owed}"

    def eliminated(self, event: PlayerEliminated) -> None:
        assert not self.out >> event.seat & 1
        assert event.total == self.totals[event.seat]
        if event.reason == "over_ceiling":
            self.owed.remove(("over", event.seat))
        else:
            assert event.reason == "lost_holding_one_card"
            self.owed.remove(("lost", event.seat))
            assert self.dealt[event.seat] == 1
        self.out |= 1 << event.seat
        TALLY.eliminated += 1

    def round_ended(self, ended: RoundEnded) -> None:
        assert self.in_round
        self.in_round = False
        TALLY.rounds += 1
        TALLY.reasons[ended.reason] += 1
        values = [self.value(hand) for hand in self.hands]
        if self.went_out >= 0:
            assert (ended.winner, ended.reason) == (self.went_out, "went_out")
            self.went_out = -1
        else:
            assert ended.reason != "went_out"
        if ended.winner >= 0:
            assert ended.reason in ("went_out", "window_closed")
            assert 0 <= ended.winner < self.seats
            assert self.hands[ended.winner] == 0, "the round's winner still holds cards"
        elif ended.reason == "stalled":
            assert ended.winner == -1 and self.rules.stalled_round_ends
            assert self.hands == self.recycled_hands, "a round stalled with a hand changed since the recycle"
        else:
            assert ended.winner == -1 and ended.reason == "stock_exhausted"
        expected = self.expected_points(ended.winner, values)
        assert ended.points == expected
        totals = [t + p for t, p in zip(self.totals, ended.points, strict=True)]
        self.totals = [0 if total in self.rules.reset_totals else total for total in totals]
        assert list(ended.totals) == self.totals
        self.owed = self.punished(ended.winner, values)

    def punished(self, winner: int, values: list[int]) -> set[tuple[str, int]]:
        """The seats a round's end puts out over the ceiling, and its losers when hands shrink:
        the seats still in, but the winner, left with the most points in hand."""
        standing = [seat for seat in range(self.seats) if not self.out >> seat & 1]
        owed: set[tuple[str, int]] = set()
        ceiling = self.rules.elimination_total
        if ceiling is not None:
            owed |= {("over", seat) for seat in standing if self.totals[seat] > ceiling}
        if self.rules.shrinking_hands:
            worst = max((values[seat] for seat in standing if seat != winner), default=0)
            if worst > 0:
                owed |= {("lost", seat) for seat in standing if seat != winner and values[seat] == worst}
        return owed

    def check_state(self, s: State) -> None:
        if s.round_no:  # once dealt, the cards stay on the table, between rounds too
            assert s.hands == self.hands, "a hand differs from what the events gave"
            deck_mask = self.book.deck_mask
            seen, count = 0, 0
            for hand in s.hands:
                seen |= hand
                count += hand.bit_count()
            for c in s.stock:
                seen |= 1 << c
            for c in s.discard:
                seen |= 1 << c
            count += len(s.stock) + len(s.discard)
            assert count == len(self.book.deck) and seen == deck_mask, "a card is lost or in two places"
        assert s.totals == self.totals


def candidate_actions(s: State, seat: int) -> set[int]:
    """Everything a seat could try: a play of each card it holds (a wild naming each suit),
    drawing, keeping, challenging, naming each suit. (``check_legal_actions`` tries the same,
    built card by card from memos: ``candidates_tried``.)"""
    found = set(SEAT_ACTIONS)
    for c in _bits(s.hands[seat]):
        if s.book.wild >> c & 1:
            found |= {WILD_PLAY + c * 4 + suit for suit in range(4)}
        else:
            found.add(c)
        # face down as itself, as the top card, and as the card after it in the deck (blind)
        for declared in {c, s.discard[-1], (c + 1) % CARD_COUNT}:
            found |= {blind_action(c, declared, suit) for suit in (-1, 0)}
        # with a card of the same rank on it, in either order (suits for a wild top card)
        for other in _bits(s.hands[seat] & RANK_MASKS[c] & ~(1 << c)):
            found |= {several_action((c, other), suit) for suit in (-1, 0)}
    return found


# the actions a seat could try whatever it holds, and each card's rank as a mask
SEAT_ACTIONS = (DRAW, KEEP, CHALLENGE, CHALLENGE_DECLARATION, *(NAME_SUIT + suit for suit in range(4)))
RANK_MASKS = tuple(mask_of(rank_cards(c)) for c in range(CARD_COUNT))


def command_of(s: State, seat: int, action: int) -> Command:
    if action >= BLIND_PLAY:
        card, declared, _ = blind_play(action)
        held = s.hands[seat] >> card & 1
        return command_for(seat, action, call_due(s, seat, declared) if held else 0)
    if action >= SEVERAL_PLAY:
        cards, _ = several_cards(action)
        held = all(s.hands[seat] >> c & 1 for c in cards)
        return command_for(seat, action, call_due(s, seat, cards[-1], len(cards)) if held else 0)
    card = action if action < WILD_PLAY else (action - WILD_PLAY) >> 2 if action < DRAW else -1
    call = call_due(s, seat, card) if card >= 0 and s.hands[seat] >> card & 1 else NO_CALL
    # the engine's own commands made once (as its bots send them): the same values, built once
    return seat_commands(seat)[action] if call == NO_CALL else command_for(seat, action, call)


# ``check_legal_actions`` tries every seat's every candidate at every sampled step: most of the
# long runs' time went into building them (a set, then a command each, decoding the action again),
# not into ``decide``. A card's tries recur (the same seat, card and others of its rank held; the
# same top card), so they are made once: (action, command) pairs saying no call, and for each pair,
# (the card a call is due on, the cards played), for the plays that leave one card or none.
CardTries = tuple[tuple[tuple[int, Command], ...], tuple[tuple[int, int], ...]]
_CARD_TRIES: dict[tuple[int, int, int, int], CardTries] = {}
_TOP_TRIES: dict[tuple[int, int, int], CardTries] = {}
_SEAT_TRIES: dict[int, tuple[tuple[int, Command], ...]] = {}
_CALLED: dict[tuple[int, int, int], Command] = {}
_PLAIN: dict[tuple[int, int], Command] = {}
_MEMO_LIMIT = 1 << 16  # emptied when full, so a long run cannot grow them without bound


def candidates_tried(s: State, seat: int) -> list[tuple[int, Command]]:
    """``candidate_actions(s, seat)`` (in another order), each with its command (``command_of``)."""
    found = _SEAT_TRIES.get(seat)
    if found is None:
        found = _SEAT_TRIES[seat] = tuple((action, command_for(seat, action)) for action in SEAT_ACTIONS)
    tried = list(found)
    hand = s.hands[seat]
    if not hand:
        return tried
    book, top, held = s.book, s.discard[-1], hand.bit_count()
    for c in _bits(hand):
        key = (seat, c, book.wild >> c & 1, hand & RANK_MASKS[c] & ~(1 << c))
        own = _CARD_TRIES.get(key) or _card_tries(*key)
        as_top = _TOP_TRIES.get((seat, c, top)) or _top_tries(seat, c, top)
        for pairs, calls in (own, as_top):
            at = len(tried)
            tried += pairs
            if held >= 4:  # a play of one or two cards leaves two or more: no call is due
                continue
            for index, (called, count) in enumerate(calls):
                if held - count < 2:  # the play leaves one card or none
                    call = book.calls_due[held - count][called]
                    if call != NO_CALL:
                        action = pairs[index][0]
                        tried[at + index] = (action, _called(seat, action, call))
    return tried


def _card_tries(seat: int, c: int, wild: int, others: int) -> CardTries:
    """The tries of card ``c`` held by ``seat`` (``wild``: 1 if it is wild), ``others`` the other
    cards of its rank held, as ``candidate_actions`` makes them: but declared as the top card."""
    plays = [(WILD_PLAY + c * 4 + suit, c, 1) for suit in range(4)] if wild else [(c, c, 1)]
    for declared in {c, (c + 1) % CARD_COUNT}:
        plays += [(blind_action(c, declared, suit), declared, 1) for suit in (-1, 0)]
    for other in _bits(others):
        plays += [(several_action((c, other), suit), other, 2) for suit in (-1, 0)]
    if len(_CARD_TRIES) >= _MEMO_LIMIT:
        _CARD_TRIES.clear()
    found = _CARD_TRIES[seat, c, wild, others] = _tries(seat, plays)
    return found


def _top_tries(seat: int, c: int, top: int) -> CardTries:
    """Card ``c`` played face down as ``top``, the top card, unless ``_card_tries`` has it."""
    plays = (
        [] if top in (c, (c + 1) % CARD_COUNT) else [(blind_action(c, top, suit), top, 1) for suit in (-1, 0)]
    )
    if len(_TOP_TRIES) >= _MEMO_LIMIT:
        _TOP_TRIES.clear()
    found = _TOP_TRIES[seat, c, top] = _tries(seat, plays)
    return found


def _tries(seat: int, plays: list[tuple[int, int, int]]) -> CardTries:
    pairs = tuple((action, command_for(seat, action)) for action, _, _ in plays)
    return pairs, tuple((called, count) for _, called, count in plays)


def offered_command(s: State, seat: int, action: int) -> Command:
    """``command_of`` for an action ``legal_actions`` offers beyond the candidates (a face-down play
    declared as another card): with nine cards or more held (more than a play lays) none owes a
    call, and the command is made once."""
    if s.hands[seat].bit_count() < 10:
        return command_of(s, seat, action)
    command = _PLAIN.get((seat, action))
    if command is None:
        if len(_PLAIN) >= _MEMO_LIMIT:
            _PLAIN.clear()
        command = _PLAIN[seat, action] = command_for(seat, action)
    return command


def _called(seat: int, action: int, call: int) -> Command:
    key = (seat, action, call)
    command = _CALLED.get(key)
    if command is None:
        if len(_CALLED) >= _MEMO_LIMIT:
            _CALLED.clear()
        command = _CALLED[key] = command_for(seat, action, call)
    return command


def check_legal_actions(s: State) -> None:
    for seat in range(s.seats):
        legal = legal_actions(s, seat)
        offered = set(legal)
        assert len(offered) == len(legal), "an action is offered twice"
        accepted = _decided(s, offered, candidates_tried(s, seat))
        # what legal_actions offers beyond the candidates (a face-down play declared as another card)
        beyond = offered.difference(accepted)
        if beyond:
            _decided(s, offered, [(action, offered_command(s, seat, action)) for action in beyond])


def _decided(s: State, offered: set[int], tried: list[tuple[int, Command]]) -> list[int]:
    """Asserts ``decide`` accepts each tried command exactly when its action is ``offered``; the
    actions accepted."""
    accepted = []
    for action, command in tried:
        try:
            decide(s, command)
        except RuleError as refused:
            assert action not in offered, f"legal_actions offers {command!r}, decide refuses: {refused.code}"
        else:
            assert action in offered, f"decide accepts {command!r}, legal_actions does not offer it"
            accepted.append(action)
    return accepted


def play_match(
    rules: Ruleset,
    seats: int,
    seed: int,
    kinds: list[str],
    forgetfulness: float,
    vigilance: float,
    legal_every: int = 1,
    max_steps: int = MAX_STEPS,
    round_steps: int | None = None,
) -> Table:
    """Bots play a match at ``seats`` seats, every invariant checked as they go; with
    ``round_steps``, a round still going after that many commands fails."""
    table = Table(rules, seats, seed)
    rng = random.Random(seed)
    bots = [
        BOTS[kinds[seat % len(kinds)]](random.Random(rng.random()), forgetfulness, vigilance)
        for seat in range(seats)
    ]
    referee = Referee(rules, seats)
    assert isinstance(table.events[0], MatchStarted)
    TALLY.games += 1
    steps = round_began = 0
    while not table.over:
        steps += 1
        if round_steps is not None:
            assert steps - round_began <= round_steps, f"a round went on for {round_steps} commands"
        if steps > max_steps:
            TALLY.unfinished += 1
            referee.check_state(table.state)
            assert fold(table.events) == table.state
            return table
        s = table.state
        sampled = steps < CHECK_ALL_UNTIL or steps % CHECK_EVERY == 0
        if is_chance(s):
            assert all(legal_actions(s, seat) == () for seat in range(seats))
            command = table.shuffler.outcome(s)
        else:
            if sampled and steps % legal_every == 0:
                check_legal_actions(s)
            command = None
            if s.missed is not None and s.phase in (PLAY, DRAWN):
                offender = s.missed[0]
                for k in range(1, seats):
                    seat = (offender + k) % seats
                    if bots[seat].challenges(s, seat):
                        command = Challenge(seat)
                        TALLY.challenges += 1
                        break
            if command is None:
                actor = s.dealer if s.phase == NAMING_SUIT else s.turn
                command = bots[actor].choose(s, actor)
        before = (len(s.stock) + len(s.discard) - 1, s.debt, s.phase)
        events = table.execute(command)
        assert events, f"{command!r} was accepted and changed nothing"
        for event in events:
            referee.follow(event, table.state)
        for event in events:
            if isinstance(event, RoundEnded) and event.winner < 0:
                check_exhaustion_was_real(rules, command, before, event.reason == "stalled")
        round_over = any(isinstance(e, RoundEnded) for e in events)
        if any(isinstance(e, RoundDealt) for e in events):
            round_began = steps
        if sampled or round_over:
            referee.check_state(table.state)
        folding = steps % FOLD_EVERY == 0 if steps < CHECK_ALL_UNTIL else steps % (50 * FOLD_EVERY) == 0
        if round_over or folding:
            assert fold(table.events) == table.state, f"the fold differs from the state after {command!r}"
    TALLY.steps += steps
    TALLY.matches_over += 1
    check_match_end(rules, table, referee)
    return table


def check_exhaustion_was_real(
    rules: Ruleset, command: Command, before: tuple[int, int, int], stalled: bool
) -> None:
    """A round stops with no winner only when a draw could not be made in full, or (stalled) when a
    draw needed the discards again with every hand as at the last recycle (``Referee``)."""
    available, debt, phase = before
    if isinstance(command, DrawCard):
        needed = debt or 1
    elif isinstance(command, ChallengeDeclaration):  # blind: the liar or the wrong challenger draws
        needed = BLIND_PENALTY
    else:
        assert isinstance(command, Challenge)
        needed = rules.call_penalty
    assert phase in (PLAY, DRAWN)
    assert available >= needed if stalled else available < needed


def check_match_end(rules: Ruleset, table: Table, referee: Referee) -> None:
    s = table.state
    ended = table.events[-1]
    assert isinstance(ended, MatchEnded)
    assert [type(e) for e in table.events].count(MatchEnded) == 1
    totals = list(ended.totals)
    assert totals == s.totals
    dealt = [e for e in table.events if isinstance(e, RoundDealt)]
    ends = [e for e in table.events if isinstance(e, RoundEnded)]
    assert len(dealt) == len(ends) >= 1
    assert [e.round_no for e in dealt] == list(range(1, len(dealt) + 1))
    # each deal passes to the next seat on the left still in the match
    dealer = table.events[0].first_dealer
    for e, out in zip(dealt, referee.out_at_deals, strict=True):
        while out >> dealer & 1:
            dealer = (dealer + 1) % s.seats
        assert e.dealer == dealer
        dealer = (dealer + 1) % s.seats
    standing = tuple(seat for seat in range(s.seats) if not referee.out >> seat & 1)
    outright = rules.winning_total is not None and rules.winning_total in [totals[seat] for seat in standing]
    if outright:
        assert ended.winners == tuple(seat for seat in standing if totals[seat] == rules.winning_total)
    elif (rules.elimination_total is not None or rules.shrinking_hands) and not rules.single_round:
        # the last seat standing wins; a round that puts out every seat still in shares the win
        assert ended.winners == standing or (not standing and len(ended.winners) > 1)
    else:
        assert rules.single_round or max(totals) >= rules.target_score
        best = min(totals) if rules.match_winner == "lowest_total" else max(totals)
        assert ended.winners == tuple(seat for seat, total in enumerate(totals) if total == best)
        # before the last round, no total had reached the target
        for end in ends[:-1]:
            assert not rules.single_round and max(end.totals) < rules.target_score


# ---- the tables hypothesis chooses

rates = st.floats(min_value=0.02, max_value=0.7)
kinds = st.lists(st.sampled_from(sorted(BOTS)), min_size=1, max_size=4)
seeds = st.integers(min_value=0, max_value=2**32)


def _examples(count: int) -> settings:
    return settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# The properties, each made for a number of examples: ``tests/unit`` runs a few of each (fast),
# ``tests/properties`` the long runs (about 1,800 matches and 3,300 rounds in all, some 30 seconds
# on an idle machine).


def single_round_club_games(examples: int) -> Callable[..., None]:
    @_examples(examples)
    @given(
        seed=seeds,
        seats=st.integers(2, 6),
        kinds=kinds,
        forgetfulness=rates,
        vigilance=rates,
        hand_size=st.sampled_from((1, 2, 3, 5, 8)),
        voluntary_draw=st.booleans(),
        call_penalty=st.sampled_from((0, 2, 3)),
    )
    def keep_every_invariant(
        seed, seats, kinds, forgetfulness, vigilance, hand_size, voluntary_draw, call_penalty
    ):
        rules = ruleset(
            "club",
            single_round=True,
            hand_size=hand_size,
            voluntary_draw=voluntary_draw,
            call_penalty=call_penalty,
        )
        play_match(rules, seats, seed, kinds, forgetfulness, vigilance)

    return keep_every_invariant


def single_round_mau_mau_150_games(examples: int) -> Callable[..., None]:
    @_examples(examples)
    @given(
        seed=seeds,
        seats=st.integers(2, 4),
        kinds=kinds,
        forgetfulness=rates,
        vigilance=rates,
        hand_size=st.integers(1, 7),
    )
    def keep_every_invariant(seed, seats, kinds, forgetfulness, vigilance, hand_size):
        rules = ruleset("mau-mau-150", single_round=True, hand_size=hand_size)
        play_match(rules, seats, seed, kinds, forgetfulness, vigilance)

    return keep_every_invariant


def whole_club_matches(examples: int) -> Callable[..., None]:
    @_examples(examples)
    @given(seed=seeds, seats=st.integers(2, 6), kinds=kinds, forgetfulness=rates, vigilance=rates)
    def keep_every_invariant(seed, seats, kinds, forgetfulness, vigilance):
        play_match(ruleset("club"), seats, seed, kinds, forgetfulness, vigilance, legal_every=CHECK_EVERY)

    return keep_every_invariant


def whole_mau_mau_150_matches(examples: int) -> Callable[..., None]:
    @_examples(examples)
    @given(seed=seeds, seats=st.integers(2, 4), kinds=kinds, forgetfulness=rates, vigilance=rates)
    def keep_every_invariant(seed, seats, kinds, forgetfulness, vigilance):
        play_match(
            ruleset("mau-mau-150"), seats, seed, kinds, forgetfulness, vigilance, legal_every=CHECK_EVERY
        )

    return keep_every_invariant


# club with a deck of a few ranks: stocks run dry, recycles and exhausted draws are common.
# A fixed few, since compiling a ruleset's rulebook takes a while (and is cached).
SMALL_DECKS = (
    (("5", "7"), 3, 2),
    (("5", "7", "8", "J"), 3, 4),
    (("5", "7", "8", "J"), 1, 3),
    (("2", "J"), 1, 2),
    (("9", "10", "Q", "K", "A", "J"), 5, 4),
    (("7", "8", "9"), 2, 3),
)


@st.composite
def small_decks(draw):
    ranks, hand_size, seats = draw(st.sampled_from(SMALL_DECKS))
    rules = msgspec.structs.replace(
        small_deck_club(ranks, hand_size, max_players=seats),
        single_round=draw(st.booleans()),
        target_score=30,
        voluntary_draw=draw(st.booleans()),
    )
    return rules, seats


def small_deck_club_games(examples: int) -> Callable[..., None]:
    @_examples(examples)
    @given(table=small_decks(), seed=seeds, kinds=kinds, forgetfulness=rates, vigilance=rates)
    def keep_every_invariant(table, seed, kinds, forgetfulness, vigilance):
        rules, seats = table
        play_match(rules, seats, seed, kinds, forgetfulness, vigilance, max_steps=3_000)

    return keep_every_invariant


every_preset = pytest.mark.parametrize("name", sorted(PRESETS))

# A round of a preset played by bots ends well within this many commands (a few hundred at most
# is usual); one still going after it is stuck, not unlucky. Where players may draw by choice,
# random bots take a random walk with a long tail (the longest of 300 two-deck pesten rounds of
# one card each: about 7,300 commands), so the bound is wider there.
ROUND_STEPS = 5_000
ROUND_STEPS_DRAWING_BY_CHOICE = 100_000
# a preset's match is played out (its rounds bounded as above), never cut short
PRESET_MATCH_STEPS = 10**7


def round_bound(rules: Ruleset) -> int:
    return ROUND_STEPS_DRAWING_BY_CHOICE if rules.voluntary_draw else ROUND_STEPS


@st.composite
def preset_tables(draw, name: str, single_round: bool) -> tuple[Ruleset, int]:
    """Preset ``name`` with each of its own switches on or off, one deck or two, a hand size it
    allows, the club's options drawn or left as the preset has them, the modifiers on or off, and a
    number of seats it seats: any for a single round (101's queens once went round for ever only at
    five seats), four at most for a whole match, so matches stay short."""
    base = PRESETS[name]
    wanted = [key for key in SWITCHES.get(name, {}) if draw(st.booleans())]
    options = every_switch_that_fits(name, wanted)
    decks = draw(st.sampled_from((1, 2)))
    deck_size = (4 * len(base.ranks) + base.jokers) * decks
    largest = min(base.hand_size + 2, (deck_size - 2) // base.max_players)
    options["hand_size"] = draw(st.sampled_from(sorted({1, base.hand_size, largest})))
    if draw(st.booleans()):
        options["voluntary_draw"] = not base.voluntary_draw
    if draw(st.booleans()):
        options["call_penalty"] = draw(st.sampled_from((0, 3)))
    options |= dict.fromkeys(draw(st.sets(st.sampled_from(MODIFIERS))), True)  # quick, blind
    rules = ruleset(name, single_round=single_round, decks=decks, **options)
    if single_round:
        most = min(most_players(rules), (deck_size - 2) // rules.hand_size)
    else:
        most = min(base.max_players, 4)
    seats = draw(st.integers(base.min_players, most))
    return rules, seats


def single_round_preset_games(examples: int) -> Callable[..., None]:
    """Every preset with its switches, one round each: ``examples`` for each preset."""

    @every_preset
    @_examples(examples)
    @given(
        data=st.data(),
        seed=seeds,
        kinds=kinds,
        forgetfulness=rates,
        vigilance=rates,
    )
    def keep_every_invariant(name, data, seed, kinds, forgetfulness, vigilance):
        rules, seats = data.draw(preset_tables(name, single_round=True))
        play_match(
            rules,
            seats,
            seed,
            kinds,
            forgetfulness,
            vigilance,
            max_steps=PRESET_MATCH_STEPS,
            round_steps=round_bound(rules),
        )

    return keep_every_invariant


def whole_preset_matches(examples: int) -> Callable[..., None]:
    """Every preset with its switches, played to the match's end: its scoring, its eliminations
    and shrinking hands, its redeals. ``examples`` for each preset."""

    @every_preset
    @_examples(examples)
    @given(
        data=st.data(),
        seed=seeds,
        kinds=kinds,
        forgetfulness=rates,
        vigilance=rates,
    )
    def keep_every_invariant(name, data, seed, kinds, forgetfulness, vigilance):
        rules, seats = data.draw(preset_tables(name, single_round=False))
        play_match(
            rules,
            seats,
            seed,
            kinds,
            forgetfulness,
            vigilance,
            legal_every=CHECK_EVERY,
            max_steps=PRESET_MATCH_STEPS,
            round_steps=round_bound(rules),
        )

    return keep_every_invariant


def every_switch_that_fits(name: str, wanted: list[str]) -> dict[str, bool | int]:
    """The ``wanted`` switches of a preset turned on in order, leaving out one that contradicts those
    already on (101's two ceilings)."""
    options: dict[str, bool | int] = {}
    for key in wanted:
        try:
            ruleset(name, **options, **{key: True})
        except RuleError:
            continue
        options[key] = True
    return options


def _entry(table: dict[str, int], card: int) -> int | None:
    """A card's entry in a table keyed by cards ("QS") and ranks ("Q"): the card's own first."""
    found = table.get(format_card(card % DECK_SIZE))
    return table.get(rank_name(card)) if found is None else found
