"""Commands to a Mao table: what a seat, the judge or chance asks. Imperative names."""

import msgspec

from service.domain.mao.rule import TEACHING_TEXT

SERVER, REFEREE = "server", "referee"  # who judges: the server alone, or a human referee with it


class Command(msgspec.Struct, frozen=True, tag=True):
    pass


class StartMatch(Command, frozen=True):
    seats: int
    first_dealer: int  # chance: drawn outside
    hand_size: int = 5
    rounds_to_win: int = 3
    secret_rule: str = TEACHING_TEXT  # the first round's rule
    judge: str = SERVER


class WriteRule(Command, frozen=True):
    """The judge writes the next round's secret rule (before its deal)."""

    text: str


class DealRound(Command, frozen=True):
    deck: tuple[int, ...]  # chance: the shuffled deck, first card dealt first


class PlayCard(Command, frozen=True):
    seat: int
    card: int
    says: tuple[str, ...] = ()  # what the player says right after the play, in order


class DrawCard(Command, frozen=True):
    seat: int


class Say(Command, frozen=True):
    seat: int
    words: str


class CallPause(Command, frozen=True):
    seat: int


class EndPause(Command, frozen=True):
    seat: int


class RecycleStock(Command, frozen=True):
    order: tuple[int, ...]  # chance: the discards under the top card, shuffled, top first


class ProposeRule(Command, frozen=True):
    """The last round's winner proposes the next round's rule."""

    seat: int
    text: str


class ApproveRule(Command, frozen=True):
    pass


class RefuseRule(Command, frozen=True):
    pass
