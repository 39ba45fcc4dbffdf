"""Equal names told apart where a person picks one: a name alone when it is the only one (in any
case), else with its detail, and its short id too when the detail does not tell them apart."""

from dataclasses import dataclass
from uuid import UUID

from service.usecases.queries.admin_lists import short_id, told_apart


@dataclass(frozen=True)
class Named:
    player_id: UUID
    name: str
    league: str = ""


ONE = UUID("3f2a9c1b-0000-4000-8000-000000000001")
TWO = UUID("7d41e0aa-0000-4000-8000-000000000002")
THREE = UUID("b0c0ffee-0000-4000-8000-000000000003")


def label(items: list[Named]) -> list[str]:
    return told_apart(items, lambda item: item.name, lambda item: item.league)


def test_a_name_of_its_own_stands_alone_and_equal_ones_get_their_short_ids():
    assert label([Named(ONE, "Rita"), Named(TWO, "Bo")]) == ["Rita", "Bo"]
    assert label([Named(ONE, "Rita"), Named(TWO, "RITA")]) == ["Rita (3f2a9c1b)", "RITA (7d41e0aa)"]
    assert short_id(THREE) == "b0c0ffee"


def test_a_detail_tells_equal_names_apart_and_the_short_id_joins_it_where_it_does_not():
    cups = [Named(ONE, "Cup", "Oakmoor"), Named(TWO, "Cup", "Elmwood"), Named(THREE, "Cup", "Elmwood")]
    assert label(cups) == ["Cup (Oakmoor)", "Cup (Elmwood, 7d41e0aa)", "Cup (Elmwood, b0c0ffee)"]
