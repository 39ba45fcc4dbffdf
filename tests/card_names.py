"""The card names a piece of data holds anywhere: what the redaction and secrecy tests look for."""

from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any

from service.domain.cards import parse_card
from service.domain.errors import RuleError


def card_names(value: Any) -> Iterator[str]:
    """Every string anywhere in ``value`` that names a card."""
    found: list[str] = []
    _collect((value,), found)
    return iter(found)


_SCALARS = frozenset((int, bool, float, type(None)))


def _collect(values: Iterable[Any], found: list[str]) -> None:
    # one list filled by plain recursion into containers only, not a generator per value: the
    # secrecy properties walk every event's data for every seat, and that was most of their time
    for value in values:
        if type(value) in _SCALARS:  # most values: no card, no container
            continue
        if isinstance(value, str):
            if _names_card(value):
                found.append(value)
        elif isinstance(value, dict):
            _collect(value.values(), found)
        elif isinstance(value, list | tuple):
            _collect(value, found)


@lru_cache(maxsize=1 << 16)
def _names_card(text: str) -> bool:
    """``text`` names a card (the same strings recur: event types, names, the cards themselves)."""
    try:
        parse_card(text)
    except RuleError:
        return False
    return True
