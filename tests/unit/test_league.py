"""The Player and League aggregates."""

import uuid

import pytest

from service.domain.errors import RuleError
from service.domain.league import ERASED_NAME, League, Player
from service.domain.ruleset_options import ruleset


def test_a_player_registers_with_a_name_and_may_rename():
    player = Player.register("  Ann  ")
    assert player.name == "Ann"
    player.rename("Anna")
    assert player.name == "Anna"
    assert [type(e).__name__ for e in player.collect_events()] == ["Registered", "Renamed"]
    for bad in ("", "   ", "x" * 81):
        with pytest.raises(RuleError) as refused:
            Player.register(bad)
        assert refused.value.code == "malformed_name"


def test_a_league_fixes_its_ruleset_and_options():
    league = League.found("Tuesday club", "club", {"target_score": 50})
    assert league.rules == ruleset("club", target_score=50)
    with pytest.raises(RuleError) as refused:
        League.found("x", "poker")
    assert refused.value.code == "unknown_ruleset"
    with pytest.raises(RuleError) as refused:
        League.found("x", "club", {"target_score": "many"})
    assert refused.value.code == "invalid_option"


def test_a_league_admits_members_and_appoints_referees_once():
    league = League.found("Tuesday club")
    member = uuid.uuid4()
    league.admit(member)
    league.appoint_referee("rita")
    assert league.members == (member,) and league.referees == ("rita",)
    with pytest.raises(RuleError):
        league.admit(member)
    with pytest.raises(RuleError):
        league.appoint_referee("rita")
    assert len(league.collect_events()) == 3


def test_a_league_refuses_a_member_whose_name_reads_as_a_members_name():
    league = League.found("Tuesday club")
    league.admit(uuid.uuid4(), "Ada", [])
    with pytest.raises(RuleError) as refused:
        league.admit(uuid.uuid4(), "ADA", ["Ada"])
    assert refused.value.code == "name_taken"
    assert len(league.members) == 1


@pytest.mark.parametrize(
    "options",
    [
        {"target_score": 10**18},
        {"target_score": 1001},
        {"target_score": 0},
        {"call_penalty": 11},
        {"hand_size": 26},  # not even 2 players get 26 cards each from 52
    ],
)
def test_a_league_refuses_numeric_options_no_club_could_mean(options):
    with pytest.raises(RuleError) as refused:
        League.found("Endless", "club", options)
    assert refused.value.code == "invalid_option"


def test_a_league_founded_before_the_bounds_keeps_its_options_when_read_back():
    league = League.found("Long ago", "club", {"target_score": 1000})
    (founded,) = league.collect_events()
    old = type(founded)(**{**founded.__dict__, "options": {"target_score": 10**18}})
    replayed = old.mutate(None)
    assert replayed.options == {"target_score": 10**18}
    assert replayed.rules.target_score == 10**18


def test_a_member_is_removed_once_and_may_be_admitted_again():
    league = League.found("Tuesday club")
    member, other = uuid.uuid4(), uuid.uuid4()
    league.admit(member)
    league.admit(other)
    league.remove(member)
    assert league.members == (other,)
    with pytest.raises(RuleError) as refused:
        league.remove(member)
    assert refused.value.code == "member_not_found"
    league.admit(member)
    assert league.members == (other, member)
    assert [type(e).__name__ for e in league.collect_events()][-3:] == [
        "MemberAdmitted",
        "MemberRemoved",
        "MemberAdmitted",
    ]


def test_a_referee_is_dismissed_only_from_a_league_they_referee_and_may_be_appointed_again():
    league = League.found("Tuesday club")
    league.appoint_referee("rita")
    league.appoint_referee("otto")
    league.dismiss_referee("rita")
    assert league.referees == ("otto",)
    for stranger in ("rita", "nobody", ""):
        with pytest.raises(RuleError) as refused:
            league.dismiss_referee(stranger)
        assert refused.value.code == "league_referee_not_found"
    assert league.referees == ("otto",)
    league.appoint_referee("rita")
    assert league.referees == ("otto", "rita")
    assert [type(e).__name__ for e in league.collect_events()][-4:] == [
        "RefereeAppointed",
        "RefereeAppointed",
        "RefereeDismissed",
        "RefereeAppointed",
    ]


def test_an_erased_player_is_called_erased_player_and_may_not_be_renamed():
    player = Player.register("Ann")
    player.erase()
    player.erase()  # again: nothing more to record
    assert player.name == ERASED_NAME and player.erased
    assert [type(e).__name__ for e in player.collect_events()] == ["Registered", "Erased"]
    with pytest.raises(RuleError) as refused:
        player.rename("Anna")
    assert refused.value.code == "player_erased"


def test_no_one_may_take_the_name_of_the_erased():
    for name in ("erased player", "  Erased Player ", "ＥＲＡＳＥＤ player"):
        with pytest.raises(RuleError) as refused:
            Player.register(name)
        assert refused.value.code == "name_reserved"
    player = Player.register("Ann")
    with pytest.raises(RuleError) as refused:
        player.rename("ERASED PLAYER")
    assert refused.value.code == "name_reserved"


def test_a_league_keeps_the_time_zone_it_was_founded_with_and_is_in_utc_without_one():
    assert League.found("Berlin club", time_zone="Europe/Berlin").time_zone == "Europe/Berlin"
    assert League.found("Plain club").time_zone == "UTC"


@pytest.mark.parametrize(
    "zone", ["", "Mars/Olympus", "utc", "../../etc/passwd", "Europe/", "x" * 65, None, 1]
)
def test_a_league_with_a_time_zone_zoneinfo_does_not_know_is_refused(zone):
    with pytest.raises(RuleError) as refused:
        League.found("Odd", time_zone=zone)
    assert refused.value.code == "invalid_time_zone"
