"""A club's season end to end, as a club runs it, through the HTTP API and real processes.

One world for the module: the API (litestar's TestClient, its read models and webhook deliveries
projected in it) on a PostgreSQL schema of its own, a real Celery worker and beat
(``python -m workers.cli``) on the real Redis broker under a key prefix of its own (they time turns
out, play the bots, run the tournaments and send the webhooks), and a real HTTP receiver on
127.0.0.1. Each test is a chapter of the season and reads what the chapters before it made, in file
order.

Every write is read back at once by the one who wrote it, with no ``?after=`` (``Season.write`` then
``Season.read``): a read answering 404 or 409 fails the chapter. Only what a bystander reads after
someone else's write names a position (``?after=``), as docs/consistency.md says it must.
"""

import itertools
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.domain.league import ERASED_NAME
from tests.e2e.club import ADMIN, bearer
from tests.e2e.test_read_your_writes import said
from tests.e2e.test_tournament_run import Stack, worker_stack
from tests.e2e.test_webhooks import ALL_BUT_TURNS, WORKER_ENV, assert_public
from tests.receiver import Receiver, receiving
from workers.webhooks import SIGNATURE_HEADER, verify

pytestmark = pytest.mark.slow

MARK = uuid.uuid4().hex[:6]  # the season's names are its own among every other test's players
NAMES = [f"{first} {MARK}" for first in ("Ada", "Bea", "Cyd", "Dan", "Eve")]
CLOCK = 2  # seconds a turn: a silent player forfeits after two of them
FORFEIT_AFTER = 2
CLUB_TARGET = 100  # the club ruleset's target score, a forfeit's least total
MOST_MOVES = 1500  # a single round of two ends long before
START_IN = 45  # seconds from the edit to the Spring cup's start: time enough to check in, loaded or not
WAIT = 120.0  # seconds any one thing may take on a loaded machine before the chapter fails


class Season:
    """The world of the season and what its chapters found out, for the chapters after them."""

    def __init__(self, client: TestClient[Any], stack: Stack, receiver: Receiver) -> None:
        self.client, self.stack, self.receiver = client, stack, receiver
        self.league = ""
        self.hook = self.secret = ""
        self.people: dict[str, tuple[str, dict[str, str]]] = {}  # name: (player id, own header)
        self.forfeited_game = ""
        self.tournaments: list[str] = []

    def write(self, method: str, path: str, headers: dict[str, str] = ADMIN, **kwargs: Any) -> Any:
        response = self.client.request(method, path, headers=headers, **kwargs)
        assert response.status_code < 300, (method, path, response.status_code, response.text)
        return response.json() if response.content else None

    def read(self, path: str, headers: dict[str, str] | None = None, **params: Any) -> Any:
        """A read with nothing but a token: never a 404 or 409 for what its writer just wrote."""
        response = self.client.get(path, headers=headers or {}, params=params)
        assert response.status_code == 200, (path, response.status_code, response.text)
        return response.json()

    def position(self) -> int:
        return self.client.app.state.services.app.recorder.max_notification_id() or 0

    def seen(self, path: str, headers: dict[str, str] | None = None, **params: Any) -> Any:
        """What a bystander (not the writer) reads once the read models hold everything written so far."""
        return self.read(path, headers, after=self.position(), **params)

    def id(self, name: str) -> str:
        return self.people[name][0]

    def token(self, name: str) -> dict[str, str]:
        return self.people[name][1]

    def wait_for(self, what: str, done: Callable[[], Any], timeout: float = WAIT) -> None:
        self.stack.wait_for(what, lambda: bool(done()), timeout)


@pytest.fixture(scope="module")
def season(database_url: str, broker_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Season]:
    folder: Path = tmp_path_factory.mktemp("season")
    with (
        worker_stack(database_url, broker_url, folder, "season", WORKER_ENV) as (settings, stack),
        receiving() as receiver,
        TestClient(create_app(settings)) as client,
    ):
        stack.start_worker()
        stack.start("beat", "workers.cli", "beat", "--loglevel", "INFO")
        yield Season(client, stack, receiver)


