"""Scripted tables and whole games through the application, for the integration tests."""

import random
from collections.abc import Mapping, Sequence
from uuid import UUID

from service.application import MauMau, Outcome
from service.domain.cards import FULL_DECK, format_card, parse_card
from service.domain.roles import Actor
from service.domain.state import OVER
from tests.gameplay import next_command

REFEREE = Actor("referee", "rita")


def deck_for(
    hands: Mapping[int, Sequence[str]],
    starter: str,
    seats: int = 2,
    dealer: int = 0,
    hand_size: int = 5,
    stock: Sequence[str] = (),
) -> list[str]:
    """A deck order dealing these hands (seat -> card names), this starter, this stock top first.

    Cards not named fill the other places, lowest first.
    """
    named = {parse_card(c) for cards in hands.values() for c in cards} | {parse_card(starter)}
    named |= {parse_card(c) for c in stock}
    spare = iter(c for c in FULL_DECK if c not in named)
    wanted = {seat: [parse_card(c) for c in cards] for seat, cards in hands.items()}
    order: list[int] = []
    for i in range(seats * hand_size):
        seat = (dealer + 1 + i) % seats
        order.append(wanted[seat].pop(0) if wanted.get(seat) else next(spare))
    order.append(parse_card(starter))
    order += [parse_card(c) for c in stock]
    order += list(spare)
    return [format_card(c) for c in order]


def players(app: MauMau, count: int) -> list[UUID]:
    return [app.register_player(f"Player {n}") for n in range(count)]


def play_out(app: MauMau, game_id: UUID, seed: int, most: int = 5000) -> list[Outcome]:
    """Random legal moves until the match ends; the outcomes in order."""
    rng = random.Random(seed)
    outcomes = []
    for _ in range(most):
        game = app.get_game(game_id)
        if game.state.phase == OVER:
            return outcomes
        outcomes.append(app.execute(game_id, next_command(game.state, rng), expected_version=game.version))
    raise AssertionError("the match did not end")


def count_events(app: MauMau, game_id: UUID) -> int:
    return len(app.game_events(game_id))
