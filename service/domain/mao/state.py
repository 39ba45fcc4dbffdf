"""The state of a Mao match: the fold of its events. Facts only, no rules."""

from typing import Any

from service.domain.mao.rule import Rule

NEW, DEAL, PLAY, RECYCLE, OVER = range(5)
PHASE_NAMES = ("new", "deal", "play", "recycle", "over")

# why a card is owed to a seat: its own draw, or a penalty
DRAWN, PENALTY = "draw", "penalty"


class Window:
    """The calls a play made due, open until the next player acts."""

    __slots__ = ("due", "said", "seat")

    def __init__(self, seat: int, due: tuple[str, ...], said: tuple[str, ...] = ()) -> None:
        self.seat = seat
        self.due = due
        self.said = said

    def missing(self) -> tuple[str, ...]:
        return tuple(words for words in self.due if words not in self.said)

    def facts(self) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
        return (self.seat, self.due, self.said)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Window) and self.facts() == other.facts()


class State:
    __slots__ = (
        "dealer",
        "discard",
        "hand_size",
        "hands",
        "in_force",
        "judge",
        "last_winner",
        "next_dealer",
        "owing",
        "paused_by",
        "penalties",
        "phase",
        "proposal",
        "revealed",
        "round_no",
        "rounds_to_win",
        "rule",
        "rule_round",
        "seats",
        "stock",
        "turn",
        "window",
        "winner",
        "wins",
    )

    hands: list[int]
    stock: list[int]  # top last
    discard: list[int]  # top last
    in_force: tuple[int, ...]  # the rule's play clauses in force (indexes)
    owing: list[tuple[int, str]]  # cards owed, oldest first: (seat, DRAWN or PENALTY)
    penalties: list[tuple[int, str]]  # this round's penalties: (seat, reason)
    window: Window | None
    rule: Rule | None
    proposal: tuple[int, Rule] | None
    revealed: str | None  # the text of the last rule revealed
    wins: list[int]  # per seat, the rounds won

    def __init__(self) -> None:
        self.phase = NEW
        self.seats = 0
        self.hand_size = 0
        self.rounds_to_win = 0
        self.judge = ""
        self.dealer = -1
        self.next_dealer = -1
        self.turn = -1
        self.hands = []
        self.stock = []
        self.discard = []
        self.in_force = ()
        self.owing = []
        self.penalties = []
        self.window = None
        self.paused_by = -1
        self.rule = None
        self.rule_round = 0  # the round the rule was written for
        self.revealed = None  # the text of the last rule revealed
        self.proposal = None
        self.round_no = 0
        self.wins = []
        self.last_winner = -1  # the last round's winner, -1 after a drawn round
        self.winner = -1  # the match's

    @property
    def top(self) -> int:
        return self.discard[-1]

    def copy(self) -> "State":
        twin = State()
        for name in self.__slots__:
            value = getattr(self, name)
            setattr(twin, name, value.copy() if isinstance(value, list) else value)
        if self.window is not None:
            twin.window = Window(*self.window.facts())
        return twin

    def owed(self, seat: int) -> int:
        """Penalty cards the seat is owed that the stock has not given yet."""
        return sum(1 for owner, why in self.owing if owner == seat and why == PENALTY)

    def facts(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.facts() == other.facts()
