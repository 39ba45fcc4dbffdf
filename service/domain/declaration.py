"""What an event declares beside its class (``declaration``): what each sight keeps of its entry, the
record line it makes, and its words on the pages.

The words are English messages with values to fill in (``{who}``: the seat's player, ``{next}``: the
seat to move, ``{other}``: the seat chosen, ``{number}``: the round, ``{count}``: the cards); the pages
translate them with their catalogues, which find the literal ``words=`` and ``official=`` of each
``Declaration(...)`` in the event modules (``service.web.messages``). An event whose sentence names
cards or says more declares none and is told in ``service/web/words.py``.
"""

from dataclasses import dataclass

from service.domain.record_lines import LineOf
from service.domain.sight import Shown


@dataclass(frozen=True, slots=True)
class Shows:
    """What an event of every game kind declares: what each sight keeps of its entry. A kind with no
    record nor pages yet (Mao: ``mao.events``) declares only this."""

    shown: Shown  # (``sight``, read by ``redaction``; Mao's: ``mao.sight``, read by ``mao.redaction``)


@dataclass(frozen=True, slots=True)
class Declaration(Shows):
    line: LineOf  # its record line (``record_lines``, read by ``record_of``)
    words: str | None = None  # the sentence anyone reads; None: told by the pages, or not at all
    official: str | None = None  # the sentence an official reads, when not ``words``
