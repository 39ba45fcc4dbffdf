"""The events that hold a player's name, and those events scrubbed of it."""

import uuid

from service.domain.credential import Credential
from service.domain.league import ERASED_NAME, League, Player
from service.domain.password import Password
from service.domain.privacy import PERSONAL_FIELDS, scrubbed


def test_a_players_name_is_scrubbed_from_their_registration_renames_and_tokens_issue():
    player = Player.register("Ann")
    player.rename("Anna")
    credential, _ = Credential.issue("player", str(player.id), "Anna")
    events = [*player.collect_events(), *credential.collect_events()]
    named = [Player.Registered, Player.Renamed, Credential.Issued]
    assert (
        [type(e) for e in events]
        == named
        == [kind for kind in PERSONAL_FIELDS if "name" in PERSONAL_FIELDS[kind]]
    )
    for event in events:
        clean = scrubbed(event)
        assert clean is not None and clean.name == ERASED_NAME
        assert type(clean) is type(event) and clean.originator_id == event.originator_id
        assert clean.originator_version == event.originator_version
        assert event.name in ("Ann", "Anna")  # the event itself is left as it was
        assert scrubbed(clean) is None  # scrubbed once is scrubbed


def test_events_that_name_a_player_by_id_only_are_left_alone():
    league = League.found("Tuesday club")
    league.admit(uuid.uuid4())
    assert all(scrubbed(event) is None for event in league.collect_events())


def test_a_players_password_hash_is_scrubbed_and_accepts_nothing_after():
    player_id = uuid.uuid4()
    password = Password.choose(player_id, "a long club password")
    password.change("another long password")
    events = password.collect_events()
    assert [type(e) for e in events] == [Password.Chosen, Password.Changed]
    for event in events:
        clean = scrubbed(event)
        assert clean is not None and clean.password_hash == ERASED_NAME and scrubbed(clean) is None
        assert event.password_hash.startswith("$argon2id$")
    wiped = Password.choose(player_id, "a long club password")
    wiped.password_hash = ERASED_NAME
    assert not wiped.accepts("a long club password") and not wiped.accepts(ERASED_NAME)
