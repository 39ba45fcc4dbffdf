"""Keyrings on PostgreSQL and SQLite: a subject's tokens listed, those made before keyrings too;
when each token was last used."""

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from uuid import uuid4

import pytest

from service.application import MauMau, credentials
from service.domain.credential import Credential
from service.domain.league import Player
from service.projections.store import close_views, open_views
from service.settings import Settings


@pytest.fixture
def app(fresh_settings: Settings) -> Iterator[MauMau]:
    """A store of the test's own: filling keyrings reads the whole log."""
    application = MauMau(fresh_settings)
    yield application
    application.close()


def test_tokens_made_before_keyrings_are_added_to_their_holders_keyrings_once_and_listed_oldest_first(app):
    player = Player.register("Old timer")
    old, _ = Credential.issue("player", str(player.id), player.name)
    app.save(player, old)  # as a token was stored before keyrings: in none
    assert credentials.tokens_of(app, str(player.id)) == []
    new = credentials.issue(app, "player", str(player.id), player.name)
    referee = credentials.issue(app, "referee", None, "Rita")

    assert credentials.fill_keyrings(app) == 1
    listed = [credential.id for credential in credentials.tokens_of(app, str(player.id))]
    assert listed == [old.id, new.credential_id]
    assert [c.id for c in credentials.tokens_of(app, referee.subject)] == [referee.credential_id]
    assert credentials.fill_keyrings(app) == 0

    assert set(credentials.revoke_all(app, str(player.id))) == {old.id, new.credential_id}
    assert credentials.get(app, old.id).revoked


def test_a_tokens_last_use_is_kept_beside_the_read_models_and_never_goes_back_in_time(fresh_settings):
    views = open_views(fresh_settings)
    try:
        used, other = uuid4(), uuid4()
        now = datetime.now(UTC).replace(microsecond=0)
        views.token_uses.note(used, now)
        views.token_uses.note(used, now - timedelta(hours=2))  # a process that noted it late
        assert views.token_uses.last([used, other]) == {used: now}
        views.token_uses.note(used, now + timedelta(hours=1))
        assert views.token_uses.last([used]) == {used: now + timedelta(hours=1)}
        assert views.token_uses.last([]) == {}
    finally:
        close_views(views)
