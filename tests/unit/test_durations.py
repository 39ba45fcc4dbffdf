"""The times the suite deals its groups by (tests/durations.json) name test files that exist."""

from pathlib import Path

from tests import durations

ROOT = Path(__file__).resolve().parents[2]


def test_every_timed_file_is_a_test_file_of_the_suite():
    timed = durations.read()
    assert len(timed) > 100
    assert all((ROOT / name).is_file() and Path(name).name.startswith("test_") for name in timed)
    assert all(seconds >= 0 for seconds in timed.values())
