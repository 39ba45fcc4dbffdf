"""Seconds each test file took in a full run, for ``tests/conftest.py`` to deal the longest groups
out first (a long group dealt last keeps one process busy after the others have finished).

Refresh after a change of weight (a whole run, ``--durations=0`` lists every test's time)::

    ./run test --durations=0 > var/durations.log; .venv/bin/python tests/durations.py var/durations.log
"""

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

FILE = Path(__file__).with_name("durations.json")
LINE = re.compile(r"^([\d.]+)s (?:call|setup|teardown)\s+(tests/[^:@\s]+\.py)")


def read() -> dict[str, float]:
    found: dict[str, float] = json.loads(FILE.read_text()) if FILE.exists() else {}
    return found


def main(log: str) -> None:
    seconds: defaultdict[str, float] = defaultdict(float)
    for line in Path(log).read_text().splitlines():
        if found := LINE.match(line):
            seconds[found.group(2)] += float(found.group(1))
    kept = {name: round(value, 1) for name, value in sorted(seconds.items()) if Path(name).exists()}
    FILE.write_text(json.dumps(kept, indent=1) + "\n")
    print(f"{FILE}: {len(kept)} files, {sum(kept.values()):.0f} s")


if __name__ == "__main__":
    main(sys.argv[1])
