"""Commands to a Mao table: what a seat, the judge or chance asks. Imperative names."""

import msgspec

from service.domain.mao.rule import TEACHING_TEXT

SERVER, REFEREE = "server", "referee"  # who judges: the server alone, or a human referee with it
# what talk during a procedural pause may be about (mao.md section 3): never the secret rule
ORDER, SAFETY = "order", "safety"
PAUSE_TOPICS = (ORDER, SAFETY)


class BaseCommand(msgspec.Struct, frozen=True, tag=True):
    pass


class StartMatch(BaseCommand, frozen=True):
    seats: int
    first_dealer: int  # chance: drawn outside
    hand_size: int = 5
    rounds_to_win: int = 3
    secret_rule: str = TEACHING_TEXT  # the first round's rule
    judge: str = SERVER


class WriteRule(BaseCommand, frozen=True):
    """The judge writes the next round's secret rule (before its deal)."""

    text: str


class DealRound(BaseCommand, frozen=True):
    deck: tuple[int, ...]  # chance: the shuffled deck, first card dealt first


class PlayCard(BaseCommand, frozen=True):
    seat: int
    card: int
    says: tuple[str, ...] = ()  # what the player says right after the play, in order


class DrawCard(BaseCommand, frozen=True):
    seat: int


class Say(BaseCommand, frozen=True):
    seat: int
    words: str
    # said during a pause, and about the turn order or safety: allowed there, never penalised
    about: str = ""


class CallPause(BaseCommand, frozen=True):
    seat: int


class EndPause(BaseCommand, frozen=True):
    seat: int


class RecycleStock(BaseCommand, frozen=True):
    order: tuple[int, ...]  # chance: the discards under the top card, shuffled, top first


class ProposeRule(BaseCommand, frozen=True):
    """The last round's winner proposes the next round's rule."""

    seat: int
    text: str


class ApproveRule(BaseCommand, frozen=True):
    pass


class RefuseRule(BaseCommand, frozen=True):
    pass


# every command a Mao table decides: ``decide`` has a case for each, so a command added here
# without its case fails the type check
Command = (
    StartMatch
    | WriteRule
    | DealRound
    | PlayCard
    | DrawCard
    | Say
    | CallPause
    | EndPause
    | RecycleStock
    | ProposeRule
    | ApproveRule
    | RefuseRule
)
