"""The bodies and answers of ``/mao-games`` (msgspec Structs; the views are the domain's own)."""

from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec

from service.domain.mao.aggregate import MaoGame
from service.domain.mao.game import MAX_UTTERANCE
from service.domain.mao.replay import Step
from service.domain.mao.rule import MAX_CLAUSES, TEACHING_TEXT
from service.domain.mao.state import PHASE_NAMES
from service.domain.mao.views import Penalty, player_view
from service.http.pages import Next
from service.http.params import GAME_ID
from service.projections.models import ListedMaoMatch
from service.usecases.mao import Judge

SeatNo = (
    Annotated[int, msgspec.Meta(ge=0, description="officials only: the seat the act is for; players omit it")]
    | None
)
RuleText = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=MAX_CLAUSES * 80,  # room for the most clauses a rule may have
        examples=[TEACHING_TEXT],
        description="clauses joined by '; ': 'after <trigger>: next [not] <values>' or "
        "'on <trigger>: say \"<words>\"' (docs/rules/mao.md); 422 malformed_rule, rule_incompatible",
    ),
]
Words = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=MAX_UTTERANCE,
        examples=["mao"],
        description="what the player says: a call ('mao', 'seven of spades', the rule's own words) "
        "or table talk, which the judge penalises",
    ),
]
# Mao is played with one deck of 52: no jokers, no second deck's cards
MAO_CARD_PATTERN = r"^(?:[2-9]|10|[JQKAjqka])[CDHScdhs]$"
Card = Annotated[
    str,
    msgspec.Meta(
        max_length=3,
        examples=["QH"],
        pattern=MAO_CARD_PATTERN,
        description="rank then suit: 10H, QS, 7D",
    ),
]


class MaoGameRead(msgspec.Struct, frozen=True, kw_only=True):
    """The public part of a match: what is on the table, never a hand nor the rule before its reveal."""

    game_id: Annotated[UUID, msgspec.Meta(examples=[GAME_ID])]
    league_id: UUID
    seats: list[str]
    judge: Judge
    judge_seat: int | None
    version: int
    phase: str  # new, deal, play, recycle, over
    round_no: int
    dealer: int
    turn: int
    cards: list[int]
    owed: list[int]
    top: str | None
    discard: list[str]
    stock: int
    paused_by: int | None
    penalties: list[Penalty]
    wins: list[int]
    revealed_rule: str | None
    winner: int | None


def game_read(game: MaoGame) -> MaoGameRead:
    view = player_view(game.state, 0)
    return MaoGameRead(
        game_id=game.id,
        league_id=game.league_id,
        seats=list(game.seats),
        judge=game.judge,  # type: ignore[arg-type]
        judge_seat=game.judge_seat,
        version=game.version,
        phase=PHASE_NAMES[game.state.phase],
        round_no=view.round_no,
        dealer=view.dealer,
        turn=view.turn,
        cards=view.cards,
        owed=view.owed,
        top=view.top,
        discard=view.discard,
        stock=view.stock,
        paused_by=view.paused_by,
        penalties=view.penalties,
        wins=view.wins,
        revealed_rule=view.revealed_rule,
        winner=view.winner,
    )


class PlayCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    card: Card
    # items unconstrained here (the document would not show it): the judge refuses a bad one (422)
    says: Annotated[
        list[str],
        msgspec.Meta(
            max_length=8,
            examples=[["mao"]],
            description=f"what the player says right after the play, in order: 1 to {MAX_UTTERANCE} "
            "characters each (422 malformed_utterance)",
        ),
    ] = msgspec.field(default_factory=list)
    seat: SeatNo = None


class SeatCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    seat: SeatNo = None


class UtteranceCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    words: Words
    about: (
        Annotated[
            Literal["order", "safety"],
            msgspec.Meta(
                description="during a procedural pause, the only talk allowed: about the turn order or "
                "safety, never the secret rule; stored as said, shown to all, never penalised (409 "
                "not_paused outside a pause). Left out, the words are a call or table talk, and a pause "
                "refuses them (409 game_paused)",
            ),
        ]
        | None
    ) = None
    seat: SeatNo = None


class DealCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    deck: (
        Annotated[
            list[str],
            msgspec.Meta(
                max_length=52,
                description="officials only: the 52 cards in the order dealt (a real deck at a real table), "
                "each as 10H, QS, 7D; left out, the server shuffles (422 invalid_deck)",
            ),
        ]
        | None
    ) = None


class RuleCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    text: RuleText


class ProposalCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    text: RuleText
    seat: SeatNo = None


class MaoLogRead(msgspec.Struct, frozen=True, kw_only=True):
    game_id: UUID
    version: int
    events: list[dict[str, Any]]  # each as the asker may see it, with its number (1 first)


class MaoReplayRead(msgspec.Struct, frozen=True, kw_only=True):
    game_id: UUID
    steps: list[Step]


class MaoGameListRead(msgspec.Struct, frozen=True, kw_only=True):
    items: list[ListedMaoMatch]  # the newest first
    next: Next
    position: int
