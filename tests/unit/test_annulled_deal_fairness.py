"""An annulled deal (101's four of a kind) is committed to before it is seen and revealed at the
round's end, like any deal: it can be checked afterwards, and its cards stay hidden until then."""

import random

from service.domain.cards import format_cards
from service.domain.fairness import verify
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.redaction import FULL, PUBLIC, Table, Viewer, redact
from service.domain.roles import SYSTEM, Actor
from service.domain.ruleset_options import ruleset
from service.domain.seats import Seat
from service.domain.views import entry_of
from tests.gameplay import SAME_ENTROPY, next_command
from tests.unit.scenario import deck_order

RULES = ruleset("101")


def annulled_at_the_first_deal() -> tuple[Game, list[Game.Event]]:
    deck = deck_order(RULES, 3, 0, {1: "QC QD QH QS"}, starter="KC")
    game = Game.create(
        ruleset=RULES,
        seats=tuple(Seat.parse("bot:random") for _ in range(3)),
        seed="annulled",
        cause=Cause(Actor("admin", "admin"), "CreateGame"),
        entropy=SAME_ENTROPY,
        deck=deck,
        first_dealer=0,
    )
    return game, list(game.collect_events())


def test_an_annulled_deal_is_committed_to_with_its_deck_before_the_redeal():
    game, events = annulled_at_the_first_deal()
    [annulled] = [event for event in events if isinstance(event, Game.DealAnnulled)]
    assert (annulled.fact.seat, annulled.fact.rank) == (1, "Q")
    assert verify(annulled.commitment, annulled.salt, annulled.fact.deck)
    dealt = [event for event in events if isinstance(event, Game.RoundDealt)]
    assert dealt and dealt[0].originator_version > annulled.originator_version
    assert game.unrevealed[0].number == annulled.originator_version  # its salt is still secret


def test_only_the_full_sight_sees_an_annulled_deals_cards_and_salt():
    _, events = annulled_at_the_first_deal()
    [annulled] = [event for event in events if isinstance(event, Game.DealAnnulled)]
    table = Table(seats=3, hand_size=RULES.hand_size)
    for viewer in (PUBLIC, Viewer.at(0), Viewer.at(1)):
        shown = redact(entry_of(annulled), viewer, table).data
        assert "deck" not in shown and "salt" not in shown
        assert (shown["seat"], shown["rank"]) == (1, "Q") and shown["commitment"] == annulled.commitment
    full = redact(entry_of(annulled), FULL, table).data
    assert full["deck"] == format_cards(annulled.fact.deck) and full["salt"] == annulled.salt


def test_the_annulled_deals_salt_is_revealed_when_its_round_ends():
    game, events = annulled_at_the_first_deal()
    [annulled] = [event for event in events if isinstance(event, Game.DealAnnulled)]
    rng = random.Random(1)
    while not any(isinstance(event, Game.DeckRevealed) for event in events):
        game.execute(next_command(game.state, rng, challenge_rate=0), Cause(SYSTEM, "test"))
        events += game.collect_events()
    [revealed] = [event for event in events if isinstance(event, Game.DeckRevealed)]
    [ended] = [event for event in events if isinstance(event, Game.RoundEnded)]
    assert revealed.round_no == ended.fact.round_no == 1
    assert revealed.originator_version > ended.originator_version  # never before the round ends
    assert (annulled.originator_version, annulled.salt) in [(r.number, r.salt) for r in revealed.salts]
