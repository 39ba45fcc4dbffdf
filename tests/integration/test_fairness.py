"""Provably fair shuffles through the application: committed at the deal, revealed at the round end."""

import random
from collections.abc import Iterator

import pytest

from service.application import MauMau, Shuffle
from service.domain.chance import Shuffler
from service.domain.commands import DealRound
from service.domain.events import MatchStarted
from service.domain.fairness import commitment, salt_for, verify
from service.domain.ruleset_options import ruleset
from service.domain.rulesets import Ruleset
from service.domain.state import State
from service.settings import Settings
from tests.gameplay import next_command
from tests.integration.tables import REFEREE
from tests.unit.scenario import deck_order


def test_every_shuffle_is_committed_before_play_and_verifies_once_its_round_is_over(app):
    game_id = app.create_game(
        ["bot:random"] * 6, seed=21, options={"hand_size": 8, "target_score": 80}
    ).game_id
    (dealt,) = app.shuffles(game_id)
    # during the round: the commitment is public, the salt and the order are not
    assert dealt.kind == "deal" and dealt.salt is None and dealt.order is None and dealt.verified is None
    rng = random.Random(21)
    while not app.get_game(game_id).over:
        game = app.get_game(game_id)
        app.execute(game_id, next_command(game.state, rng), expected_version=game.version)
    shuffles = app.shuffles(game_id)
    kinds = {shuffle.kind for shuffle in shuffles}
    assert kinds == {"deal", "recycle"}
    assert all(shuffle.verified for shuffle in shuffles)
    # the public record is enough to check: sha256 of the revealed salt and order
    for shuffle in shuffles:
        assert commitment(shuffle.salt, shuffle.order) == shuffle.commitment
        if len(set(shuffle.order)) > 1:
            assert not verify(shuffle.commitment, shuffle.salt, tuple(reversed(shuffle.order)))


def test_the_deal_event_carries_its_commitment_and_the_stored_deck_matches_it(app):
    outcome = app.create_game(["bot:random"] * 2, seed=3)
    dealt = outcome.events[-1]
    assert verify(dealt.commitment, dealt.salt, dealt.fact.deck)


def _confirms(guess: str, shuffle: Shuffle, rules: Ruleset, seats: int) -> bool:
    """The attack of issue 13: the project's own shuffle and salt code, run on a guessed seed,
    checked against the public commitment of the first deal."""
    waiting = State()
    MatchStarted(rules, seats, 0).apply(waiting)  # a table waiting for its deal: only the deck matters
    deal = Shuffler(f"{guess}:{shuffle.number}").outcome(waiting)
    assert isinstance(deal, DealRound)
    return verify(shuffle.commitment, salt_for(guess, shuffle.number), deal.deck)


@pytest.fixture
def service_app(settings: Settings) -> Iterator[MauMau]:
    """The application as the service builds it: each game draws fresh entropy (``app`` fixes it)."""
    application = MauMau(settings)
    yield application
    application.close()


def test_a_seed_an_official_chose_cannot_be_confirmed_from_the_public_commitment(service_app):
    app = service_app
    game_id = app.create_game(["bot:random"] * 2, seed="table 4", by=REFEREE).game_id
    game = app.get_game(game_id)
    (dealt,) = app.shuffles(game_id)
    guesses = [f"table {n}" for n in range(1, 21)] + ["table4", "4", "Table 4"]
    assert not any(_confirms(guess, dealt, game.ruleset, 2) for guess in guesses)
    # the attack itself is sound: with the game's whole secret, which never leaves the store, it confirms
    assert _confirms(game.seed, dealt, game.ruleset, 2)


def test_a_game_without_a_seed_draws_one_of_128_bits_and_entropy_of_256_that_no_entry_shows(service_app):
    app = service_app
    created = [app.game_events(app.create_game(["bot:random"] * 2).game_id)[0] for _ in range(3)]
    seeds, drawn = [event.seed for event in created], [event.entropy for event in created]
    assert all(len(seed) == 32 and int(seed, 16) >= 0 for seed in seeds) and len(set(seeds)) == 3
    assert all(len(entropy) == 64 and int(entropy, 16) >= 0 for entropy in drawn) and len(set(drawn)) == 3
    # not even the officials' list of events shows them
    entry = app.history(created[0].originator_id)[0]
    assert entry.type == "Created" and not {"seed", "entropy"} & set(entry.data)


def test_an_annulled_deal_is_listed_with_its_commitment_and_verifies_once_its_round_is_over(app):
    deck = deck_order(ruleset("101"), 3, 0, {1: "QC QD QH QS"}, starter="KC")
    game_id = app.create_game(
        ["bot:random"] * 3, ruleset="101", deck=deck, first_dealer=0, by=REFEREE
    ).game_id
    annulled, dealt = app.shuffles(game_id)
    assert (annulled.kind, annulled.round_no, dealt.kind, dealt.round_no) == ("annulled_deal", 1, "deal", 1)
    # while its round is played the annulled deal's order is as secret as the deal's
    assert annulled.salt is None and annulled.order is None and annulled.verified is None
    rng = random.Random(5)
    while app.get_game(game_id).state.round_no < 2:
        game = app.get_game(game_id)
        app.execute(game_id, next_command(game.state, rng), expected_version=game.version)
    annulled = app.shuffles(game_id)[0]
    assert annulled.verified and annulled.order == deck
    assert commitment(annulled.salt, annulled.order) == annulled.commitment
