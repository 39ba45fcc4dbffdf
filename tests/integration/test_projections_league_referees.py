"""A league's referees in the read models (``views_league_people``) as they are appointed and taken off,
on both stores: a dismissed referee's leagues and open disputes no longer name the league, whether the
appointment and the dismissal are folded in one batch or in two; a rebuild lists the same."""

import pytest

from service.domain.roles import Actor
from service.projections.reader import ReadModels
from service.projections.runner import rebuild
from tests.integration.projecting import catch_up

pytestmark = pytest.mark.own_store  # the disputes' list is the whole store's


def refereed(reader: ReadModels, referee: str) -> list[object]:
    return [league.league_id for league in reader.leagues_of(referee, "referee")]


def test_a_dismissed_referee_refers_no_more_to_the_league_in_one_batch_or_two(app, settings, reader):
    thursday, friday = app.found_league("Thursday"), app.found_league("Friday")
    ann, bob = app.register_player("Ann"), app.register_player("Bob")
    for player in (ann, bob):
        app.admit_member(thursday, player)
    for referee in ("rita", "otto"):
        app.appoint_referee(thursday, referee)
    app.appoint_referee(friday, "rita")
    game = app.create_game([ann, bob], league_id=thursday).game_id
    app.raise_dispute(game, reason="a card fell", by=Actor("player", str(ann)))
    catch_up(settings)
    assert [d.game_id for d in reader.disputes("rita", None, 10)[0]] == [game]

    app.dismiss_referee(thursday, "rita")  # folded in a batch after the appointment's
    # in one batch: taken off and appointed again (still theirs), appointed and taken off (never listed)
    for change in (app.appoint_referee, app.dismiss_referee, app.appoint_referee):
        change(friday, "ivy")
    app.appoint_referee(friday, "max")
    app.dismiss_referee(friday, "max")
    catch_up(settings)

    assert refereed(reader, "rita") == [friday]
    assert reader.disputes("rita", None, 10)[0] == []  # Thursday's open dispute is another's to rule on
    assert [d.game_id for d in reader.disputes("otto", None, 10)[0]] == [game]
    assert sorted(reader.people_of(thursday, "referee")) == ["otto"]
    assert sorted(reader.people_of(friday, "referee")) == ["ivy", "rita"]
    assert refereed(reader, "max") == []

    before = [refereed(reader, one) for one in ("rita", "otto", "ivy", "max")]
    rebuild(settings)
    rebuilt = ReadModels(settings)
    try:
        assert [refereed(rebuilt, one) for one in ("rita", "otto", "ivy", "max")] == before
        assert sorted(rebuilt.people_of(thursday, "referee")) == ["otto"]
    finally:
        rebuilt.close()
