"""``./run``, the project's entry point: what it refuses before it installs anything."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("args", [["bench"], ["bench", "no-such-bench"]])
def test_bench_without_a_known_name_says_so_before_installing_anything(tmp_path, args):
    # a copy of the script beside the real bench/ names, with a python that notes any call to it
    shutil.copy(ROOT / "run", tmp_path / "run")
    shutil.copytree(ROOT / "bench", tmp_path / "bench")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    called = tmp_path / "python-called"
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\necho "$@" >> {called}\nexit 1\n')
    python.chmod(0o755)
    done = subprocess.run(
        [str(tmp_path / "run"), *args],
        env={**os.environ, "PYTHON": str(python)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert "needs the name of a benchmark" in done.stderr and "engine" in done.stderr
    assert not called.exists() and not (tmp_path / ".venv").exists()


def noting_python(tmp_path: Path, note: str) -> Path:
    """A copy of the script with a python that appends ``note`` (expanded by the shell) to a file at
    each call and, asked for a venv, makes one whose python is itself; the file."""
    shutil.copy(ROOT / "run", tmp_path / "run")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    notes = tmp_path / "notes"
    python = tmp_path / "python"
    python.write_text(
        f'#!/bin/sh\necho "{note}" >> {notes}\n'
        'if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; fi\n'
    )
    python.chmod(0o755)
    return notes


def test_test_installs_the_bench_extra_beside_dev_so_the_suite_can_run_every_bench(tmp_path):
    called = noting_python(tmp_path, "$@")
    done = subprocess.run(
        [str(tmp_path / "run"), "test", "-q"],
        env={**os.environ, "PYTHON": str(tmp_path / "python")},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    calls = called.read_text().splitlines()
    assert "-m pip install -q --no-compile -e .[dev,bench]" in calls
    assert calls[-1] == "-m pytest -n auto --dist loadgroup --no-loadscope-reorder -q"


def test_every_command_writes_bytecode_even_where_the_environment_says_not_to(tmp_path):
    # the install compiles nothing: a module is compiled when first imported, once, into the cache
    said = noting_python(tmp_path, "${PYTHONDONTWRITEBYTECODE:-unset}")
    for command in ("typecheck", "test"):  # the type check stops at mypy, missing here: its install ran
        subprocess.run(
            [str(tmp_path / "run"), command],
            env={**os.environ, "PYTHON": str(tmp_path / "python"), "PYTHONDONTWRITEBYTECODE": "1"},
            capture_output=True,
            timeout=30,
        )
    lines = said.read_text().split()
    assert len(lines) >= 4 and set(lines) == {"unset"}