def test_an_admin_founds_a_clocked_league_and_five_people_join_by_one_invitation_under_names_they_chose(
    season: Season,
) -> None:
    league = season.write(
        "POST",
        "/leagues",
        json={
            "name": f"Season {MARK}",
            "turn_clock": CLOCK,
            "forfeit_after": FORFEIT_AFTER,
            "options": {"single_round": True},
        },
    )
    season.league = league["league_id"]
    assert (league["turn_clock"], league["forfeit_after"]) == (CLOCK, FORFEIT_AFTER)
    assert season.read(f"/leagues/{season.league}", ADMIN)["name"] == f"Season {MARK}"
    made = season.write(
        "POST",
        f"/leagues/{season.league}/webhooks",
        json={"url": season.receiver.url, "events": ALL_BUT_TURNS, "players": []},
    )
    season.hook, season.secret = made["webhook"]["webhook_id"], made["secret"]
    assert season.read(f"/webhooks/{season.hook}", ADMIN)["enabled"]

    expires = (datetime.now(UTC) + timedelta(days=7)).isoformat()
    invitation = season.write(
        "POST", f"/leagues/{season.league}/invitations", json={"expires_at": expires, "uses": len(NAMES)}
    )
    for name in NAMES:
        joined = season.write(
            "POST", "/invitations/redeem", headers={}, json={"code": invitation["code"], "name": name}
        )
        player_id, token = joined["player"]["player_id"], bearer(joined["token"]["token"])
        season.people[name] = (player_id, token)
        # from now on each person speaks with their own token, and it says who they are at once
        me = season.read("/me", token)
        assert (me["role"], me["id"], me["name"]) == ("player", player_id, name)
        assert me["leagues"] == [{"league_id": season.league, "name": f"Season {MARK}"}]
    refused = season.client.post("/invitations/redeem", json={"code": invitation["code"], "name": "Late"})
    assert (refused.status_code, refused.json()["code"]) == (410, "invitation_used_up")
    found = season.read(f"/leagues/{season.league}", ADMIN)
    assert found["members"] == [season.id(name) for name in NAMES]
    assert found["names"] == {season.id(name): name for name in NAMES}
    (listed,) = season.read(f"/leagues/{season.league}/invitations", ADMIN)["invitations"]
    assert listed["uses_left"] == 0 and listed["redeemed_by"] == [season.id(name) for name in NAMES]
    assert invitation["code"] not in str(listed)


def test_two_members_play_a_friendly_game_reading_right_after_each_move_and_never_see_a_404_or_409(
    season: Season,
) -> None:
    # a friendly game has no clock: nothing but the two players' own moves changes it, so the
    # version each reads is the one they must send
    ada, bea = NAMES[0], NAMES[1]
    headers = [season.token(ada), season.token(bea)]
    game = season.write(
        "POST", "/games", headers=headers[0], json={"seats": [season.id(ada), season.id(bea)]}
    )
    game_id, version = game["game_id"], game["version"]
    rounds = 0
    for _ in range(MOST_MOVES):
        views = [season.read(f"/games/{game_id}/me", seat) for seat in headers]
        public = season.read(f"/games/{game_id}")
        assert [view["table"]["version"] for view in views] == [version, version] == [public["version"]] * 2
        assert [seat["name"] for seat in public["seats"]] == [ada, bea]
        if public["over"]:
            break
        (mover,) = [view["seat"] for view in views if any(m["kind"] != "challenge" for m in view["legal"])]
        move = said(views[mover], next(m for m in views[mover]["legal"] if m["kind"] != "challenge"))
        version = season.write(
            "POST", f"/games/{game_id}/moves", headers=headers[mover], json={**move, "version": version}
        )["version"]
        rounds += 1
    else:
        pytest.fail(f"the match did not end in {MOST_MOVES} moves")
    assert public["winners"] and rounds > 0
    history = season.read(f"/players/{season.id(ada)}/games", headers[0])
    assert [played["game_id"] for played in history["games"]] == [game_id]
    assert history["games"][0]["opponents"] == [bea]


