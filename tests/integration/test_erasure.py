"""Erasing a player on request, on both stores: their names leave every table, their results stay."""

import uuid

import pytest

from service.application import MauMau, credentials
from service.domain.errors import RuleError
from service.domain.league import ERASED_NAME
from service.projections.reader import ReadModels
from service.projections.runner import rebuild
from service.settings import Settings
from tests.integration.projecting import catch_up
from tests.integration.test_projections_standings import SCRIPTED, scripted_match
from tests.privacy import tables_holding


@pytest.fixture
def settings(fresh_settings: Settings) -> Settings:
    """The scan reads every table: a store of the test's own (see ``fresh_settings``)."""
    return fresh_settings


def test_an_erased_players_names_leave_every_table_and_their_results_stay_under_erased_player(
    app: MauMau, settings: Settings
):
    first, second = f"Zelda{uuid.uuid4().hex[:10]}", f"Quux{uuid.uuid4().hex[:10]}"
    zelda = app.register_player(first)
    token = credentials.issue(app, "player", str(zelda), first)
    app.rename_player(zelda, second)
    other = app.register_player("Bob")
    league = app.found_league("Erasure club", "club", SCRIPTED)
    app.admit_member(league, zelda)
    app.admit_member(league, other)
    scripted_match(app, league, loser=zelda, winner=other, losers_card="KS", starter="5C", play="5H")
    catch_up(settings)
    # the scan finds what is there: both names, before the erasure
    assert tables_holding(settings, first) and tables_holding(settings, second)

    revoked = app.erase_player(zelda)
    catch_up(settings)

    assert revoked == [token.credential_id]
    assert tables_holding(settings, first) == [] and tables_holding(settings, second) == []
    assert app.get_player(zelda).name == ERASED_NAME
    assert app.get_league(league).members == (other,)
    erased_token = credentials.get(app, token.credential_id)
    assert erased_token.revoked and erased_token.name == ERASED_NAME
    reader = ReadModels(settings)
    try:
        standings = reader.standings(league)
        assert standings is not None
        rows = {row.player_id: row for row in standings.rows}
        assert rows[zelda].name == ERASED_NAME and rows[zelda].matches_played == 1
        assert rows[zelda].points == 10 and rows[other].name == "Bob"
        # the read models made again from the log read the scrubbed events: the same
        rebuild(settings)
        rebuilt = reader.standings(league)
        assert rebuilt is not None and rebuilt.rows == standings.rows
    finally:
        reader.close()
    assert tables_holding(settings, first) == [] and tables_holding(settings, second) == []


def test_erasing_again_records_nothing_more_and_an_erased_player_is_not_renamed_or_admitted(
    app: MauMau, settings: Settings
):
    zelda = app.register_player("Zelda")
    league = app.found_league("Erasure club")
    app.erase_player(zelda)
    position = app.recorder.max_notification_id()
    assert app.erase_player(zelda) == []
    assert app.recorder.max_notification_id() == position
    for refused in (lambda: app.rename_player(zelda, "Zed"), lambda: app.admit_member(league, zelda)):
        with pytest.raises(RuleError) as error:
            refused()
        assert error.value.code == "player_erased"
    assert app.recorder.max_notification_id() == position
