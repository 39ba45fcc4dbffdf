"""A round's points beyond the cards' own values: the card that went out and a hand of one kind.

The ruleset's tables (``out_multiplier``, ``out_points``, ``only_points``) are keyed by a card
("QS") or a rank ("Q"); a card's own entry wins over its rank's. The engine scores a round
played here and a round entered from a score sheet with these same functions.
"""

from collections.abc import Iterable, Mapping, Sequence

from service.domain.cards import DECK_SIZE, cards_in, format_card, rank_name
from service.domain.rulebook import Rulebook
from service.domain.rulesets import Ruleset


def card_entry(table: Mapping[str, int], card: int) -> int | None:
    """``card``'s value in a table keyed by cards and ranks, None when neither is listed."""
    value = table.get(format_card(card % DECK_SIZE))  # a second deck's copy is keyed as its twin
    return table.get(rank_name(card)) if value is None else value


def only_value(rules: Ruleset, cards: Iterable[int]) -> int | None:
    """When every card of a hand is listed in ``only_points`` (101: only queens), the sum of those
    entries, which the hand counts instead of its cards' points; None otherwise."""
    only = rules.only_points
    if not only:
        return None
    entries = [card_entry(only, card) for card in cards]
    if not entries or None in entries:
        return None
    return sum(entries)  # type: ignore[arg-type]


def hand_value(book: Rulebook, hand: int) -> int:
    """What a hand left at the round's end counts: its cards' points, or ``only_value``."""
    if hand and book.rules.only_points:  # most rulesets have none: no generator, no call for them
        only = only_value(book.rules, cards_in(hand))
        if only is not None:
            return only
    return book.hand_points(hand)


def round_points(rules: Ruleset, winner: int, last_card: int, values: list[int]) -> tuple[int, ...]:
    """Each seat's points for the round, from the points left in each hand (``values``) and the
    card the winner went out with (-1: none, or a score sheet that does not say)."""
    times, bonus = 1, 0
    if last_card >= 0 and (rules.out_multiplier or rules.out_points):
        times = card_entry(rules.out_multiplier, last_card) or 1
        bonus = card_entry(rules.out_points, last_card) or 0
    if rules.scoring == "penalty":
        return tuple([bonus if seat == winner else value * times for seat, value in enumerate(values)])
    gained = (sum(values) - (values[winner] if winner >= 0 else 0)) * times + bonus
    return tuple([gained if seat == winner else 0 for seat in range(len(values))])


def round_losers(winner: int, values: list[int], out: int) -> tuple[int, ...]:
    """The loser of a round (faraon): the seat still in with the most points left in hand, every
    seat tied for it with three or more players; nobody when no seat but the winner holds a card.

    Reading: the rule speaks of one loser, as at a table of two; with more players the one left
    with the worst hand loses, counted in points so a score sheet of points can say it too.
    """
    worst = 0  # a worst of 0 or less: nobody but the winner holds a card that counts
    for seat, value in enumerate(values):
        if value > worst and _counts(seat, winner, out):
            worst = value
    if not worst:
        return ()
    return tuple([seat for seat, value in enumerate(values) if value == worst and _counts(seat, winner, out)])


def _counts(seat: int, winner: int, out: int) -> bool:
    """Whether ``seat``'s hand may lose the round: not the winner's, not one out of the match."""
    return seat != winner and not out >> seat & 1


def running_totals(rules: Ruleset, rounds: Iterable[Sequence[int]]) -> list[list[int]]:
    """The match totals after each round of ``rounds`` (each seat's points), as the engine keeps
    them: a total landing exactly on one of ``reset_totals`` (101's 100) becomes 0, so the totals
    are not the sums of the points."""
    totals: list[int] = []
    after = []
    for points in rounds:
        totals = [total + p for total, p in zip(totals or [0] * len(points), points, strict=True)]
        totals = [0 if total in rules.reset_totals else total for total in totals]
        after.append(totals)
    return after
