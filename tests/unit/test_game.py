"""The Game aggregate without a database: engine events recorded one by one, chance, checks."""

import random
import uuid

import pytest

from service.domain.adjudication import Penalty, Resume, Void
from service.domain.cards import format_card, parse_card
from service.domain.commands import DealRound, DrawCard, PlayCard, StartMatch
from service.domain.engine import fold
from service.domain.errors import RuleError
from service.domain.events import (
    CardPlayed,
    HiddenCardsReshuffled,
    MatchStarted,
    RoundDealt,
    RoundEnded,
    StockRecycled,
)
from service.domain.fairness import verify
from service.domain.game import Game
from service.domain.game_facts import FACT_EVENTS
from service.domain.history import Cause
from service.domain.image import copy_state, restore
from service.domain.presets import CLUB
from service.domain.roles import SYSTEM, Actor
from service.domain.ruleset_options import ruleset
from service.domain.seats import Seat
from service.domain.state import OVER, PENALTY, PLAY
from tests.gameplay import SAME_ENTROPY, game_after, next_command, voided_into_a_revealed_round

PLAYERS = [str(uuid.UUID(int=n)) for n in range(1, 7)]
REFEREE = Actor("referee", "rita")


def cause(actor: Actor = SYSTEM, key: str | None = None, digest: str = "") -> Cause:
    return Cause(actor, "test", key, digest)


def new_game(seats: int = 3, seed: str = "s", **kwargs) -> Game:
    rules = kwargs.pop("ruleset", CLUB)
    who = kwargs.pop("by", SYSTEM)
    kwargs.setdefault("entropy", SAME_ENTROPY)  # each seed deals the same cards every run
    return Game.create(
        ruleset=rules,
        seats=tuple(Seat("player", PLAYERS[i]) for i in range(seats)),
        seed=seed,
        cause=cause(who),
        **kwargs,
    )


def facts(game: Game) -> list:
    return [event.fact for event in game.pending_events if isinstance(event, Game.Fact)]


def settle(game: Game) -> list:
    """Take the pending events off the game, as a save would."""
    return list(game.collect_events())