def test_a_silent_member_forfeits_a_league_game_by_the_clock_and_the_views_say_so(season: Season) -> None:
    eve = NAMES[4]
    game = season.write(
        "POST", "/games", json={"seats": [season.id(eve), "bot:heuristic"], "league_id": season.league}
    )
    season.forfeited_game = game["game_id"]
    # read right after the write, the game is at least as made: the worker's bot may have moved already
    assert season.read(f"/games/{game['game_id']}", ADMIN)["version"] >= game["version"]
    season.wait_for(
        "Eve's forfeit", lambda: season.read(f"/games/{season.forfeited_game}")["over"], timeout=WAIT
    )
    table = season.read(f"/games/{season.forfeited_game}")
    assert table["forfeited"] == [0] and table["winners"] == [1]
    assert table["seats"][0]["forfeited"] and table["seats"][0]["name"] == eve
    events = season.read(f"/games/{season.forfeited_game}/events", limit=1000)["events"]
    assert events[-1]["type"] == "SeatForfeited"
    assert (events[-1]["data"]["seat"], events[-1]["data"]["turns"]) == (0, FORFEIT_AFTER)
    assert [event["data"]["seat"] for event in events if event["type"] == "TurnTimedOut"] == [
        0
    ] * FORFEIT_AFTER


def soon(minutes: float) -> str:
    return (datetime.now(UTC) + timedelta(minutes=minutes)).isoformat()


def test_the_admin_edits_the_spring_cup_before_its_start_and_cancels_the_autumn_cup(season: Season) -> None:
    spring = season.write(
        "POST",
        f"/leagues/{season.league}/tournaments",
        json={
            "name": "Spring cup draft",
            "format": "swiss",
            "table_size": 3,
            "rounds": 3,
            "single_round": True,
            "turn_clock": 1,  # the silent forfeit their tables in seconds
            "places": 6,
            "starts_at": soon(24 * 60),
            "check_in_minutes": 30,
        },
    )
    season.tournaments.append(spring["tournament_id"])
    path = f"/tournaments/{spring['tournament_id']}"
    assert season.read(path, ADMIN)["name"] == "Spring cup draft"
    # the check-in is a day away: a member who joined cannot check in yet
    ada = NAMES[0]
    season.write("POST", f"{path}/entrants", headers=season.token(ada), json={"player_id": season.id(ada)})
    early = season.client.post(
        f"{path}/check-in", headers=season.token(ada), json={"player_id": season.id(ada)}
    )
    assert (early.status_code, early.json()["code"]) == (409, "check_in_not_open")
    edited = season.write(
        "PATCH",
        path,
        json={
            "name": "Spring cup",
            "table_size": 2,
            "places": 7,
            "starts_at": soon(START_IN / 60),
            "check_in_minutes": 60,
        },
    )
    assert (edited["name"], edited["table_size"], edited["places"]) == ("Spring cup", 2, 7)
    read = season.read(path, ADMIN)
    assert (read["name"], read["table_size"], read["places"], read["check_in_minutes"]) == (
        "Spring cup",
        2,
        7,
        60,
    )
    assert read["status"] == "announced" and datetime.fromisoformat(read["check_in_opens"]) < datetime.now(
        UTC
    )
    fixed = season.client.patch(path, headers=ADMIN, json={"rounds": 5})
    assert (fixed.status_code, fixed.json()["code"]) == (422, "not_editable")

    autumn = season.write(
        "POST",
        f"/leagues/{season.league}/tournaments",
        json={"name": "Autumn cup", "format": "round_robin", "table_size": 2, "single_round": True},
    )
    season.tournaments.append(autumn["tournament_id"])
    autumn_path = f"/tournaments/{autumn['tournament_id']}"
    bea = NAMES[1]
    season.write(
        "POST", f"{autumn_path}/entrants", headers=season.token(bea), json={"player_id": season.id(bea)}
    )
    assert season.read(autumn_path, season.token(bea))["entrants"] == [season.id(bea)]
    season.write("POST", f"{autumn_path}/cancel", json={"reason": "The hall is booked that weekend"})
    cancelled = season.read(autumn_path, ADMIN)
    assert (cancelled["status"], cancelled["cancelled"]) == ("cancelled", "The hall is booked that weekend")
    late = season.client.post(
        f"{autumn_path}/entrants", headers=season.token(ada), json={"player_id": season.id(ada)}
    )
    assert (late.status_code, late.json()["code"]) == (409, "tournament_cancelled")
    assert season.read(autumn_path, season.token(ada))["entrants"] == [season.id(bea)]


