"""A notification's words, in a language: the same sentences in the browser (``notify.js`` fills the
patterns ``patterns`` gives the page) and in a mail (``mail_of``, which the workers send). Each says
only what the notice holds: a tournament's name, round and table numbers, a time; never a card (nor a
Mao match's secret rule). ``page_of`` gives the page a notice leads to, for both: a browser's
notification opens it on a click, a mail ends with its whole address (with ``MAUMAU_PUBLIC_URL``)."""

from collections.abc import Callable
from datetime import datetime
from typing import Any
from uuid import UUID
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
        case "mao_table_ready":
            return _("Your Mao table is ready.")
        case "mao_your_move":
            return _("It is your move at your Mao table.")
    raise ValueError(kind)


def worded(kind: str, data: dict[str, Any]) -> str:
    """The sentence a notice is told with: a Mao match's (``mao_game_id``) has its own."""
    return f"mao_{kind}" if "mao_game_id" in data else kind


def patterns(_: Translate) -> dict[str, str]:
    """Each kind's sentence with its holes (``{tournament}``, ...) for the page's script (a Mao
    match's under ``mao_`` and the kind), and the title."""
    found = {
        kind: _sentence(_, kind, **_HOLES)
        for kind in (
            *("table_ready", "round_starting", "your_move", "dispute_ruled"),
            *("mao_table_ready", "mao_your_move"),
        )
    }
    return found | {"title": _("Mau-Mau club")}


def page_of(kind: str, data: dict[str, Any]) -> str:
    """The path of the page a notice is about ("" for none): a Mao match's play page, a card game's
    play page (its table for a ruling), a tournament's page for its next round. Made of the notice's
    ids alone (each read as a UUID, so nothing else gets into a link): never a card nor a rule."""
    if "mao_game_id" in data:
        table = f"/web/mao-games/{UUID(str(data['mao_game_id']))}"
    elif "game_id" in data:
        table = f"/web/games/{UUID(str(data['game_id']))}"
    elif "tournament_id" in data:
        return f"/web/tournaments/{UUID(str(data['tournament_id']))}"
    else:
        return ""
    return table if kind == "dispute_ruled" else f"{table}/play"


def mail_of(
    _: Translate, kind: str, data: dict[str, Any], zone: str = "UTC", public_url: str | None = None
) -> tuple[str, str]:
    """A notice's mail: its subject and its text, in ``_``'s language (a time in ``zone``), ending
    with the link to its page when the service's address (``public_url``) is known."""
    time = ""
    if "starts_at" in data:
        time = datetime.fromisoformat(data["starts_at"]).astimezone(ZoneInfo(zone)).strftime("%H:%M")
    text = _sentence(
        _,
        worded(kind, data),
        tournament=data.get("tournament", ""),
        round=data.get("round_no", ""),
        table=data.get("table", ""),
        time=f"{time} ({zone})" if time else "",
    )
    footer = _("You chose these notifications on your page; choose there to hear of fewer.")
    page = page_of(kind, data)
    link = f"\n\n{public_url}{page}" if public_url and page else ""
    return text, f"{text}{link}\n\n{footer}\n"