def play_randomly(game: Game, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if game.over:
            return
        game.execute(next_command(game.state, rng), cause())


def test_every_engine_event_type_has_a_game_event_named_after_it():
    for engine_type, event_class in FACT_EVENTS.items():
        assert event_class.__qualname__ == f"Game.{engine_type.__name__}"
        assert getattr(Game, engine_type.__name__) is event_class
        assert issubclass(event_class, Game.Fact)


def test_a_new_game_is_created_started_and_dealt_in_one_batch():
    game = new_game(3)
    kinds = [type(event).__qualname__ for event in game.pending_events]
    assert kinds == ["Game.Created", "Game.MatchStarted", "Game.RoundDealt"]
    assert [event.originator_version for event in game.pending_events] == [1, 2, 3]
    assert game.state == fold(facts(game))
    assert game.state.phase == PLAY
    assert sum(hand.bit_count() for hand in game.state.hands) == 15


def test_the_same_seed_and_entropy_deal_the_same_cards_and_another_of_either_other_cards():
    deck = lambda seed, entropy=None: facts(new_game(4, seed, entropy=entropy))[1].deck  # noqa: E731
    fixed = "e" * 64
    assert deck("one", fixed) == deck("one", fixed)
    assert deck("one", fixed) != deck("two", fixed)
    assert deck("one", fixed) != deck("one", "f" * 64)
    # without a given entropy every game draws its own: a seed alone fixes no deal
    assert deck("one") != deck("one")


def test_a_game_draws_its_own_entropy_of_256_bits_and_keeps_it_only_in_its_creation():
    games = [new_game(2, "table 4", entropy=None) for _ in range(3)]
    drawn = [game.pending_events[0].entropy for game in games]
    assert len(set(drawn)) == 3
    assert all(len(entropy) == 64 and int(entropy, 16) >= 0 for entropy in drawn)
    assert len({game.seed for game in games}) == 3 and "table 4" not in {game.seed for game in games}
    with pytest.raises(ValueError):
        new_game(2, "table 4", entropy="short")


def test_an_explicit_deck_and_dealer_are_for_referees_and_admins():
    order = tuple(range(52))
    with pytest.raises(RuleError) as refused:
        new_game(2, deck=order)
    assert refused.value.code == "not_allowed"
    with pytest.raises(RuleError):
        new_game(2, first_dealer=1, by=Actor("player", PLAYERS[0]))
    game = new_game(2, deck=order, first_dealer=1, by=REFEREE)
    started, dealt = facts(game)
    assert started == MatchStarted(CLUB, 2, 1)
    assert dealt.deck == order
    assert dealt.dealer == 1


def test_an_invalid_deck_or_player_count_refuses_the_game():
    with pytest.raises(RuleError) as refused:
        new_game(2, deck=(1, 2, 3), by=REFEREE)
    assert refused.value.code == "invalid_deck"
    with pytest.raises(RuleError) as refused:
        new_game(1)
    assert refused.value.code == "player_count"
    with pytest.raises(RuleError) as refused:
        new_game(2, first_dealer=5, by=REFEREE)
    assert refused.value.code == "not_a_seat"


def test_each_engine_event_of_a_move_becomes_one_stored_event_with_the_cause_on_the_first():
    game = new_game(3, seed="moves")
    settle(game)
    rng = random.Random(1)
    for _ in range(60):
        command = next_command(game.state, rng)
        game.execute(command, Cause(SYSTEM, type(command).__name__))
        batch = settle(game)
        assert batch[0].cause == Cause(SYSTEM, type(command).__name__)
        assert all(getattr(event, "cause", None) is None for event in batch[1:])
        numbers = [event.originator_version for event in batch]
        assert numbers == list(range(numbers[0], numbers[0] + len(batch)))
        if game.over:
            break


def test_a_refused_move_records_nothing_and_changes_nothing():
    game = new_game(3, seed="refusals")
    settle(game)
    s = game.state
    before = copy_state(s)
    other = (s.turn + 1) % 3
    held = next(c for c in range(52) if s.hands[s.turn] >> c & 1)
    missing = next(c for c in range(52) if not s.hands[s.turn] >> c & 1)
    cases = [
        (PlayCard(other, held), SYSTEM, "not_your_turn"),
        (PlayCard(s.turn, missing), SYSTEM, "card_not_in_hand"),
        (PlayCard(s.turn, 108), SYSTEM, "malformed_card"),
        (PlayCard(7, held), SYSTEM, "not_a_seat"),
        (PlayCard(s.turn, held), Actor("player", PLAYERS[other]), "not_your_seat"),
        (DealRound(tuple(range(52))), SYSTEM, "not_a_move"),
        (StartMatch(CLUB, 3, 0), SYSTEM, "not_a_move"),
    ]
    for command, actor, code in cases:
        with pytest.raises(RuleError) as refused:
            game.execute(command, cause(actor))
        assert refused.value.code == code, command
        assert game.pending_events == []
        assert game.state == before


def test_a_player_moves_for_their_own_seat():
    game = new_game(3, seed="own seat")
    settle(game)
    seat = game.state.turn
    command = next_command(game.state, random.Random(0), challenge_rate=0)
    game.execute(command, cause(Actor("player", PLAYERS[seat])))
    assert settle(game)


def test_deals_and_recycles_carry_commitments_revealed_when_the_round_ends():
    # a long game with few cards in the stock: recycles happen
    game = new_game(6, seed="long", ruleset=ruleset("club", hand_size=8, target_score=60))
    rng = random.Random(5)
    revealed = {}
    shuffles = {}
    while not game.over:
        for event in settle(game):
            if isinstance(event, Game.Shuffled):
                shuffles[event.originator_version] = event
                order = event.fact.deck if isinstance(event.fact, RoundDealt) else event.fact.order
                assert verify(event.commitment, event.salt, order)
                assert not verify(event.commitment, event.salt, order[::-1])
            if isinstance(event, Game.DeckRevealed):
                for entry in event.salts:
                    revealed[entry.number] = entry.salt
        game.execute(next_command(game.state, rng), cause())
    for event in settle(game):
        if isinstance(event, Game.DeckRevealed):
            for entry in event.salts:
                revealed[entry.number] = entry.salt
    kinds = {type(event.fact) for event in shuffles.values()}
    assert kinds == {RoundDealt, StockRecycled}
    assert revealed == {number: event.salt for number, event in shuffles.items()}
    assert game.unrevealed == []


def test_the_salts_are_revealed_right_after_the_round_ends():
    game = new_game(2, seed="reveal", ruleset=ruleset("club", single_round=True))
    rng = random.Random(2)
    while not game.over:
        game.execute(next_command(game.state, rng), cause())
    events = settle(game)
    ended = next(i for i, e in enumerate(events) if isinstance(e, Game.RoundEnded))
    after = [type(e).__qualname__ for e in events[ended:]]
    assert after == ["Game.RoundEnded", "Game.MatchEnded", "Game.DeckRevealed"]
    assert events[-1].salts[0].number == 3


def test_a_finished_match_refuses_every_move_with_game_over():
    game = new_game(2, seed="over", ruleset=ruleset("club", single_round=True))
    rng = random.Random(3)
    while not game.over:
        game.execute(next_command(game.state, rng), cause())
    settle(game)
    assert game.state.phase == OVER
    with pytest.raises(RuleError) as refused:
        game.execute(DrawCard(0), cause())
    assert refused.value.code == "game_over"
    assert game.pending_events == []


# ---------------------------------------------------------------------------
# disputes


def test_a_dispute_pauses_every_move_until_a_ruling():
    game = new_game(3, seed="pause")
    settle(game)
    game.raise_dispute(cause(Actor("player", PLAYERS[1])), reason="he peeked", about=3)
    (raised,) = settle(game)
    assert raised.dispute.seat == 1 and raised.dispute.about == 3 and raised.dispute.raised_at == 4
    rng = random.Random(0)
    for _ in range(20):
        with pytest.raises(RuleError) as refused:
            game.execute(next_command(game.state, rng), cause())
        assert refused.value.code == "game_paused"
    with pytest.raises(RuleError) as refused:
        game.raise_dispute(cause(REFEREE))
    assert refused.value.code == "dispute_open"
    assert game.pending_events == []
    game.give_ruling(Resume(), cause(REFEREE))
    assert [type(e).__qualname__ for e in settle(game)] == ["Game.RulingGiven"]
    game.execute(next_command(game.state, rng, challenge_rate=0), cause())


def test_only_the_table_and_officials_raise_disputes_and_only_officials_rule():
    game = new_game(2, seed="who")
    settle(game)
    with pytest.raises(RuleError) as refused:
        game.raise_dispute(cause(Actor("player", PLAYERS[5])))
    assert refused.value.code == "not_allowed"
    with pytest.raises(RuleError) as refused:
        game.give_ruling(Resume(), cause(REFEREE))
    assert refused.value.code == "no_dispute"
    game.raise_dispute(cause(Actor("player", PLAYERS[0])))
    with pytest.raises(RuleError) as refused:
        game.give_ruling(Resume(), cause(Actor("player", PLAYERS[0])))
    assert refused.value.code == "not_allowed"
    with pytest.raises(RuleError) as refused:
        game.raise_dispute(cause(REFEREE), about=99)
    assert refused.value.code == "dispute_open"


def test_a_penalty_ruling_draws_cards_from_the_stock_and_keeps_the_turn():
    game = new_game(3, seed="penalty")
    settle(game)
    s = game.state
    turn, stock_top = s.turn, s.stock[-3:]
    before = s.hands[2].bit_count()
    game.raise_dispute(cause(REFEREE))
    settle(game)
    with pytest.raises(RuleError) as refused:
        game.give_ruling(Penalty(2, 0), cause(REFEREE))
    assert refused.value.code == "invalid_ruling"
    game.give_ruling(Penalty(2, 3), cause(REFEREE), note="showed a card")
    ruled, drawn = settle(game)
    assert ruled.ruling == Penalty(2, 3) and ruled.note == "showed a card"
    assert drawn.fact.reason == PENALTY and drawn.fact.cards == tuple(reversed(stock_top))
    assert game.state.hands[2].bit_count() == before + 3
    assert game.state.turn == turn and not game.paused


def test_a_void_ruling_goes_on_from_the_state_before_the_voided_event():
    game = new_game(3, seed="void")
    stored = settle(game)
    rng = random.Random(9)
    while game.version < 12:
        game.execute(next_command(game.state, rng, challenge_rate=0), cause())
        stored += settle(game)

    # the replay a referee would see: the game right after event n
    def state_after(number: int):
        return game_after(stored, number).state

    game.raise_dispute(cause(REFEREE), about=5)
    raised_at = game.version
    settle(game)
    for too_early_or_late in (2, raised_at):
        with pytest.raises(RuleError) as refused:
            game.give_ruling(
                Void(too_early_or_late), cause(REFEREE), game_after=lambda n: game_after(stored, n)
            )
        assert refused.value.code == "invalid_ruling"
        assert game.pending_events == []
    game.give_ruling(Void(5), cause(REFEREE), game_after=lambda n: game_after(stored, n))
    (ruled,) = settle(game)
    assert restore(ruled.restored) == state_after(4)
    assert game.state == state_after(4) and not game.paused


def test_voiding_the_first_deal_deals_again_from_a_fresh_shuffle():
    game = new_game(3, seed="void deal")
    stored = settle(game)
    game.raise_dispute(cause(REFEREE))
    settle(game)
    game.give_ruling(
        Void(3),
        cause(REFEREE),
        game_after=lambda n: game_after(stored, n),
    )
    _ruled, dealt = settle(game)
    assert isinstance(dealt.fact, RoundDealt) and dealt.fact.round_no == 1
    assert dealt.fact.deck != stored[2].fact.deck
    assert game.state.round_no == 1 and game.state.phase == PLAY


def test_idempotency_keys_are_remembered_from_the_events():
    game = new_game(2, seed="keys")
    settle(game)
    command = next_command(game.state, random.Random(0), challenge_rate=0)
    game.execute(command, cause(key="k1", digest="d1"))
    first = settle(game)[0].originator_version
    assert game.done_before("k1", "d1") == first
    assert game.done_before("k2", "d1") is None
    with pytest.raises(RuleError) as refused:
        game.done_before("k1", "another command")
    assert refused.value.code == "idempotency_key_reused"


def test_a_snapshot_image_rebuilds_an_equal_game():
    game = new_game(4, seed="image")
    rng = random.Random(4)
    play_randomly(game, rng, 80)
    game.raise_dispute(cause(REFEREE, key="dispute", digest="x"))
    settle(game)
    snapshot = Game.Snapshot.take(game)
    rebuilt = snapshot.mutate(None)
    assert rebuilt.version == game.version
    assert rebuilt.state == game.state
    assert rebuilt.image() == game.image()
    assert rebuilt.keys == {"dispute": ("x", game.version)}


def test_seats_parse_players_and_bots():
    player = uuid.uuid4()
    assert Seat.parse(player) == Seat("player", str(player))
    assert Seat.parse(str(player)) == Seat("player", str(player))
    assert Seat.parse("bot:heuristic") == Seat("bot", "heuristic")
    for bad, code in (("bot:nobody", "unknown_bot"), ("Ann", "invalid_seat"), (5, "invalid_seat")):
        with pytest.raises(RuleError) as refused:
            Seat.parse(bad)
        assert refused.value.code == code


def test_card_events_name_real_cards():
    game = new_game(2, seed="cards")
    rng = random.Random(1)
    play_randomly(game, rng, 30)
    for event in settle(game):
        if isinstance(event, Game.Fact) and isinstance(event.fact, CardPlayed):
            assert parse_card(format_card(event.fact.card)) == event.fact.card
        if isinstance(event, Game.Fact) and isinstance(event.fact, RoundEnded):
            assert len(event.fact.points) == 2


def test_a_penalty_larger_than_the_stock_recycles_the_discards_first():
    game = new_game(6, seed="short stock", ruleset=ruleset("club", hand_size=8, target_score=500))
    rng = random.Random(6)
    settle(game)
    # play until the discards could cover a penalty the stock cannot
    while not (0 < len(game.state.stock) < len(game.state.stock) + len(game.state.discard) - 4):
        game.execute(next_command(game.state, rng, challenge_rate=0), cause())
        settle(game)
    s = game.state
    count = len(s.stock) + 2
    turn, phase, hand = s.turn, s.phase, s.hands[4].bit_count()
    game.raise_dispute(cause(REFEREE))
    settle(game)
    game.give_ruling(Penalty(4, count), cause(REFEREE))
    kinds = [type(e).__qualname__ for e in settle(game)]
    assert kinds == ["Game.RulingGiven", "Game.StockRanOut", "Game.StockRecycled", "Game.CardsDrawn"]
    assert game.state.hands[4].bit_count() == hand + count
    assert (game.state.turn, game.state.phase) == (turn, phase)


def test_a_penalty_the_cards_cannot_cover_or_too_big_is_refused():
    game = new_game(6, seed="tiny", ruleset=ruleset("club", hand_size=8))
    settle(game)
    assert len(game.state.stock) == 3 and len(game.state.discard) == 1
    game.raise_dispute(cause(REFEREE))
    settle(game)
    for cards, code in ((4, "stock_exhausted"), (21, "invalid_ruling")):
        with pytest.raises(RuleError) as refused:
            game.give_ruling(Penalty(0, cards), cause(REFEREE))
        assert refused.value.code == code
        assert game.pending_events == [] and game.paused


def test_a_void_back_into_a_revealed_round_deals_every_hidden_card_anew_under_a_fresh_commitment():
    game = new_game(3, seed="reopen")
    stored, voided = voided_into_a_revealed_round(game, random.Random(4), REFEREE)
    before = game_after(stored, voided - 1).state
    ruled, reshuffled, *_chance = settle(game)
    assert isinstance(ruled, Game.RulingGiven) and isinstance(reshuffled.fact, HiddenCardsReshuffled)
    after = game.state

    def hidden(s) -> list[int]:
        return sorted([card for hand in s.hands for card in range(52) if hand >> card & 1] + s.stock)

    # the same cards, each seat as many, the table and the scores as they were ...
    assert hidden(after) == hidden(before)
    assert [hand.bit_count() for hand in after.hands] == [hand.bit_count() for hand in before.hands]
    assert len(after.stock) == len(before.stock)
    assert (after.discard, after.turn, after.totals) == (before.discard, before.turn, before.totals)
    # ... but not where the revealed orders put them
    assert after.hands != before.hands and after.stock != before.stock
    # committed to, and its salt kept until the round ends again
    assert verify(reshuffled.commitment, reshuffled.salt, reshuffled.fact.order)
    assert game.unrevealed[-1].number == reshuffled.originator_version
    # a replay folds the recorded order: no chance drawn again
    assert game_after([*stored, ruled, reshuffled, *_chance], game.version).state == game.state
