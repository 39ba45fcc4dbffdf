"""The one rule for a name a person reads: a player's, league's, tournament's or referee's.

A name is taken in Unicode NFC with its surrounding white space trimmed, and
holds 1 to ``MAX_NAME`` characters, none of them a control, format (bidi
overrides, zero-width joiners and spaces), surrogate, private-use or
unassigned character, nor a line or paragraph separator: such characters make
two different names look alike, or reorder the text around a name
(``"\\u202eAdmin\\u200b"`` shows as another name). Refused: ``malformed_name``.

Commands are checked, never stored events: a name stored before these rules
stays as it was.

Two members of one league may not share a display name; ``display_key`` says
when two names would read as the same one (case and compatibility forms
aside: ``"ADA"``, ``"ada"`` and a full-width ``"Ａｄａ"`` are one name).
"""

import unicodedata
from collections.abc import Iterable

from service.domain.errors import RuleError
from service.domain.name_chars import SPACES, VISIBLE

MAX_NAME = 64
# Unicode general categories a name may not hold: Cc control, Cf format, Cs surrogate, Co private use,
# Cn unassigned, Zl line separator, Zp paragraph separator.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _char_class(ranges: tuple[tuple[int, int], ...]) -> str:
    def literal(code: int) -> str:
        char = chr(code)
        return "\\" + char if char in "\\]^-[" else char

    return "[" + "".join(literal(a) if a == b else f"{literal(a)}-{literal(b)}" for a, b in ranges) + "]"


# The rules above as a regular expression (ECMA 262 and Python alike: literal characters in classes),
# for the OpenAPI document: some visible characters, spaces between and around them.
NAME_PATTERN = f"^(?:{_char_class(SPACES)}*{_char_class(VISIBLE)})+{_char_class(SPACES)}*$"


def checked_name(name: object, what: str) -> str:
    """``name`` as it is stored: NFC, trimmed; ``malformed_name`` when it breaks the rules."""
    if not isinstance(name, str):
        raise RuleError("malformed_name", why="text", what=what)
    for char in name:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            raise RuleError("malformed_name", why="character", what=what, codepoint=ord(char))
    name = unicodedata.normalize("NFC", name).strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise RuleError("malformed_name", why="length", what=what, max_name=MAX_NAME)
    return name


def display_key(name: str) -> str:
    """What two names are compared by when they must differ: compatibility forms folded, case ignored."""
    return unicodedata.normalize("NFKC", name).casefold()


def refuse_taken(name: str, others: Iterable[str], where: str) -> None:
    """``name_taken`` when ``name`` reads as one of ``others`` (the names it must differ from)."""
    key = display_key(name)
    if any(display_key(other) == key for other in others):
        raise RuleError("name_taken", where=where, name=name)
