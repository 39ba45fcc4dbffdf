"""Names in leagues, stored: two members of one league never share a display name, and bounded options."""

from service.application import MauMau
from service.domain.league import Player
from tests.refusals import refused


def test_a_league_refuses_a_second_member_whose_name_reads_as_a_members(app: MauMau):
    league = app.found_league("Thursday")
    ada, other_ada, bob = (app.register_player(name) for name in ("Ada", " ada ", "Bob"))
    app.admit_member(league, ada)
    app.admit_member(league, bob)
    refused("name_taken", lambda: app.admit_member(league, other_ada))
    assert app.get_league(league).members == (ada, bob)
    elsewhere = app.found_league("Friday")
    app.admit_member(elsewhere, other_ada)  # another league's members may share it
    assert app.get_league(elsewhere).members == (other_ada,)


def test_a_rename_may_not_take_the_name_of_another_member_of_any_of_the_players_leagues(app: MauMau):
    thursday, friday = app.found_league("Thursday"), app.found_league("Friday")
    ada, bob, cy = (app.register_player(name) for name in ("Ada", "Bob", "Cy"))
    for league, player in ((thursday, ada), (thursday, bob), (friday, bob), (friday, cy)):
        app.admit_member(league, player)
    refused("name_taken", lambda: app.rename_player(bob, "ADA"))  # Ada is in Thursday
    refused("name_taken", lambda: app.rename_player(bob, "cy"))  # Cy is in Friday
    app.rename_player(ada, "Cy")  # Ada is not in Friday
    app.rename_player(bob, "Bob")  # its own name again
    assert [app.get_player(p).name for p in (ada, bob, cy)] == ["Cy", "Bob", "Cy"]
    refused("malformed_name", lambda: app.rename_player(bob, "\u202eBob"))
    assert app.get_player(bob).name == "Bob"


def test_a_player_named_before_the_name_rules_stays_readable_and_may_be_admitted(app: MauMau):
    old = Player.register("placeholder")
    (registered,) = old.collect_events()
    stored = type(registered)(**{**registered.__dict__, "name": "\u202eAdmin\u200b"})  # as once stored
    app.events.put([stored])
    assert app.get_player(old.id).name == "\u202eAdmin\u200b"
    league = app.found_league("Thursday")
    app.admit_member(league, old.id)
    assert app.get_league(league).members == (old.id,)


def test_a_game_refuses_a_target_score_no_club_could_mean(app: MauMau):
    refused("invalid_option", lambda: app.create_game(["bot:random"] * 2, options={"target_score": 10**18}))
    refused("invalid_option", lambda: app.found_league("Endless", "club", {"target_score": 1001}))
