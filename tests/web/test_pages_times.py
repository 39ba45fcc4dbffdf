"""Times on the pages are shown in the league's time zone, in the page's language."""

import httpx

from tests.e2e.club import Club


def test_a_tournaments_start_is_shown_in_its_leagues_time_zone(base: str, club: Club):
    league = club.league(members=[], name="Kyiv club", time_zone="Europe/Kyiv")
    plan = {
        "name": "Winter cup",
        "format": "swiss",
        "table_size": 2,
        "rounds": 1,
        "starts_at": "2030-01-15T10:00:00Z",
    }
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    for path in (f"/web/leagues/{league}", f"/web/tournaments/{tournament}"):
        page = httpx.get(base + path, headers={"Accept-Language": "en"}).text
        assert "12:00:00" in page and "(Europe/Kyiv)" in page, path  # 10:00 UTC is noon in Kyiv in winter
        assert "10:00:00" not in page
    russian = httpx.get(f"{base}/web/tournaments/{tournament}", params={"lang": "ru"}).text
    assert "15 янв. 2030" in russian
