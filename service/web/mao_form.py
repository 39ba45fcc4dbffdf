"""The Mao player's page's posted form as a seat's act (the same commands the API's routes make).

The form is one for every act: its ``act`` is the button pressed, and the other fields are read
only for that button.

- ``play:QH``: the card, with what is said right after it: the quick choices ticked (``say_mao``:
  "mao"; ``say_spade``: a spade's name, "queen of spades", when the card is a spade) then the
  free text ``says``, its utterances separated by commas, in order;
- ``draw``, ``pause``, ``end_pause``;
- ``say``: the words ``words``; ``about`` (``order``, ``safety``) for talk in a pause;
- ``propose``: the rule ``rule`` the round's winner proposes.

A form that is none of them, or leaves out what its button needs, is a malformed request; a card
badly written is the API's own ``malformed_card``; words the judge cannot take, its own refusal.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from service.domain.cards import parse_card, suit_of
from service.domain.errors import RuleError
from service.domain.mao.commands import CallPause, Command, DrawCard, EndPause, PlayCard, ProposeRule, Say
from service.domain.mao.speech import SPADES, spade_name
from service.domain.mao.words import MAO

ACTS = frozenset({"play", "draw", "say", "pause", "end_pause", "propose"})
ABOUT = frozenset({"", "order", "safety"})
MOST_SAID = 8  # as the API's ``says``


@dataclass(frozen=True)
class SeatAct:
    """What ``seat_act`` takes: the command for the seat, what a key sent again is checked against,
    and whether it is a play (answered accepted, returned or cancelled)."""

    command_for: Callable[[int], Command]
    request: tuple[Any, ...]
    is_play: bool = False


def _required(form: Mapping[str, str], name: str) -> str:
    value = form.get(name, "").strip()
    if not value:
        raise RuleError("malformed_request", why="decode", problem=name)
    return value


def says_of(form: Mapping[str, str], card: int) -> tuple[str, ...]:
    """What is said with the play: the quick choices ticked, then the free text's utterances."""
    said: list[str] = []
    if form.get("say_spade") and suit_of(card) == SPADES:
        said.append(spade_name(card))
    if form.get("say_mao"):
        said.append(MAO)
    said += [part.strip() for part in form.get("says", "").split(",") if part.strip()]
    if len(said) > MOST_SAID:
        raise RuleError("malformed_request", why="decode", problem=f"says: {MOST_SAID} at most")
    return tuple(said)


def seat_act_of(form: Mapping[str, str]) -> SeatAct:
    """The posted form as a seat's act."""
    kind, _, rest = form.get("act", "").partition(":")
    if kind not in ACTS:
        raise RuleError("malformed_request", why="move_not", kinds=sorted(ACTS))
    if kind == "play":
        card = parse_card(rest)
        says = says_of(form, card)
        return SeatAct(
            lambda seat: PlayCard(seat, card, says), ("plays", {"card": rest, "says": list(says)}), True
        )
    if kind == "draw":
        return SeatAct(DrawCard, ("draws",))
    if kind == "pause":
        return SeatAct(CallPause, ("pause",))
    if kind == "end_pause":
        return SeatAct(EndPause, ("end_pause",))
    if kind == "say":
        words, about = _required(form, "words"), form.get("about", "")
        if about not in ABOUT:
            raise RuleError("malformed_request", why="choose_list", name="about")
        return SeatAct(lambda seat: Say(seat, words, about), ("utterances", words, about))
    text = _required(form, "rule")
    return SeatAct(lambda seat: ProposeRule(seat, text), ("proposals", text))
