"""Rule errors: every refusal the engine gives has a stable code, and the data its sentence names.

A refusal is ``RuleError(code, why=..., **data)``:

- ``code`` is stable: clients, the HTTP status (``service.usecases.refusals``) and the pages key on it;
- ``why`` picks one of the code's sentences when the code has several (``"forbidden"``: who may do
  what), and is left out when it has one;
- ``data`` are the values the sentence names (a seat, a card, a limit), never English words.

The sentences are one catalogue's (``service.domain.refusal_sentences``), keyed ``code`` or
``code.why``; each face renders the sentence in its reader's language (``RuleError.sentence``) and
``message`` is the English one: the API's detail, the command line's and the logs' words.
"""

from collections.abc import Callable
from typing import Any

from service.domain.refusal_sentences import english, sentence


class RuleError(Exception):
    """A command the rules refuse. `code` is stable; clients and the HTTP layer key on it."""

    def __init__(self, code: str, /, *, why: str = "", **data: Any) -> None:
        self.code = code
        self.why = why
        self.data = data
        super().__init__()

    @property
    def key(self) -> str:
        """The sentence's key in the catalogue."""
        return f"{self.code}.{self.why}" if self.why else self.code

    @property
    def message(self) -> str:
        return self.sentence(english)

    def sentence(self, translate: Callable[[str], str]) -> str:
        """The sentence in the translator's language, filled in with the data."""
        return sentence(self.key, self.data, translate)

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        # a copy or a pickle keeps the code, the why and the data (``args`` is empty)
        return (_rebuilt, (self.code, self.why, self.data))

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"


def _rebuilt(code: str, why: str, data: dict[str, Any]) -> RuleError:
    return RuleError(code, why=why, **data)
