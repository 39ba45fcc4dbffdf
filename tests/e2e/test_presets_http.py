"""Every preset over HTTP: leagues and games founded on it with its options, and each kind of bad
option refused with its code, storing nothing."""

from typing import Any

import pytest

from service.domain.presets import PRESETS, SWITCHES
from tests.e2e.club import ADMIN, problem

# one switch of each preset that has any, turned on
A_SWITCH = {preset: next(iter(switches)) for preset, switches in SWITCHES.items()}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_league_and_a_game_are_founded_on_every_preset_with_its_options(client, club, preset):
    options: dict[str, Any] = {"target_score": 200}
    if preset in A_SWITCH:
        options[A_SWITCH[preset]] = True
    body = {"name": f"{preset} club", "ruleset": preset, "options": options}
    league = club.ok("POST", "/leagues", json=body)
    assert (league["ruleset"], league["options"]) == (preset, options)
    assert client.get(f"/leagues/{league['league_id']}").json()["ruleset"] == preset
    game = club.game(["bot:random", "bot:random"], ruleset=preset, options=options)
    assert club.table(game)["ruleset"] == preset


# (ruleset, options, status, code): each kind of option a preset does not take
REFUSED = [
    ("classic", {"jokers": 2}, 422, "unknown_option"),  # no preset knows the name
    ("classic", {"crocodile": True}, 422, "invalid_option"),  # another preset's switch (101's)
    ("prsi", {"stack_sevens": True}, 422, "invalid_option"),  # classic's switch
    ("club", {"king_of_spades": True}, 422, "invalid_option"),  # a switch of no preset of club's
    ("classic", {"stack_sevens": 1}, 422, "invalid_option"),  # a number for a switch
    ("101", {"hand_size": True}, 422, "invalid_option"),  # true for a number
    ("pesten", {"voluntary_draw": 1}, 422, "invalid_option"),  # a number for an on/off option
    ("101", {"draw_one": "yes"}, 400, "malformed_request"),  # neither a number nor true/false
    ("101", {"hand_size": 18}, 422, "invalid_option"),  # not even 2 players can be dealt 18 from 36 cards
    ("prsi", {"hand_size": 0}, 422, "invalid_option"),
    ("neuner", {"decks": 3}, 422, "invalid_option"),
    ("faraon", {"call_penalty": 11}, 422, "invalid_option"),
    ("russian", {"target_score": 0}, 422, "invalid_option"),
    ("haft-khabis", {"target_score": 1001}, 422, "invalid_option"),
    ("poker", {}, 422, "unknown_ruleset"),
    ("CLASSIC", {}, 422, "unknown_ruleset"),  # names are exact
]


@pytest.mark.parametrize(("ruleset", "options", "status", "code"), REFUSED)
def test_a_league_or_game_with_an_option_its_preset_does_not_take_is_refused_and_stores_nothing(
    client, club, ruleset, options, status, code
):
    league = {"name": "Odd club", "ruleset": ruleset, "options": options}
    game = {"seats": ["bot:random", "bot:random"], "ruleset": ruleset, "options": options}
    with club.unchanged():
        found = problem(client.post("/leagues", json=league, headers=ADMIN), status, code)
        problem(client.post("/games", json=game, headers=ADMIN), status, code)
    if code != "malformed_request":
        assert next(iter(options), ruleset) in found["detail"]


def test_a_refused_switch_says_which_presets_it_belongs_to(client, club):
    body = {"name": "Odd club", "ruleset": "classic", "options": {"king_of_spades": True}}
    with club.unchanged():
        found = problem(client.post("/leagues", json=body, headers=ADMIN), 422, "invalid_option")
    assert "faraon" in found["detail"] and "prsi" in found["detail"] and "russian" in found["detail"]


def test_the_document_names_every_preset_and_which_presets_own_each_switch(client):
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    for create, names in (("LeagueCreate", [*PRESETS, "mao"]), ("GameCreate", list(PRESETS))):
        ruleset = schemas[create]["properties"]["ruleset"]
        # a game's may be left out (the league's, or club): the names are its string branch's
        named = ruleset if create == "LeagueCreate" else ruleset["oneOf"][0]
        assert named["enum"] == names  # a league may be Mao's; its games are played under /mao-games
        assert all(name in ruleset["description"] for name in names)
        described = schemas[create]["properties"]["options"]["description"]
        for preset, switches in SWITCHES.items():
            assert all(f"{key} (" in described and preset in described for key in switches)
    assert schemas["LeagueRead"]["properties"]["ruleset"]["enum"] == [*PRESETS, "mao"]


def test_a_league_game_plays_the_leagues_preset_and_switches_and_may_change_only_the_match_length(
    client, club
):
    ada, _ = club.player()
    bob, _ = club.player()
    league = club.league(members=[ada, bob], ruleset="101", options={"crocodile": True})
    game = club.game([ada, bob], league_id=league, options={"target_score": 150})
    assert club.table(game)["ruleset"] == "101"
    for options in ({"crocodile": False}, {"hand_size": 3}, {"stack_sevens": True}):
        body = {"seats": [ada, bob], "league_id": league, "options": options}
        with club.unchanged():
            found = problem(client.post("/games", json=body, headers=ADMIN), 422, "invalid_option")
        assert "match length" in found["detail"]
