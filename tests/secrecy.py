"""Whether public data foretells a hidden card: the stock as a run of a revealed order or of a public
log entry (issue 13, item 2). Shared by the void property test and the fault tests."""

from collections.abc import Iterator, Sequence
from typing import Any
from uuid import UUID

from service.application import MauMau
from service.domain.cards import format_cards
from service.domain.redaction import PUBLIC, Table, redact

# A stock this long is never a run of an unrelated order by chance (about 1 in 10**7 per order),
# so a run found is a leak, not luck.
SHORTEST_RUN = 5


def holds_run(sequence: Sequence[str], run: Sequence[str]) -> bool:
    run, width = list(run), len(run)
    return any(list(sequence[i : i + width]) in (run, run[::-1]) for i in range(len(sequence) - width + 1))


def card_lists(data: Any) -> Iterator[list[str]]:
    """Every list of texts anywhere in a public entry's data."""
    if isinstance(data, dict):
        for value in data.values():
            yield from card_lists(value)
    elif isinstance(data, list):
        if data and all(isinstance(item, str) for item in data):
            yield data
        for value in data:
            yield from card_lists(value)


def foretold_stock(app: MauMau, game_id: UUID) -> list[str]:
    """Where public data holds the current stock as a run: the answers that do (none, we hope)."""
    game = app.get_game(game_id)
    stock = format_cards(list(reversed(game.state.stock)))  # the next card drawn first
    if len(stock) < SHORTEST_RUN:
        return []
    found = [
        f"shuffle {shuffle.number}"
        for shuffle in app.shuffles(game_id)
        if shuffle.order is not None and holds_run(format_cards(shuffle.order), stock)
    ]
    table = Table(len(game.seats), game.ruleset.hand_size)
    for entry in app.history(game_id):
        shown = redact(entry, PUBLIC, table)
        if any(holds_run(cards, stock) for cards in card_lists(shown.data)):
            found.append(f"public entry {entry.number} ({entry.type})")
    return found
