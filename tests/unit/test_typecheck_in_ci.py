"""``.ci/run`` runs ``./run typecheck`` (mypy, then ruff check) first and fails when it fails.

Each test runs copies of the two scripts beside a made-up ``.venv`` whose tools only note that
they ran and exit as told, so nothing is installed and no service is started.
"""

import hashlib
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _checkout(tmp_path: Path, mypy_exit: int, ruff_exit: int) -> Path:
    """A copy of ``run`` and ``.ci/run`` with a ``.venv`` already in step with pyproject.toml."""
    shutil.copy(ROOT / "run", tmp_path / "run")
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for tool, status in (("python", 0), ("mypy", mypy_exit), ("ruff", ruff_exit)):
        script = bin_dir / tool
        script.write_text(f'#!/bin/sh\necho "{tool} $*" >> {tmp_path / "ran"}\nexit {status}\n')
        script.chmod(0o755)
    digest = hashlib.sha256((tmp_path / "pyproject.toml").read_bytes()).hexdigest()[:16]
    (tmp_path / ".venv" / ".installed").write_text(f"dev,bench {digest}\n")
    return tmp_path


def _ran(checkout: Path) -> list[str]:
    ran = checkout / "ran"
    return ran.read_text().splitlines() if ran.exists() else []


def test_a_failing_type_check_fails_ci_before_any_service_or_test_is_started(tmp_path):
    checkout = _checkout(tmp_path, mypy_exit=1, ruff_exit=0)
    done = subprocess.run([str(checkout / ".ci" / "run")], capture_output=True, text=True, timeout=30)
    assert done.returncode == 1
    assert "FAILED: the type check" in done.stderr
    assert "PostgreSQL" not in done.stderr
    assert _ran(checkout) == ["mypy "]


def test_the_type_check_runs_ruff_once_mypy_passes_and_fails_with_it(tmp_path):
    checkout = _checkout(tmp_path, mypy_exit=0, ruff_exit=1)
    done = subprocess.run([str(checkout / "run"), "typecheck"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 1
    assert _ran(checkout) == ["mypy ", "ruff check ."]


def test_the_type_check_passes_when_mypy_and_ruff_both_pass(tmp_path):
    checkout = _checkout(tmp_path, mypy_exit=0, ruff_exit=0)
    done = subprocess.run([str(checkout / "run"), "typecheck"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0
    assert _ran(checkout) == ["mypy ", "ruff check ."]
