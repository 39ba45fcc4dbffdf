"""A preset with a club's options applied (``ruleset``, ``with_options``): the options every preset
takes (``rulesets.OPTIONS``) and the preset's own switches (``presets.SWITCHES``), checked."""

from collections.abc import Mapping
from typing import Any

import msgspec

from service.domain.errors import RuleError
from service.domain.presets import PRESETS, SWITCHES
from service.domain.ruleset_checks import check
from service.domain.rulesets import OPTION_BOUNDS, OPTIONS, Ruleset, Switch


def ruleset(name: str, **options: Any) -> Ruleset:
    """A preset with a club's options applied, checked."""
    try:
        base = PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise RuleError("unknown_ruleset", name=name, known=known) from None
    return with_options(base, **options)


def with_options(base: Ruleset, **options: Any) -> Ruleset:
    switches = SWITCHES.get(base.name, {})
    changes: dict[str, Any] = {}
    turned_on: list[str] = []
    for key, value in options.items():
        if key in switches:
            if type(value) is not bool:
                raise RuleError("invalid_option", why="on_off", key=key)
            if value:
                _check_compatible(switches, turned_on, key)
                turned_on.append(key)
                changes = _switched(base, changes, switches[key])
            continue
        kind = OPTIONS.get(key)
        if kind is None:
            raise _not_an_option(base.name, key)
        # bool is an int in Python; keep the two apart so `hand_size=True` is refused
        if type(value) is not kind:
            raise RuleError("invalid_option", why="option_takes", key=key, kind=kind.__name__)
        changes[key] = value
    changed = msgspec.structs.replace(base, **changes)
    check(changed)
    return changed


# a switch's fields that set one value of the ruleset: two switches setting it differently contradict
_SWITCH_SETTINGS = (
    "debt_answers",
    "draw_until_playable",
    "elimination_total",
    "winning_total",
    "mau_mau_call",
)


def _check_compatible(switches: dict[str, Switch], turned_on: list[str], key: str) -> None:
    """Refuse ``key`` beside a switch already on that sets the same setting to another value."""
    switch = switches[key]
    for other in turned_on:
        for field in _SWITCH_SETTINGS:
            mine, theirs = getattr(switch, field), getattr(switches[other], field)
            if mine is not None and theirs is not None and mine != theirs:
                raise RuleError(
                    "invalid_option",
                    why="options_cannot_both",
                    other=other,
                    key=key,
                    field=field,
                    theirs=theirs,
                    mine=mine,
                )


def _switched(base: Ruleset, changes: dict[str, Any], switch: Switch) -> dict[str, Any]:
    changes = {**changes, "effects": {**changes.get("effects", base.effects), **switch.effects}}
    if switch.debt_answers is not None:
        changes["debt_answers"] = switch.debt_answers
    if switch.draw_until_playable is not None:
        changes["draw_until_playable"] = switch.draw_until_playable
    if switch.elimination_total is not None:
        changes["elimination_total"] = switch.elimination_total
    if switch.winning_total is not None:
        changes["winning_total"] = switch.winning_total
    if switch.mau_mau_call is not None:
        changes["mau_mau_call"] = switch.mau_mau_call
    return changes


def _not_an_option(preset: str, key: str) -> RuleError:
    own = ", ".join([*OPTIONS, *SWITCHES.get(preset, {})])
    owners = sorted(name for name, switches in SWITCHES.items() if key in switches)
    if owners:
        return RuleError(
            "invalid_option",
            why="option_not_options",
            key=key,
            owners=", ".join(owners),
            preset=preset,
            own=own,
        )
    return RuleError("unknown_option", why="no_option_options", key=key, own=own)


def check_options(options: Mapping[str, Any]) -> None:
    """Refuse a club's option outside ``OPTION_BOUNDS`` (an unknown one or a wrong type: ``with_options``)."""
    for key, value in options.items():
        low, high = OPTION_BOUNDS.get(key, (None, None))
        if low is not None and high is not None and type(value) is int and not low <= value <= high:
            raise RuleError("invalid_option", why="option_between", key=key, low=low, high=high)
