"""A notification's words, in a language: the same sentences in the browser (``notify.js`` fills the
patterns ``patterns`` gives the page) and in a mail (``mail_of``, which the workers send). Each says
only what the notice holds: a tournament's name, round and table numbers, a time; never a card."""

from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

Translate = Callable[..., str]
_HOLES = {"tournament": "{tournament}", "round": "{round}", "table": "{table}", "time": "{time}"}


def _sentence(_: Translate, kind: str, **values: object) -> str:
    """One kind's sentence, filled with ``values`` (given as the holes themselves: the pattern)."""
    match kind:
        case "table_ready":
            return _("Your table is ready: {tournament}, round {round}, table {table}.", **values)
        case "round_starting":
            return _("{tournament}: round {round} starts at {time}.", **values)
        case "your_move":
            return _("It is your move.")
        case "dispute_ruled":
            return _("The dispute at your table was ruled.")
    raise ValueError(kind)


def patterns(_: Translate) -> dict[str, str]:
    """Each kind's sentence with its holes (``{tournament}``, ...) for the page's script, and the title."""
    found = {
        kind: _sentence(_, kind, **_HOLES)
        for kind in ("table_ready", "round_starting", "your_move", "dispute_ruled")
    }
    return found | {"title": _("Mau-Mau club")}


def mail_of(_: Translate, kind: str, data: dict[str, Any], zone: str = "UTC") -> tuple[str, str]:
    """A notice's mail: its subject and its text, in ``_``'s language (a time in ``zone``)."""
    time = ""
    if "starts_at" in data:
        time = datetime.fromisoformat(data["starts_at"]).astimezone(ZoneInfo(zone)).strftime("%H:%M")
    text = _sentence(
        _,
        kind,
        tournament=data.get("tournament", ""),
        round=data.get("round_no", ""),
        table=data.get("table", ""),
        time=f"{time} ({zone})" if time else "",
    )
    footer = _("You chose these notifications on your page; choose there to hear of fewer.")
    return text, f"{text}\n\n{footer}\n"
