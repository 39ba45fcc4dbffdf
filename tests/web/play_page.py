"""The live play page drawn without a browser or a server, for the tests of what it offers."""

from types import SimpleNamespace
from typing import Any

from service.web.i18n import read_catalogue
from service.web.play import moves_of
from service.web.render import environment

ENGLISH = read_catalogue("en").gettext
# the moves of a hand with none: a test names only the moves it shows
NO_MOVES = moves_of(SimpleNamespace(legal=[], cards=[]))  # type: ignore[arg-type]


def table(**fields: Any) -> SimpleNamespace:
    """A table in its first round's play, nobody's cards counted: ``fields`` name what a test shows."""
    return SimpleNamespace(
        **{
            "turn": 0,
            "version": 9,
            "over": False,
            "abandoned": False,
            "paused": False,
            "round_no": 1,
            "top": "9D",
            "named_suit": None,
            "debt": 0,
            "stock": 30,
            "missed": None,
            "game_id": "g",
            "seats": [],
            "winners": [],
            "phase": "play",
            **fields,
        }
    )


def play_page(**context: Any) -> str:
    """The page a seated player sees, in English; ``context`` gives the table, the view, the moves."""
    return (
        environment()
        .get_template("play_live.html")
        .render(_=ENGLISH, actor=SimpleNamespace(role="player"), **context)
    )
