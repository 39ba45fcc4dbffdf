"""What a rebuild of some parts replaces: the parts fed by them too, their views' tables and the
tables of other parts they write into (``parts.SHARES``), which a test reads off the folds' code."""

import inspect
import re

from service.projections.aside import tables_of, writers
from service.projections.parts import FED_BY, PARTS, SHARES, feeding, rebuilt_with
from service.projections.views import VIEWS
from tests.unit.test_views_registry import sqlite


def test_a_part_is_rebuilt_with_every_part_fed_by_it_in_the_parts_order():
    assert rebuilt_with(["core"]) == ("core", "ratings", "webhooks")
    assert rebuilt_with(["webhooks", "tournaments"]) == ("tournaments", "webhooks")
    assert rebuilt_with(["mao"]) == ("mao", "webhooks")  # a Mao seat's notices
    assert rebuilt_with([]) == ()
    assert feeding("webhooks") == ("core", "tournaments", "mao")
    assert all(part in FED_BY for part in PARTS)


def test_a_part_rebuild_replaces_its_views_tables_and_those_it_shares_whose_owners_must_fold_too():
    assert tables_of(["tournaments"]) == ("tournaments", "seats")
    assert tables_of(["mao"]) == ("mao_list", "mao_bot_turns", "standings")
    assert writers(tables_of(["mao"])) == {"mao", "core"}
    assert writers(tables_of(["ratings"])) == {"ratings"}
    # the players' names belong to no part: no part rebuild replaces them
    assert "players" not in tables_of(PARTS)


def test_every_table_a_fold_writes_into_outside_its_own_part_is_declared_shared():
    owner = {table: view.fold.part for view in VIEWS for table in view.tables}
    statements = {name: sql for view in VIEWS for name, sql in view.statements(sqlite()).items()}
    for view in VIEWS:
        part = view.fold.part
        if part is None:
            continue
        written = set(re.findall(r'to\("(\w+)"\)', inspect.getsource(inspect.getmodule(view.fold))))
        for statement in written - {"stale"}:
            (table,) = re.findall(r"(?:INTO|FROM) views_(\w+)", statements[statement])
            if table in owner and owner[table] != part:
                assert table in SHARES.get(part, ()), f"{view.name} writes {table} of {owner[table]}"
