"""What the judge and each player see of a Mao table, as observer functions of the state.

``judge_view``: everything, the rule and the clauses in force included. ``player_view``:
one seat's hand, the others' counts, the table and the penalties with their short reasons;
the rule only once revealed, never the clauses in force nor the calls a play made due (they
would tell the rule).
"""

import msgspec

from service.domain.cards import format_card, format_cards
from service.domain.mao.judge import REASONS
from service.domain.mao.rule import Rule, format_rule
from service.domain.mao.state import PHASE_NAMES, State

# The judge's short words for every penalty: never the rule itself.
PENALTY_TEXT: dict[str, str] = REASONS | {
    "out_of_turn": "out of turn",
    "missed_call": "missed call",
    "extra_utterance": "talking",
}


class Penalty(msgspec.Struct, frozen=True):
    seat: int
    reason: str  # the code
    text: str  # the judge's short words


class PlayerView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    phase: str
    round_no: int
    dealer: int
    turn: int
    hand: list[str]
    cards: list[int]  # per seat
    owed: list[int]  # penalty cards owed per seat, not yet given
    top: str | None
    discard: list[str]  # bottom first: every card in it was played (or is the starter)
    stock: int
    paused_by: int | None
    penalties: list[Penalty]  # this round's
    wins: list[int]
    revealed_rule: str | None  # the last rule revealed at a round's end
    my_proposal: str | None  # the rule this seat proposed, while the judge considers it
    winner: int | None


class Calls(msgspec.Struct, frozen=True):
    seat: int
    due: list[str]
    said: list[str]


class JudgeView(msgspec.Struct, frozen=True, kw_only=True):
    phase: str
    round_no: int
    dealer: int
    turn: int
    judge: str
    rule: str | None
    rule_round: int
    in_force: list[str]  # the play clauses now in force, as text
    hands: list[list[str]]
    owed: list[int]
    top: str | None
    discard: list[str]
    stock: list[str]  # the top of the stock first
    calls: Calls | None  # the calls of the last play, while the next player has not acted
    paused_by: int | None
    penalties: list[Penalty]
    wins: list[int]
    proposal: str | None
    proposer: int | None
    winner: int | None


def _penalties(s: State) -> list[Penalty]:
    return [Penalty(seat, reason, PENALTY_TEXT[reason]) for seat, reason in s.penalties]


def clauses_text(rule: Rule | None, in_force: tuple[int, ...]) -> list[str]:
    """The play clauses in force, each as the text of a rule of its own."""
    if rule is None:
        return []
    return [format_rule(Rule(plays=(rule.plays[i],))) for i in in_force]


def _or_none(value: int) -> int | None:
    return value if value >= 0 else None


def player_view(s: State, seat: int) -> PlayerView:
    proposal = s.proposal
    return PlayerView(
        seat=seat,
        phase=PHASE_NAMES[s.phase],
        round_no=s.round_no,
        dealer=s.dealer,
        turn=s.turn,
        hand=format_cards(s.hands[seat]) if s.hands else [],
        cards=[hand.bit_count() for hand in s.hands],
        owed=[s.owed(other) for other in range(s.seats)],
        top=format_card(s.top) if s.discard else None,
        discard=format_cards(s.discard),
        stock=len(s.stock),
        paused_by=_or_none(s.paused_by),
        penalties=_penalties(s),
        wins=list(s.wins),
        revealed_rule=s.revealed,
        my_proposal=format_rule(proposal[1]) if proposal is not None and proposal[0] == seat else None,
        winner=_or_none(s.winner),
    )


def judge_view(s: State) -> JudgeView:
    window, proposal = s.window, s.proposal
    return JudgeView(
        phase=PHASE_NAMES[s.phase],
        round_no=s.round_no,
        dealer=s.dealer,
        turn=s.turn,
        judge=s.judge,
        rule=format_rule(s.rule) if s.rule is not None else None,
        rule_round=s.rule_round,
        in_force=clauses_text(s.rule, s.in_force),
        hands=[format_cards(hand) for hand in s.hands],
        owed=[s.owed(seat) for seat in range(s.seats)],
        top=format_card(s.top) if s.discard else None,
        discard=format_cards(s.discard),
        stock=format_cards(reversed(s.stock)),
        calls=Calls(window.seat, list(window.due), list(window.said)) if window is not None else None,
        paused_by=_or_none(s.paused_by),
        penalties=_penalties(s),
        wins=list(s.wins),
        proposal=format_rule(proposal[1]) if proposal is not None else None,
        proposer=proposal[0] if proposal is not None else None,
        winner=_or_none(s.winner),
    )