def test_the_spring_cup_starts_without_its_no_show_and_pairs_its_later_rounds_without_the_one_who_dropped_out(
    season: Season,
) -> None:
    path = f"/tournaments/{season.tournaments[0]}"
    ada, bea, cyd, dan, eve = NAMES
    for name in (bea, cyd, dan, eve):
        season.write(
            "POST", f"{path}/entrants", headers=season.token(name), json={"player_id": season.id(name)}
        )
    for name in (ada, bea, cyd, eve):  # Dan never checks in
        season.write(
            "POST", f"{path}/check-in", headers=season.token(name), json={"player_id": season.id(name)}
        )
        assert season.id(name) in season.read(path, season.token(name))["checked_in"]
    again = season.client.post(
        f"{path}/check-in", headers=season.token(ada), json={"player_id": season.id(ada)}
    )
    assert (again.status_code, again.json()["code"]) == (409, "already_checked_in")
    # everyone who will has checked in: the start is brought forward to now rather than waited for
    # (START_IN is a margin for a loaded machine; an idle one would sit out most of it), unless the
    # tick has just started it all the same
    brought = season.client.patch(path, headers=ADMIN, json={"starts_at": soon(0)})
    assert brought.status_code == 200 or season.read(path)["status"] != "announced", brought.text
    assert season.read(path, ADMIN)["checked_in"] == [season.id(name) for name in (ada, bea, cyd, eve)]

    # the workers' tick starts it at its start time, dropping Dan, who never checked in
    season.wait_for("the Spring cup started", lambda: season.read(path)["status"] != "announced")
    present = {season.id(name) for name in (ada, bea, cyd, eve)}
    season.wait_for(
        "round 1 in play", lambda: all(t["game_id"] for t in season.read(path)["rounds"][0]["tables"])
    )
    started = season.read(path)
    assert started["status"] == "running" and started["dropped"] == [season.id(dan)]
    first = started["rounds"][0]
    seated = {entrant for table in first["tables"] for entrant in table["entrants"]} | set(first["byes"])
    assert present <= seated and season.id(dan) not in seated
    assert len(seated) == 7 and all(bot.startswith("bot:") for bot in seated - present)  # Dan's place too

    # Cyd drops out while the Swiss is played; the rounds paired before it stand
    season.write("POST", f"{path}/drop-out", headers=season.token(cyd), json={"player_id": season.id(cyd)})
    after_drop = season.read(path, season.token(cyd))
    assert after_drop["dropped"] == [season.id(dan), season.id(cyd)]
    paired_before = len(after_drop["rounds"])
    assert 1 <= paired_before < 3, "Cyd dropped out after the last round was paired: no later round to check"
    season.wait_for("the Spring cup finished", lambda: season.read(path)["status"] == "finished")
    finished = season.seen(path)
    assert [played["round_no"] for played in finished["rounds"]] == [1, 2, 3]
    for later in finished["rounds"][paired_before:]:
        paired = {entrant for table in later["tables"] for entrant in table["entrants"]} | set(later["byes"])
        assert paired == seated - {season.id(cyd)}
    ranking = finished["ranking"]
    # Cyd's results stand, after everyone who played on; Dan, who never played, is listed last, unranked
    assert [row["entrant"] for row in ranking[-2:]] == [season.id(cyd), season.id(dan)]
    assert all(row["dropped"] for row in ranking[-2:]) and ranking[-1]["rank"] is None
    assert not any(row["dropped"] for row in ranking[:-2]) and finished["winners"] != [season.id(cyd)]
    assert (
        finished["names"][season.id(ada)] == ada
        and ranking[0]["name"] == finished["names"][ranking[0]["entrant"]]
    )
    assert_ranking_agrees_with_the_tables(finished)


