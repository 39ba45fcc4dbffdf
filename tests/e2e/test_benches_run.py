"""Every bench in bench/ still runs: a tiny run of each (seconds, small sizes through its own flags),
as ``./run bench NAME`` starts it, prints every one of its ``target`` lines. Met or missed is not
checked: a run this small measures nothing; it fails when a change elsewhere breaks the bench."""

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.environment import without_settings

ROOT = Path(__file__).resolve().parents[2]
TARGET = re.compile(r"^target (\w+) measured=(-?[0-9.]+) goal=(?:<=|>=)[0-9.]+ (?:met|missed)$")


class Smoke(NamedTuple):
    args: str  # the bench's own flags, small
    targets: frozenset[str]
    database: bool = True  # the bench takes --url (PostgreSQL)
    figures: tuple[str, ...] = ()  # lines a bench without targets prints, by their start


SMOKES = {
    "engine": Smoke(
        "--seconds 0.2 --slices 1 --presets",
        frozenset({"engine_vs_openspiel", "engine_slowest_preset_vs_club"}),
        database=False,
    ),
    "http": Smoke(
        "--seconds 0.3 --slices 1 --games 2 --open-seconds 1 --open-games 2 --workers 1",
        frozenset(
            {
                "http_moves_vs_write_floor",
                "http_move_p99_ms_at_half_load",
                "http_view_push_p99_ms_at_half_load",
            }
        ),
    ),
    "http_path": Smoke(
        "--requests 20 --rounds 1",
        frozenset(),
        figures=("GET /health ", "POST /bench/floor ", "POST /bench/floor refused "),
    ),
    "mao_learning": Smoke("--games 2", frozenset({"mao_learning_penalties"}), database=False),
    "pages": Smoke(
        "--members 8 --entrants 8 --rounds 1 --seconds 0.2 --slices 1 --loops 1 --workers 1",
        frozenset({"pages_standings_vs_json", "pages_tournament_vs_json"}),
    ),
    # boardgame.io's side too: its node packages installed once into a cache kept between runs
    "peers": Smoke(
        "--seconds 1 --warmup 0.5 --rounds 1 --matches 2 --workers 1",
        frozenset({"moves_vs_boardgameio_inmemory", "moves_vs_boardgameio_postgres"}),
        figures=("how far moves_vs_boardgameio_inmemory: ", "how far moves_vs_boardgameio_postgres: "),
    ),
    "projections": Smoke(
        "--events 1000 --slices 1 --seconds 1 --writers 1", frozenset({"rebuild_vs_raw_read", "lag_p99_ms"})
    ),
    # the embedded default (SQLite), as the bench runs without --url
    "ratings": Smoke("--matches 40 --slices 1", frozenset({"ratings_rebuild_vs_direct"}), database=False),
    "socket": Smoke("--seconds 0.3 --slices 1 --games 2 --workers 1", frozenset({"moves_socket_vs_post"})),
    "store": Smoke(
        "--seconds 0.2 --slices 1 --writers 8", frozenset({"store_8_writers_vs_raw", "rebuild_any_event_ms"})
    ),
    "tournament": Smoke("--players 4 --rounds 1", frozenset({"tournament_celery_vs_direct"})),
}


def test_every_bench_has_a_smoke_run():
    assert sorted(path.stem for path in (ROOT / "bench").glob("*.py")) == sorted(SMOKES)


def test_every_bench_that_imports_the_bench_package_puts_the_repository_on_its_path_first():
    # the tiny runs below set PYTHONPATH (this checkout's code); ./run bench does not, and -P keeps
    # bench/ off the path: a bench importing `bench.` without the line fails there alone
    needs = "sys.path.append(str(Path(__file__).resolve().parent.parent))"
    for path in sorted((ROOT / "bench").glob("*.py")):
        text = path.read_text()
        imports = text.find("\nfrom bench.")
        if imports >= 0:
            assert (
                0 <= text.find(needs) < imports
                or 0 <= text.find(needs.replace("append(", "insert(0, ")) < imports
            ), f"{path.name} imports bench before putting the repository on sys.path"


@pytest.mark.parametrize("name", sorted(SMOKES))
def test_a_tiny_run_of_the_bench_prints_its_targets(name, request):
    smoke = SMOKES[name]
    if (
        name == "peers"
    ):  # not skipped where they are missing: CI has them, and a bench unrun is a bench unchecked
        missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
        assert not missing, (
            f"bench/peers.py needs {' and '.join(missing)} on the PATH (the peer is boardgame.io)"
        )
    args = smoke.args.split()
    if smoke.database:
        args += ["--url", request.getfixturevalue("database_url")]
    if name == "tournament":
        args += ["--broker", request.getfixturevalue("broker_url")]
    # as ./run bench starts it (-P: bench/ off the path), on this checkout's code
    done = subprocess.run(
        [sys.executable, "-P", f"bench/{name}.py", *args],
        cwd=ROOT,
        env=without_settings(PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = done.stdout.splitlines()
    found = [TARGET.match(line) for line in lines if line.startswith("target ")]
    assert all(found), done.stdout
    assert {match.group(1) for match in found if match} == smoke.targets, done.stdout
    for figure in smoke.figures:
        assert any(line.startswith(figure) for line in lines), done.stdout
