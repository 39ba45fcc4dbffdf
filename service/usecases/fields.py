"""The fields the use cases' inputs share, with the OpenAPI document's rules and examples."""

from typing import Annotated, Any

import msgspec

from service.domain.names import MAX_NAME, NAME_PATTERN

LEAGUE_ID = "5d8e2a47-1b3c-4f6d-8e9a-0c2b4d6f8a1e"
GAME_ID = "9b2f4c1e-6a3d-4e8f-b1c2-7d5e9f0a1b2c"
PLAYER_ID = "3f1c6c9e-8f7a-4d52-9a53-3e1b1c0b6a77"
REFEREE_ID = "c4a1e7b9-2d5f-4a8c-9e1b-3f6d8a0c2e4b"


# A name sent: the document states the rules of service.domain.names (the domain refuses a name that
# breaks them with 400 malformed_name); one read back may be older than those rules.
def _name(example: str) -> Any:
    return Annotated[
        str,
        msgspec.Meta(
            min_length=1,
            max_length=MAX_NAME,
            examples=[example],
            description=f"1 to {MAX_NAME} characters, trimmed; no control or invisible formatting characters",
            extra_json_schema={"extra": {"pattern": NAME_PATTERN}},
        ),
    ]


Name = _name("Ada")
# a league's and a tournament's: the same rules, examples of their own
LeagueName = _name("Thursday club")
TournamentName = _name("Autumn cup")


def or_null(schema: dict[str, Any]) -> dict[str, Any]:
    """The ``extra_json_schema`` of an optional value: ``schema`` or null. Litestar leaves out the bounds
    and the items' metadata of an optional value, so the document is told them here."""
    return {"extra": {"oneOf": [schema, {"type": "null"}]}}


def bounds(low: int, high: int) -> dict[str, Any]:
    """The ``extra_json_schema`` of the range the rules allow, for the document only: outside it the
    rules answer 422 with their code."""
    return {"extra": {"minimum": low, "maximum": high}}


def ranged(low: int, high: int, example: int, description: str) -> msgspec.Meta:
    """A whole number's metadata: the range the rules allow (``bounds``), an example, what it means;
    in that order, as a field reads ``ranged(1, MAX_INTERVAL, 1800, "seconds from ...")``."""
    return msgspec.Meta(examples=[example], description=description, extra_json_schema=bounds(low, high))