def assert_ranking_agrees_with_the_tables(view: dict[str, Any]) -> None:
    """The ranking as docs/standings.md orders it, recomputed from the bracket's table results."""
    assert view["tie_breaks"] == ["points", "wins", "forfeits", "opponents", "seed"]
    assert view["rule"].startswith("Fewest points")
    points: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    forfeits: Counter[str] = Counter()
    met: dict[str, list[str]] = {row["entrant"]: [] for row in view["ranking"]}
    for played in view["rounds"]:
        assert played["finished"]
        winning = []
        for table in played["tables"]:
            assert table["finished"] and not table["abandoned"]
            # a bot that sat in for one who had dropped out plays for nobody, and is nobody met
            sat = [(seat, e) for seat, e in enumerate(table["entrants"]) if seat not in table["stand_ins"]]
            for seat, entrant in sat:
                points[entrant] += table["totals"][seat]
                wins[entrant] += seat in table["winners"]
                forfeits[entrant] += seat in table["forfeited"]
                met[entrant] += [other for _, other in sat if other != entrant]
            winning += [table["totals"][seat] for seat in table["winners"]]
        for bye in played["byes"]:  # a bye scores the round's mean winning total, and a win
            points[bye] += round(sum(winning) / len(winning))
            wins[bye] += 1
    for row in view["ranking"]:
        entrant = row["entrant"]
        assert (row["points"], row["wins"], row["forfeits"]) == (
            points[entrant],
            wins[entrant],
            forfeits[entrant],
        ), row
        if met[entrant]:
            opposition = sum(points[other] for other in met[entrant]) / len(met[entrant])
            assert row["opponents"] == pytest.approx(opposition)
        else:  # only byes (Cyd's round 1 bye, before she dropped out): nobody met
            assert row["opponents"] is None

    def key(row: dict[str, Any]) -> tuple[Any, ...]:
        # one who met nobody comes last on the opponents' count
        opponents = (row["opponents"] is None, row["opponents"] or 0.0)
        return (row["rank"] is None, row["dropped"], row["points"], -row["wins"], row["forfeits"], opponents)

    ranked = [row for row in view["ranking"] if row["rank"] is not None]
    assert [row["rank"] for row in ranked] == list(range(1, len(ranked) + 1))
    assert view["ranking"][: len(ranked)] == ranked  # those without a result come after, unranked
    assert all(row["tables"] == row["byes"] == 0 for row in view["ranking"][len(ranked) :])
    assert all(key(before) <= key(after) for before, after in itertools.pairwise(view["ranking"]))


def finished_league_games(season: Season) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = []
    params: dict[str, Any] = {"league": season.league, "status": "over", "limit": 100}
    after = season.position()
    while True:
        page = season.read("/games", after=after, **params)
        games += page["items"]
        if page["next"] is None:
            return games
        params["cursor"] = page["next"]


def test_league_standings_state_their_order_and_agree_with_the_game_results_read(season: Season) -> None:
    games = finished_league_games(season)
    assert season.forfeited_game in {game["game_id"] for game in games}
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    shared: Counter[str] = Counter()
    forfeits: Counter[str] = Counter()
    points: Counter[str] = Counter()
    for game in games:
        table = season.read(f"/games/{game['game_id']}")
        assert table["over"]
        # the documented forfeit rule: a forfeited seat scores the table's worst, at least club's 100
        worst = max(CLUB_TARGET, *table["totals"])
        for seat in table["seats"]:
            player = seat["player_id"]
            if player is None:
                continue  # a bot's seat has no row
            played[player] += 1
            points[player] += worst if seat["forfeited"] else table["totals"][seat["seat"]]
            if seat["seat"] in table["winners"]:
                (won if len(table["winners"]) == 1 else shared)[player] += 1
            forfeits[player] += seat["seat"] in table["forfeited"]
    standings = season.seen(f"/leagues/{season.league}/standings")
    assert standings["tie_breaks"] == [
        "matches_won_or_shared",
        "matches_won",
        "forfeits",
        "average_points",
        "rounds_won",
        "missed_calls",
    ]
    assert standings["rule"].startswith("Most matches won")
    rows = standings["rows"]
    assert {row["player_id"] for row in rows} >= {season.id(name) for name in NAMES[1:]}
    for row in rows:
        player = row["player_id"]
        assert (
            row["matches_played"],
            row["matches_won"],
            row["matches_shared"],
            row["forfeits"],
            row["points"],
        ) == (played[player], won[player], shared[player], forfeits[player], points[player]), row

    def key(row: dict[str, Any]) -> tuple[Any, ...]:
        average = row["points"] / row["rounds_played"] if row["rounds_played"] else 0.0
        return (
            row["matches_played"] == 0,  # a member who has not played comes after, unranked
            -(row["matches_won"] + row["matches_shared"]),
            -row["matches_won"],
            row["forfeits"],
            average,  # club: the lowest total wins
            -row["rounds_won"],
            row["missed_calls"],
        )

    assert [row["player_id"] for row in rows] == [
        row["player_id"] for row in sorted(rows, key=lambda row: (key(row), row["name"]))
    ]
    ranks = [row["rank"] for row in rows if row["matches_played"]]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    assert all(row["rank"] is None for row in rows if not row["matches_played"])


