"""The play page's posted form as the move use case's body (the API's too).

The form is one for every move: its ``move`` is the button pressed, and the other fields are read
only for that button, so a box ticked beside another card (or a choice left in the face-down play's
lists) while the player draws changes nothing.

- ``play:7H``, ``play:JH:S`` (a jack and the suit it names): one card, with the call chosen; with
  the quick modifier, the ticked boxes ``more:7H:7C`` add the cards of its rank laid on it, in the
  form's order, the last on top;
- ``face_down`` (blind): the card ``face_down_card`` played face down as ``declared``, which names
  ``declared_suit`` when it is wild;
- ``challenge_declaration`` (blind), ``challenge`` (a missed call), ``draw``, ``keep``,
  ``name_suit:S``, ``choose_player:2``.

A form that is none of them, or leaves out what its button needs, is a malformed request; a card
badly written is the API's own ``malformed_card``.
"""

from collections.abc import Mapping
from typing import Any

import msgspec

from service.domain.errors import RuleError
from service.usecases.games import ChallengeCreate, Move

KINDS = frozenset(
    {"play", "face_down", "draw", "keep", "name_suit", "challenge", "challenge_declaration", "choose_player"}
)


def more_of(form: Mapping[str, str], card: str) -> list[str]:
    """The cards ticked to lay on ``card`` (``more:<card>:<other>``), in the form's order."""
    prefix = f"more:{card}:"
    more = [name.removeprefix(prefix) for name in form if name.startswith(prefix)]
    if "" in more:
        raise RuleError("malformed_request", why="card_ticked_lay")
    return more


def _required(form: Mapping[str, str], name: str) -> str:
    value = form.get(name, "")
    if not value:
        raise RuleError("malformed_request", why="face_down_play", name=name)
    return value


def command_of(form: Mapping[str, str]) -> Move | ChallengeCreate:
    """The posted form as the API's move (or missed-call challenge) body."""
    kind, _, rest = form.get("move", "").partition(":")
    if kind not in KINDS:
        raise RuleError("malformed_request", why="move_not", kinds=sorted(KINDS))
    fields: dict[str, Any] = {"version": form.get("version", "")}
    if form.get("seat"):
        fields["seat"] = form["seat"]
    if kind == "play":
        card, _, suit = rest.partition(":")
        more = more_of(form, card)
        fields |= {"card": card, "suit": suit or None, "call": form.get("call") or None}
        if more:  # a ruleset without quick refuses any; a one-card play sends none, as the API's
            fields["more"] = more
    elif kind == "face_down":
        kind = "play"
        fields |= {
            "card": _required(form, "face_down_card"),
            "declared": _required(form, "declared"),
            "suit": form.get("declared_suit") or None,
            "call": form.get("call") or None,
        }
    elif kind == "name_suit":
        fields["suit"] = rest
    elif kind == "choose_player":
        fields["player"] = rest
    try:
        if kind == "challenge":
            return msgspec.convert(fields, ChallengeCreate, strict=False)
        return msgspec.convert({**fields, "kind": kind}, Move, strict=False)
    except msgspec.ValidationError as error:
        raise RuleError("malformed_request", why="move_malformed", error=error) from None
