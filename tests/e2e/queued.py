"""The tasks the API queued, read off the session's real (filesystem) broker folder.

Each message is a file ``<stamp>_<uuid>.<queue>.msg`` holding kombu's JSON
envelope; its body is Celery's ``[args, kwargs, embed]``, base64-encoded.
``take`` removes what it reads, as a worker would, so each call returns what
was queued since the last.
"""

import base64
import json
from pathlib import Path
from typing import Any

KINDS = {"maumau.advance_game": "game", "maumau.conduct_tournament": "tournament"}


class Queued:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def take(self) -> list[tuple[str, tuple[Any, ...]]]:
        """(task name, args) of every message queued since the last take, oldest first."""
        found = []
        for path in sorted(self.folder.glob("*.msg"), key=lambda p: int(p.name.split("_", 1)[0])):
            envelope = json.loads(path.read_text())
            args, _kwargs, _embed = json.loads(base64.b64decode(envelope["body"]))
            found.append((envelope["headers"]["task"], tuple(args)))
            path.unlink()
        return found

    def take_ids(self) -> list[tuple[str, str]]:
        """Like ``take``, as ("game" | "tournament", id) pairs."""
        return [(KINDS[task], str(args[0])) for task, args in self.take()]