def test_the_lists_find_what_the_season_made(season: Season) -> None:
    found = season.seen("/players", q=f"{MARK}")
    assert [(item["player_id"], item["name"]) for item in found["items"]] == sorted(
        ((season.id(name), name) for name in NAMES), key=lambda pair: pair[1]
    )
    assert season.seen("/players", q=f"ada {MARK}")["items"][0]["player_id"] == season.id(NAMES[0])
    leagues = season.seen("/leagues", limit=100)
    ours = [item for item in leagues["items"] if item["league_id"] == season.league]
    assert [item["name"] for item in ours] == [f"Season {MARK}"]
    over = season.seen("/games", league=season.league, status="over")["items"]
    assert season.forfeited_game in [item["game_id"] for item in over]
    assert season.seen("/games", league=season.league, status="paused")["items"] == []
    assert {
        item["tournament_id"] for item in season.seen("/tournaments", league=season.league)["items"]
    } == set(season.tournaments)


def test_a_member_is_removed_and_a_player_erased_and_no_answer_names_them_any_more(season: Season) -> None:
    dan, eve = NAMES[3], NAMES[4]
    removed = season.write("DELETE", f"/leagues/{season.league}/members/{season.id(dan)}")
    assert season.id(dan) not in removed["members"]
    assert season.read(f"/leagues/{season.league}", ADMIN)["members"] == [
        season.id(name) for name in NAMES if name != dan
    ]
    assert season.seen("/me", season.token(dan))["leagues"] == []  # the admin wrote, not Dan

    # Eve asks the club to erase her; only an admin may (docs/privacy.md)
    erased = season.write("POST", f"/players/{season.id(eve)}/erasure")
    assert erased["player"] == {"player_id": season.id(eve), "name": ERASED_NAME}
    refused = season.client.get("/me", headers=season.token(eve))
    assert (refused.status_code, refused.json()["code"]) == (401, "unauthorized")
    answers = [
        season.read(f"/players/{season.id(eve)}"),
        season.seen(f"/leagues/{season.league}/standings"),
        season.seen(f"/games/{season.forfeited_game}"),
        season.seen(f"/players/{season.id(eve)}/games"),
        season.seen("/players", q=MARK),
        season.seen("/games", league=season.league),
        season.seen("/tournaments", league=season.league),
        season.read(f"/leagues/{season.league}", ADMIN),
        *(season.seen("/me", season.token(name)) for name in NAMES[:4]),
        *(season.seen(f"/tournaments/{tournament}") for tournament in season.tournaments),
    ]
    assert eve not in str(answers)
    assert answers[0]["name"] == ERASED_NAME
    rows = {row["player_id"]: row for row in answers[1]["rows"]}
    assert rows[season.id(eve)]["name"] == ERASED_NAME and rows[season.id(eve)]["forfeits"] >= 1
    assert answers[2]["seats"][0]["name"] == ERASED_NAME
    assert season.id(eve) not in [item["player_id"] for item in answers[4]["items"]]


def test_the_webhook_received_the_seasons_events_once_each_signed_and_without_a_card(season: Season) -> None:
    spring = season.seen(f"/tournaments/{season.tournaments[0]}")
    expected = {
        "round_started": len(spring["rounds"]),
        "table_ready": sum(len(played["tables"]) for played in spring["rounds"]),
        "tournament_finished": 1,  # the cancelled Autumn cup finished nothing
    }

    def delivered() -> bool:
        deliveries = season.read(f"/webhooks/{season.hook}/deliveries", ADMIN)["deliveries"]
        return len(deliveries) == sum(expected.values()) and all(
            d["status"] == "delivered" for d in deliveries
        )

    season.wait_for("every delivery delivered", delivered)
    received = season.receiver.taken()
    assert Counter(delivery.json["event"] for delivery in received) == expected
    for delivery in received:
        assert verify(season.secret, delivery.body, delivery.headers[SIGNATURE_HEADER], time.time())
        assert not verify(
            season.secret, delivery.body + b" ", delivery.headers[SIGNATURE_HEADER], time.time()
        )
    (told,) = [
        delivery.json["data"] for delivery in received if delivery.json["event"] == "tournament_finished"
    ]
    assert told["tournament_id"] == spring["tournament_id"]
    assert len(told["ranking"]) == len(spring["ranking"])
    assert_public([delivery.body for delivery in received])
    # the erased player's name left the deliveries the service keeps (a resend would send none)
    kept = str(season.read(f"/webhooks/{season.hook}/deliveries", ADMIN))
    assert NAMES[4] not in kept and "erased player" in kept
