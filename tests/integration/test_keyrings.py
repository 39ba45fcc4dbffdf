"""Keyrings on PostgreSQL and SQLite: a subject's tokens listed, those made before keyrings too."""

from collections.abc import Iterator

import pytest

from service.application import MauMau
from service.domain.credential import Credential
from service.domain.league import Player
from service.http import credentials
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
