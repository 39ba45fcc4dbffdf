"""The OpenAPI document validates, and schemathesis finds nothing against it: every check, stateful phase too.

schemathesis 4's CLI runs against a real ``maumau serve`` (the embedded mode:
SQLite, one process) with an admin token, for a bounded number of examples per
operation and a fixed seed. A club is made first (players, a referee, a
league, a game in play and one played to its end) and the generated requests
use its ids most of the time, so that they get past the 404s to the rules.
Every check runs (``--checks all``): no 5xx; statuses, media types, headers
and bodies as the document declares; data the document calls valid is
accepted (a 422 of the rules counts: the document cannot know the state) and
data it calls invalid is refused; ``Allow`` as documented. The stateful phase
chains operations by the links the document derives from their answers.
"""

import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from openapi_spec_validator import validate

from tests.e2e.club import bearer
from tests.e2e.test_embedded import free_port

BIN = Path(sys.executable).parent
ADMIN = bearer("schemathesis-admin")
# The rules answer 422 to a well-formed request the state does not allow (a card not in the hand, a
# tournament not joined): the document cannot say that, so 422 is an acceptance of valid data too. 400
# is not: a request the document calls valid is never malformed. 410 is a state too: an invitation
# spent, a player the run erased.
VALID_DATA_ANSWERS = ("2xx", "3xx", "401", "403", "404", "409", "410", "422", "429", "5xx")
EXAMPLES_PER_OPERATION = 8  # one to three minutes on a busy 2-core machine, stateful phase included


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``maumau serve`` on a fresh SQLite file, with an admin token; its base URL."""
    data = tmp_path_factory.mktemp("schemathesis")
    port = free_port()
    env = {**os.environ, "MAUMAU_DATA_DIR": str(data / "var"), "MAUMAU_PORT": str(port)}
    env["MAUMAU_ADMIN_TOKEN"] = ADMIN["Authorization"].removeprefix("Bearer ")
    env["MAUMAU_BOT_THINK"] = "0"  # the club's Mao match is played by bots, in the server's worker
    env.pop("MAUMAU_DATABASE_URL", None)
    with (data / "serve.log").open("w") as log:
        served = subprocess.Popen([BIN / "maumau", "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            while not answers(base):
                assert served.poll() is None, (data / "serve.log").read_text()
                time.sleep(0.05)
            yield base
        finally:
            served.terminate()
            served.wait(timeout=30)


def answers(base: str) -> bool:
    try:
        return httpx.get(f"{base}/health").status_code == 200
    except httpx.TransportError:
        return False


def made(api: httpx.Client, path: str, body: dict[str, Any] | None = None) -> Any:
    response = api.post(path, json=body)
    assert response.status_code < 300, response.text
    return response.json()


def play_to_the_end(api: httpx.Client, game: dict[str, Any], rng: random.Random) -> None:
    """The admin moves for whichever seat may, from its legal moves, until the match is over."""
    game_id, position = game["game_id"], game["position"]
    for _ in range(2000):
        table = api.get(f"/games/{game_id}?after={position}").json()
        if table["over"]:
            return
        seat = table["dealer"] if table["phase"] == "name_suit" else table["turn"]
        mine = api.get(f"/games/{game_id}/me?seat={seat}&after={position}").json()
        move = rng.choice([m for m in mine["legal"] if m["kind"] != "challenge"])
        call = {2: "mau", 1: "mau_mau"}.get(len(mine["cards"])) if move["kind"] == "play" else None
        body = {**move, "seat": seat, "version": table["version"], **({"call": call} if call else {})}
        position = made(api, f"/games/{game_id}/moves", body)["position"]
    raise AssertionError("the match did not end")


def finished_mao_match(api: httpx.Client) -> str:
    """A Mao match of three bots, judged by the server, played to its end by the server's embedded
    worker (a round a match; a drawn round is dealt again)."""
    options = {"rounds_to_win": 1}
    league = made(api, "/leagues", {"name": "Mao night", "ruleset": "mao", "options": options})["league_id"]
    match = made(api, "/mao-games", {"league_id": league, "seats": ["bot:random"] * 3, "judge": "server"})
    path, deadline = f"/mao-games/{match['game_id']}", time.monotonic() + 120
    while (phase := api.get(path).json()["phase"]) != "over":  # the server's worker plays the bots
        assert time.monotonic() < deadline, f"the match did not end: {phase}"
        if phase == "deal":
            made(api, f"{path}/deals", {})
        time.sleep(0.05)
    return str(match["game_id"])


def club(base: str) -> dict[str, list[str]]:
    """Players, a referee, a league, a game in play and a finished one: their ids, by kind."""
    with httpx.Client(base_url=base, headers=ADMIN) as api:
        ada = made(api, "/players", {"name": "Ada"})["player"]["player_id"]
        bob = made(api, "/players", {"name": "Bob"})["player"]["player_id"]
        rita = made(api, "/referees", {"name": "Rita"})["referee"]["referee_id"]
        league = made(api, "/leagues", {"name": "Thursday"})["league_id"]
        made(api, f"/leagues/{league}/members", {"player_id": ada})
        made(api, f"/leagues/{league}/members", {"player_id": bob})
        made(api, f"/leagues/{league}/referees", {"referee_id": rita})
        playing = made(api, "/games", {"seats": [ada, bob], "league_id": league})
        finished = made(
            api, "/games", {"seats": [ada, bob], "league_id": league, "options": {"single_round": True}}
        )
        play_to_the_end(api, finished, random.Random(1))
        spare = made(api, f"/players/{bob}/tokens")["credential_id"]
        mao = finished_mao_match(api)
    return {
        "games": [playing["game_id"], finished["game_id"]],
        "mao": [mao],
        "players": [ada, bob],
        "leagues": [league],
        "referees": [rita],
        "credentials": [spare],
    }


def config(ids: dict[str, list[str]]) -> str:
    """schemathesis.toml: the club's ids for the id parameters, most of the time."""
    lines = []
    for kind, values in ids.items():
        lines += [f"[dictionaries.{kind}]", f"values = {values!r}".replace("'", '"')]
    lines.append("[parameters]")
    bindings = {
        "path.game_id": "games",
        "path.player_id": "players",
        "path.league_id": "leagues",
        "path.referee_id": "referees",
        "path.credential_id": "credentials",
        "body.player_id": "players",
        "body.referee_id": "referees",
        "body.league_id": "leagues",
    }
    # A league's new member or referee is always one that exists: the stateful phase takes a 404 for an
    # unknown player or referee in the body, just after the league was made, for the league gone
    # (ST302); the e2e tests pin those 404s.
    always = {"body.player_id", "body.referee_id"}
    lines += [
        f'"{key}" = {{ dictionary = "{kind}", probability = {1.0 if key in always else 0.8} }}'
        for key, kind in bindings.items()
    ]
    # the streams of a game in play last until the game ends: they are streamed from the finished one
    for kind, finished in (("games", ids["games"][-1]), ("mao-games", ids["mao"][0])):
        for path in (f"/{kind}/{{game_id}}/stream", f"/{kind}/{{game_id}}/me/stream"):
            parameters = f'parameters = {{ game_id = "{finished}" }}'
            lines += ["[[operations]]", f'include-path = "{path}"', parameters]
    # Revoking a subject's tokens keeps them listed, each with its revocation time, so a stateful
    # chain that reads the list after the DELETE finds it (ST301) by design: the fuzzing phases still
    # send those DELETEs, the stateful phase does not chain them.
    for path in ("/players/{player_id}/tokens", "/referees/{referee_id}/tokens"):
        lines += [
            "[[operations]]",
            f'include-path = "{path}"',
            'include-method = "DELETE"',
            "phases.stateful.enabled = false",
        ]
    lines += [
        "[checks.positive_data_acceptance]",
        f"expected-statuses = {list(VALID_DATA_ANSWERS)!r}".replace("'", '"'),
    ]
    return "\n".join(lines) + "\n"


