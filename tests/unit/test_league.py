"""The Player and League aggregates."""

import uuid

import pytest

from service.domain.errors import RuleError
from service.domain.league import League, Player
from service.domain.rulesets import ruleset


def test_a_player_registers_with_a_name_and_may_rename():
    player = Player.register("  Ann  ")
    assert player.name == "Ann"
    player.rename("Anna")
    assert player.name == "Anna"
    assert [type(e).__name__ for e in player.collect_events()] == ["Registered", "Renamed"]
    for bad in ("", "   ", "x" * 81):
        with pytest.raises(RuleError) as refused:
            Player.register(bad)
        assert refused.value.code == "invalid_name"


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
