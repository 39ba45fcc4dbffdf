"""The lists' pages on both stores: each item once, in the list's order, under each filter; and a rebuild
of the read models lists the same."""

import pytest

from service.domain.roles import Actor
from service.domain.tournament_plan import Plan
from service.projections.reader import ReadModels
from service.projections.runner import rebuild
from tests.integration.projecting import catch_up
from tests.integration.tables import play_out

pytestmark = pytest.mark.own_store  # each test lists the whole store: a store of the test's own


def every_page(fetch, limit: int) -> list[list]:  # type: ignore[no-untyped-def]
    """Each page of a list, from the first to the one with no next key."""
    pages, key = [], None
    while True:
        items, key = fetch(key, limit)
        pages.append(items)
        if key is None:
            return pages
        assert len(pages) < 100


def test_every_list_pages_through_each_item_once_in_its_order_on_both_stores(app, settings, reader):
    players = [app.register_player(name) for name in ("cy", "Ann", "bea", "Dee", "ann", "eve", "Ann")]
    leagues = [app.found_league(name) for name in ("Tue", "Mon", "Tue")]
    for player in players[:4]:
        app.admit_member(leagues[0], player)
    app.appoint_referee(leagues[0], "rita")
    games = [app.create_game(players[:2], league_id=leagues[0]).game_id for _ in range(3)]
    games.append(app.create_game([players[2], "bot:random"]).game_id)
    play_out(app, games[0], seed=1)
    app.raise_dispute(games[1], reason="why?", by=Actor("player", str(players[0])))
    app.raise_dispute(games[3], by=Actor("admin", "x"))
    plan = Plan(format="swiss", table_size=2, rounds=1, places=4)
    tournaments = [app.create_tournament(leagues[0], f"Cup {n}", plan) for n in range(3)]
    app.start_tournament(tournaments[0])
    catch_up(settings)

    listed = [item for page in every_page(lambda key, n: reader.players(None, key, n), 2) for item in page]
    assert [(p.name, p.player_id) for p in listed] == sorted((p.name, p.player_id) for p in listed)
    assert sorted(p.player_id for p in listed) == sorted(players)
    found = [p.player_id for page in every_page(lambda key, n: reader.players("AN", key, n), 1) for p in page]
    assert sorted(found) == sorted([players[1], players[4], players[6]])
    assert reader.players("n_", None, 10) == ([], None)  # _ is a character, not a wildcard

    listed_leagues = [
        (league.name, league.league_id)
        for page in every_page(lambda key, n: reader.leagues(key, n), 2)
        for league in page
    ]
    assert listed_leagues == sorted(zip(("Tue", "Mon", "Tue"), leagues, strict=True))

    def game_ids(league=None, player=None, status=None, limit=1):  # type: ignore[no-untyped-def]
        pages = every_page(lambda key, n: reader.games(league, player, status, key, n), limit)
        return [game.game_id for page in pages for game in page]

    assert game_ids() == games[::-1]  # the newest first (a started tournament's games come from the workers)
    assert game_ids(league=leagues[0], status="playing") == [games[2]]
    assert game_ids(status="paused") == [games[3], games[1]]
    assert game_ids(status="over") == [games[0]]
    assert game_ids(player=players[2]) == [games[3]]

    disputes = [d for page in every_page(lambda key, n: reader.disputes(None, key, n), 1) for d in page]
    assert [d.game_id for d in disputes] == [games[1], games[3]]  # the longest waiting first
    assert disputes[0].raised_by_name == "cy" and disputes[0].reason == "why?"
    assert [d.game_id for d in reader.disputes("rita", None, 10)[0]] == [games[1], games[3]]
    assert [d.game_id for d in reader.disputes("otto", None, 10)[0]] == [games[3]]  # friendly only

    listed_tournaments = every_page(lambda key, n: reader.tournament_list(leagues[0], None, key, n), 2)
    assert [t.tournament_id for page in listed_tournaments for t in page] == tournaments[::-1]
    running = reader.tournament_list(None, "running", None, 10)[0]
    assert [t.tournament_id for t in running] == [tournaments[0]]

    assert [league.league_id for league in reader.leagues_of(str(players[0]), "member")] == [leagues[0]]
    assert [league.league_id for league in reader.leagues_of("rita", "referee")] == [leagues[0]]
    assert reader.leagues_of(str(players[5]), "member") == []

    before = (
        reader.players(None, None, 100),
        reader.games(None, None, None, None, 100),
        reader.disputes(None, None, 100),
        reader.tournament_list(None, None, None, 100),
        reader.leagues_of("rita", "referee"),
    )
    rebuild(settings)
    rebuilt = ReadModels(settings)
    try:
        after = (
            rebuilt.players(None, None, 100),
            rebuilt.games(None, None, None, None, 100),
            rebuilt.disputes(None, None, 100),
            rebuilt.tournament_list(None, None, None, 100),
            rebuilt.leagues_of("rita", "referee"),
        )
    finally:
        rebuilt.close()
    assert after == before
