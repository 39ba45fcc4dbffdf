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
points are the values of the hands as they stand, and the totals add up.
"""

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec
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
from service.domain.commands import Challenge, Command, DrawCard
from service.domain.engine import call_due, command_for, decide, fold, is_chance, legal_actions
from service.domain.errors import RuleError
from service.domain.events import (
    CardPlayed,
    CardsDrawn,
    DeclarationsRevealed,
    Event,
    MatchEnded,
    MatchStarted,
    RoundDealt,
    RoundEnded,
    StockRecycled,
)
from service.domain.rulebook import MAU, MAU_MAU, NO_CALL, rulebook
from service.domain.rulesets import MODIFIERS, PRESETS, SWITCHES, Ruleset, ruleset
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
    return [c for c in range(CARD_COUNT) if mask >> c & 1]


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
            size = self.rules.hand_size
            hands = [0] * self.seats
            for i in range(self.seats * size):
                hands[(event.dealer + 1 + i) % self.seats] |= 1 << event.deck[i]
            self.hands = hands
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
        else:
            assert ended.winner == -1 and ended.reason == "stock_exhausted"
        expected = self.expected_points(ended.winner, values)
        assert ended.points == expected
        totals = [t + p for t, p in zip(self.totals, ended.points, strict=True)]
        self.totals = [0 if total in self.rules.reset_totals else total for total in totals]
        assert list(ended.totals) == self.totals

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
    drawing, keeping, challenging, naming each suit."""
    found = {DRAW, KEEP, CHALLENGE, CHALLENGE_DECLARATION, *(NAME_SUIT + suit for suit in range(4))}
    for c in _bits(s.hands[seat]):
        if s.book.wild >> c & 1:
            found |= {WILD_PLAY + c * 4 + suit for suit in range(4)}
        else:
            found.add(c)
        # face down as itself, as the top card, and as the card after it in the deck (blind)
        for declared in {c, s.discard[-1], (c + 1) % CARD_COUNT}:
            found |= {blind_action(c, declared, suit) for suit in (-1, 0)}
        # with a card of the same rank on it, in either order (suits for a wild top card)
        for other in _bits(s.hands[seat] & mask_of(rank_cards(c)) & ~(1 << c)):
            found |= {several_action((c, other), suit) for suit in (-1, 0)}
    return found


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
    call = call_due(s, seat, card) if card >= 0 and s.hands[seat] >> card & 1 else 0
    return command_for(seat, action, call)


def check_legal_actions(s: State) -> None:
    for seat in range(s.seats):
        legal = legal_actions(s, seat)
        assert len(set(legal)) == len(legal), "an action is offered twice"
        for action in candidate_actions(s, seat) | set(legal):
            command = command_of(s, seat, action)
            try:
                decide(s, command)
            except RuleError as refused:
                assert action not in legal, (
                    f"legal_actions offers {command!r}, decide refuses: {refused.code}"
                )
            else:
                assert action in legal, f"decide accepts {command!r}, legal_actions does not offer it"


def play_match(
    rules: Ruleset,
    seats: int,
    seed: int,
    kinds: list[str],
    forgetfulness: float,
    vigilance: float,
    legal_every: int = 1,
    max_steps: int = MAX_STEPS,
) -> Table:
    table = Table(rules, seats, seed)
    rng = random.Random(seed)
    bots = [
        BOTS[kinds[seat % len(kinds)]](random.Random(rng.random()), forgetfulness, vigilance)
        for seat in range(seats)
    ]
    referee = Referee(rules, seats)
    assert isinstance(table.events[0], MatchStarted)
    TALLY.games += 1
    steps = 0
    while not table.over:
        steps += 1
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
        if any(isinstance(e, RoundEnded) and e.winner < 0 for e in events):
            check_exhaustion_was_real(rules, command, before)
        round_over = any(isinstance(e, RoundEnded) for e in events)
        if sampled or round_over:
            referee.check_state(table.state)
        folding = steps % FOLD_EVERY == 0 if steps < CHECK_ALL_UNTIL else steps % (50 * FOLD_EVERY) == 0
        if round_over or folding:
            assert fold(table.events) == table.state, f"the fold differs from the state after {command!r}"
    TALLY.steps += steps
    TALLY.matches_over += 1
    check_match_end(rules, table)
    return table


def check_exhaustion_was_real(rules: Ruleset, command: Command, before: tuple[int, int, int]) -> None:
    """A round stops with no winner only when a draw could not be made in full."""
    available, debt, phase = before
    if isinstance(command, DrawCard):
        needed = debt or 1
    else:
        assert isinstance(command, Challenge)
        needed = rules.call_penalty
    assert phase in (PLAY, DRAWN)
    assert available < needed


def check_match_end(rules: Ruleset, table: Table) -> None:
    s = table.state
    ended = table.events[-1]
    assert isinstance(ended, MatchEnded)
    assert [type(e) for e in table.events].count(MatchEnded) == 1
    totals = list(ended.totals)
    assert totals == s.totals
    assert rules.single_round or max(totals) >= rules.target_score
    best = min(totals) if rules.match_winner == "lowest_total" else max(totals)
    assert ended.winners == tuple(seat for seat, total in enumerate(totals) if total == best)
    dealt = [e for e in table.events if isinstance(e, RoundDealt)]
    ends = [e for e in table.events if isinstance(e, RoundEnded)]
    assert len(dealt) == len(ends) >= 1
    assert [e.round_no for e in dealt] == list(range(1, len(dealt) + 1))
    first = table.events[0].first_dealer
    assert [e.dealer for e in dealt] == [(first + k) % s.seats for k in range(len(dealt))]
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


def single_round_preset_games(examples: int) -> Callable[..., None]:
    """Every preset, its own switches all off or all on, one deck or two: one round each."""

    @_examples(examples)
    @given(
        seed=seeds,
        name=st.sampled_from(sorted(PRESETS)),
        seats=st.integers(2, 4),
        kinds=kinds,
        forgetfulness=rates,
        vigilance=rates,
        switched=st.booleans(),
        decks=st.sampled_from((1, 1, 2)),
        modifiers=st.sets(st.sampled_from(MODIFIERS)),
    )
    def keep_every_invariant(seed, name, seats, kinds, forgetfulness, vigilance, switched, decks, modifiers):
        options = dict.fromkeys(SWITCHES.get(name, {}), True) if switched else {}
        options |= dict.fromkeys(modifiers, True)
        rules = ruleset(name, single_round=True, decks=decks, **options)
        play_match(rules, seats, seed, kinds, forgetfulness, vigilance)

    return keep_every_invariant


def _entry(table: dict[str, int], card: int) -> int | None:
    """A card's entry in a table keyed by cards ("QS") and ranks ("Q"): the card's own first."""
    found = table.get(format_card(card % DECK_SIZE))
    return table.get(rank_name(card)) if found is None else found
