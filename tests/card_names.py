"""The card names a piece of data holds anywhere: what the redaction and secrecy tests look for."""

from collections.abc import Iterator
from typing import Any

from service.domain.cards import parse_card
from service.domain.errors import RuleError


def card_names(value: Any) -> Iterator[str]:
    """Every string anywhere in ``value`` that names a card."""
    if isinstance(value, str):
        try:
            parse_card(value)
        except RuleError:
            return
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_names(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from card_names(item)
