"""The referee's replay: each event in order, and for each penalty why it was given.

For a returned play: the card, the top card it was played on, the clauses in force and the
rule, so a referee can check the judge's short reason; for a missed call or an extra
utterance, the words.
"""

import msgspec

from service.domain.cards import format_card
from service.domain.mao.events import CallMissed, Event, PenaltyGiven, PlayCancelled, PlayReturned, Spoke
from service.domain.mao.rule import Rule, format_rule
from service.domain.mao.state import State
from service.domain.mao.views import PENALTY_TEXT, clauses_text


class Why(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    reason: str
    text: str  # the judge's short words
    card: str | None = None  # the card played, for a returned or cancelled play
    top: str | None = None  # the top card it was played on
    in_force: list[str] = []  # the clauses in force then
    rule: str | None = None
    words: str | None = None  # what was missed or said


class Step(msgspec.Struct, frozen=True, kw_only=True):
    number: int  # 1 for the first event
    type: str
    why: Why | None = None


def referee_replay(events: list[Event]) -> list[Step]:
    s = State()
    steps: list[Step] = []
    cause: Why | None = None
    for number, event in enumerate(events, 1):
        why = None
        match event:
            case PlayReturned() | PlayCancelled():
                cause = _play_cause(s, event)
            case CallMissed() | Spoke():
                cause = Why(seat=event.seat, reason="", text="", words=event.words)
            case PenaltyGiven():
                # each penalty follows the fact that caused it: a kind that may cause one has a case above
                assert cause is not None, f"no cause before the penalty of event {number}"
                why = msgspec.structs.replace(cause, reason=event.reason, text=PENALTY_TEXT[event.reason])
                cause = None
            case _:
                pass  # no penalty's cause
        steps.append(Step(number=number, type=type(event).__name__, why=why))
        event.apply(s)
    return steps


def _play_cause(s: State, event: PlayReturned | PlayCancelled) -> Why:
    rule = s.rule or Rule()
    return Why(
        seat=event.seat,
        reason="",
        text="",
        card=format_card(event.card),
        top=format_card(s.top),
        in_force=clauses_text(rule, s.in_force),
        rule=format_rule(rule),
    )
