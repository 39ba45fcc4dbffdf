"""The read side's registry: each view owns its tables and statements, and folds what it reads."""

from pathlib import Path

import pytest
from eventsourcing.persistence import Tracking

from service.domain.game import Game
from service.domain.tournament import Tournament
from service.persistence.dialect import Dialect
from service.projections.parts import PARTS
from service.projections.store import KEPT, TABLES, WRITES, close_views, open_views
from service.projections.views import VIEWS
from service.projections.views.base import APPLICATION, Changes, Folds
from service.projections.views.games import GamesFold
from service.projections.views.mao import MaoFold
from service.projections.views.notices import NoticesFold
from service.projections.views.tournaments import TournamentsFold
from service.projections.views.webhooks import WebhooksFold
from service.settings import Settings


def sqlite() -> Dialect:
    return Dialect(
        table=lambda name: f"views_{name}",
        ph="?",
        uuid="text",
        blob="blob",
        integer="integer",
        real="real",
        unlogged="",
        holds="instr(payload, ?) > 0",
        tracking="tracking",
        postgres=False,
        prefix="views",
    )


def test_no_two_views_keep_the_same_table_nor_name_the_same_statement():
    tables = [table for view in VIEWS for table in view.tables]
    assert len(tables) == len(set(tables))
    names = [name for view in VIEWS for name in view.statements(sqlite())]
    names += [name for kept in KEPT for name in kept.statements(sqlite())]
    assert len(names) == len(set(names))


def test_each_view_writes_its_rows_with_statements_it_names_and_makes_the_tables_a_rebuild_replaces():
    for view in VIEWS:
        statements = view.statements(sqlite())
        assert set(view.writes) <= statements.keys(), view.name
        made = " ".join(view.create(sqlite()))
        assert all(f"views_{table} " in made for table in view.tables), view.name
    assert len(WRITES) == len(set(WRITES))
    assert {"stale", "runner"} <= set(TABLES)
    # no read model: a rebuild keeps them
    assert not {"token_use", "written", "sessions", "deliveries", "attempts"} & set(TABLES)


def test_each_fold_reads_event_types_with_its_own_methods_and_goes_stale_with_a_known_part():
    for view in VIEWS:
        fold = view.fold
        assert fold.part is None or fold.part in PARTS, view.name
        for kind, method in fold.reads.items():
            assert isinstance(kind, type)
            assert getattr(fold, method.__name__) is method, (view.name, kind)


def test_the_most_specific_event_class_a_fold_reads_decides_and_catch_alls_come_before_every_fold(
    tmp_path: Path,
):
    """A fold's ``object`` entry reads the events its others do not name, before any fold folds them:
    the games' and matches' open changes are whole before a tournament's event changes who plays."""
    assert issubclass(Game.Created, Game.Event)
    views = open_views(Settings(data_dir=tmp_path))
    try:
        folds = Folds(views, None, [view.fold for view in VIEWS])

        def read(event_type: type) -> list[object]:
            return [handler.__func__ for _, _, handler in folds.handlers(event_type)]  # type: ignore[attr-defined]

        created = read(Game.Created)
        assert created[0] is MaoFold.passing  # the games' fold reads a new game itself
        assert GamesFold.created in created and GamesFold.game_event not in created
        started = read(Tournament.Started)
        assert started[:3] == [GamesFold.passing, MaoFold.passing, TournamentsFold.changed]
        # the webhooks and the notices read a tournament's events themselves: after it is folded
        assert started[-2:] == [WebhooksFold.tournament_event, NoticesFold.tournament_event]
    finally:
        close_views(views)


def test_the_store_the_projection_the_reader_and_each_view_stay_under_500_lines():
    root = Path(__file__).resolve().parents[2] / "service" / "projections"
    for path in [
        root / "store.py",
        root / "projection.py",
        root / "reader.py",
        *(root / "views").glob("*.py"),
    ]:
        assert len(path.read_text().splitlines()) <= 500, path


def test_a_batch_with_rows_for_a_statement_no_view_writes_is_refused_and_nothing_is_written(tmp_path: Path):
    views = open_views(Settings(data_dir=tmp_path))
    try:
        with pytest.raises(ValueError, match="no view writes: \\['players'\\]"):
            views.write(Changes(position=1, rows={"players": [("x",)]}), Tracking(APPLICATION, 1))
        assert views.position() == 0
    finally:
        close_views(views)