def test_the_openapi_document_validates(server):
    document = httpx.get(f"{server}/schema/openapi.json").json()
    validate(document)  # raises on any departure from OpenAPI 3.1
    assert document["openapi"].startswith("3.1")
    stream = document["paths"]["/games/{game_id}/stream"]["get"]["responses"]["200"]
    assert list(stream["content"]) == ["text/event-stream"]
    seat = document["components"]["schemas"]["Seat"]  # a replay's occupant, encoded as [kind, name]
    assert seat["type"] == "array" and len(seat["prefixItems"]) == 2
    # a bound of 0 is said, also of an optional value: a negative seat or version is a 400
    schemas = document["components"]["schemas"]
    assert (
        schemas["Play"]["properties"]["seat"]["minimum"]
        == schemas["ChallengeCreate"]["properties"]["version"]["minimum"]
        == 0
    )
    for path, name in (
        ("/games/{game_id}/me", "seat"),
        ("/games/{game_id}", "after"),
        ("/games/{game_id}/stream", "Last-Event-ID"),
    ):
        (parameter,) = [p for p in document["paths"][path]["get"]["parameters"] if p["name"] == name]
        assert parameter["schema"]["minimum"] == 0, (path, name)


@pytest.mark.timeout(600)
def test_schemathesis_finds_nothing_with_every_check_and_the_stateful_phase(server, tmp_path):
    (tmp_path / "schemathesis.toml").write_text(config(club(server)))
    run = subprocess.run(
        [
            BIN / "schemathesis",
            "--config-file",
            tmp_path / "schemathesis.toml",
            "run",
            f"{server}/schema/openapi.json",
            "--header",
            f"Authorization: {ADMIN['Authorization']}",
            "--checks",
            "all",
            "--phases",
            # the coverage phase (every boundary of every keyword) alone takes several minutes here
            "examples,fuzzing,stateful",
            "--max-examples",
            str(EXAMPLES_PER_OPERATION),
            "--seed",
            "20261130",
            "--generation-database",
            "none",
            "--request-timeout",
            "20",
            "--workers",
            "2",
            "--suppress-health-check",
            "all",
            "--no-color",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=540,
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, report[-6000:]
    assert "Tested: " in report and " passed" in report, report[-2000:]
