"""Every preset's games, every stored event: what a seat and the public are shown hides every hidden
card. A seat is shown only the cards in its own hand (just before or after the event) and the cards
on the table; the public only the cards on the table: the card played, a deal's starter. The read
models' documents agree: a seat's hand document holds its own hand, the public table no card but
the top of the discard pile.
"""

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.domain.cards import format_card, format_cards
from service.domain.redaction import PUBLIC, Table, Viewer, redact
from service.domain.views import entry_of
from service.projections.render import game_doc
from tests.card_names import card_names
from tests.properties.invariants import every_preset, seeds
from tests.properties.stored_games import Step, challenge_rates, stored_steps, stored_tables

EXAMPLES = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards_shown(data: dict) -> set[str]:
    """The cards an entry's data names, but for its ruleset, public and keyed by cards ("KS")."""
    return set(card_names({key: value for key, value in data.items() if key not in ("ruleset", "rules")}))


def on_the_table(step: Step) -> set[str]:
    """The cards an event puts on the table for everyone to see."""
    fact = getattr(step.event, "fact", None)
    name = type(fact).__name__
    if name == "CardPlayed":
        if fact.declared >= 0:  # face down (blind): only the declaration is on the table
            return {format_card(fact.declared)}
        return {format_card(card) for card in (fact.card, *fact.more)}
    if name == "DeclarationChallenged":  # the face-down card turned up
        return {format_card(fact.card), format_card(fact.declared)}
    if name == "DeclarationsRevealed":
        return {format_card(card) for _, real, declared in fact.plays for card in (real, declared)}
    if name == "RoundDealt":
        s = step.replica.game.state
        dealt = sum(fact.sizes) if fact.sizes else s.seats * s.book.rules.hand_size
        return {format_card(fact.deck[dealt])}
    return set()


@every_preset
@EXAMPLES
@given(data=st.data(), seed=seeds, challenge_rate=challenge_rates)
def test_no_seat_nor_the_public_is_shown_a_card_hidden_from_them_at_any_event(
    name, data, seed, challenge_rate
):
    rules, seats = data.draw(stored_tables(name))
    sight = Table(seats=seats, hand_size=rules.hand_size)
    shown_own = 0
    for step in stored_steps(rules, seats, seed, challenge_rate):
        entry = entry_of(step.event)
        public = on_the_table(step)
        assert cards_shown(redact(entry, PUBLIC, sight).data) <= public, entry.type
        hands_after = step.replica.game.state.hands
        for seat in range(seats):
            own = set()
            for hands in (step.hands_before, hands_after):
                if hands:
                    own |= set(format_cards(hands[seat]))
            shown = cards_shown(redact(entry, Viewer.at(seat), sight).data)
            assert shown <= own | public, (entry.type, seat, shown - own - public)
            shown_own += len(shown & own - public)
    assert shown_own > 0  # the seats were shown their own cards: the sights are not simply empty


@every_preset
@EXAMPLES
@given(data=st.data(), seed=seeds, challenge_rate=challenge_rates)
def test_a_seats_hand_document_holds_its_own_hand_and_the_public_table_only_the_top_card(
    name, data, seed, challenge_rate
):
    rules, seats = data.draw(stored_tables(name))
    for step in stored_steps(rules, seats, seed, challenge_rate):
        if step.live is None:
            continue
        tracked = step.replica
        s = tracked.game.state
        doc = game_doc(tracked, tracked.ledger.in_force())
        top = {format_card(s.shown)} if s.discard else set()  # a face-down top as declared (blind)
        assert set(card_names(msgspec.to_builtins(doc.table))) == top
        for seat, hand in enumerate(doc.hands):
            own = format_cards(s.hands[seat]) if s.hands else []
            assert hand.seat == seat and hand.cards == own
            # a face-down play may be declared as any card that may be played: no card of another hand
            declarable = {move.declared for move in hand.legal if move.declared is not None}
            assert set(card_names(msgspec.to_builtins(hand))) - declarable <= set(own), seat
