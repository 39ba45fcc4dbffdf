"""A state as the fold of its events, for both deciders: ``engine`` (the card game) and
``mao.game`` (Mao). Each event applies itself, mutating the state in place."""

from collections.abc import Iterable
from typing import Protocol, TypeVar

S_contra = TypeVar("S_contra", contravariant=True)
S = TypeVar("S")


class Applies(Protocol[S_contra]):
    def apply(self, s: S_contra, /) -> None: ...


def fold_into(s: S, events: Iterable[Applies[S]]) -> S:
    """``s`` after ``events``, each applied in order (``s`` itself, mutated)."""
    for event in events:
        event.apply(s)
    return s
