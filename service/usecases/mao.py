"""Mao matches: made in a Mao league by an admin or its referees; every act at the table (a seat's
play, draw, words, pause, proposal; the judge's rule, deal, approval, refusal) through the
application, answered as the asker may see it. Who may: ``service.usecases.mao_policy``.
"""

import hashlib
import random
from collections.abc import Callable
from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec

from service.application.mao import shuffled_deck
from service.domain.cards import FULL_DECK, format_card
from service.domain.errors import RuleError
from service.domain.mao.aggregate import MaoGame
from service.domain.mao.commands import Command, DealRound
from service.domain.mao.events import CardPlayed, PlayCancelled, PlayReturned
from service.domain.mao.game import MAX_SEATS, MIN_SEATS
from service.domain.mao.redaction import redact_all
from service.domain.mao.views import PENALTY_TEXT
from service.domain.roles import Actor
from service.projections.mao import LISTED
from service.usecases import mao_policy
from service.usecases.context import Context, scoped_key, write, write_when
from service.usecases.fields import LEAGUE_ID, PLAYER_ID

Judge = Annotated[
    Literal["server", "referee"],
    msgspec.Meta(description="who judges: the server alone, or the league's referees (a human judge)"),
]
SeatName = Annotated[
    str,
    msgspec.Meta(
        examples=[PLAYER_ID, "bot:learning"],
        description="a member's player id, or a bot: bot:learning (learns the rule from the penalties) "
        "or bot:random",
    ),
]


class MaoGameCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    league_id: Annotated[UUID, msgspec.Meta(examples=[LEAGUE_ID])]
    seats: Annotated[
        list[SeatName],
        msgspec.Meta(description=f"{MIN_SEATS} to {MAX_SEATS} seats (422 player_count)", max_length=16),
    ]
    judge: Judge = "referee"
    judge_seat: (
        Annotated[
            int,
            msgspec.Meta(
                ge=0,
                description="with a human judge: the seat of a player who judges too (a judge who plays): "
                "writes and answers the rules and deals, sees no hand but their own",
            ),
        ]
        | None
    ) = None
    first_dealer: (
        Annotated[int, msgspec.Meta(ge=0, description="the first round's dealer; drawn when left out")] | None
    ) = None


class MaoActRead(msgspec.Struct, frozen=True, kw_only=True):
    """What an act stored (and a recycle of the stock after it), as the asker may see it; the bots'
    turns after it are the workers' (``followups``)."""

    game_id: UUID
    version: int
    play: Literal["accepted", "returned", "cancelled"] | None = None  # for a play
    reason: str | None = None  # the judge's short words for a returned or cancelled play
    events: list[dict[str, Any]]


def check_creator(context: Context, actor: Actor, data: MaoGameCreate) -> None:
    """An admin, or a referee of the league."""
    if actor.role == "admin":
        return
    league = context.app.get_league(data.league_id)
    if actor.role != "referee" or actor.id not in league.referees:
        raise RuleError("forbidden", why="mao_matches")


@write  # the league's list of matches shows it
def create_match(context: Context, actor: Actor, data: MaoGameCreate) -> MaoGame:
    check_creator(context, actor, data)
    return context.app.create_mao_game(
        data.league_id, data.seats, data.judge, data.first_dealer, data.judge_seat
    )


_OUT_OF_TURN = "out_of_turn"
_LISTED_TYPES = frozenset(kind.__name__ for kind in LISTED)


def changed_list(result: MaoActRead) -> bool:
    """Whether an act dealt or ended a round (or the match): the list of matches and the standings
    show it; the rest changes only the match's own reads, read from the store."""
    return any(event["type"] in _LISTED_TYPES for event in result.events)


@write_when(changed_list)
def act(
    context: Context,
    actor: Actor,
    game_id: UUID,
    command_of: Callable[[MaoGame, random.Random], Command],
    is_play: bool = False,
    key: str | None = None,
    request: tuple[Any, ...] = (),
) -> MaoActRead:
    """Decide what ``command_of`` makes of the match as stored (it checks who asks first); for a
    play, say whether the judge accepted it (a bot's play after it is not this one).

    With an idempotency ``key``, the same ``request`` (the route's name and body) sent again is
    answered with what the first did, and the key sent with another request is refused."""
    scoped = scoped_key(actor, key)
    digest = hashlib.sha256(msgspec.json.encode(request)).hexdigest()[:16]
    # a request answered again: its facts are where they were recorded, not the last ones
    game, events, first = context.app.mao_do(game_id, command_of, actor, scoped, digest)
    shown = redact_all(game.facts, mao_policy.viewer(context, actor, game))
    play: Literal["accepted", "returned", "cancelled"] | None = None
    reason: str | None = None
    for event in events if is_play else ():
        if isinstance(event, CardPlayed):
            play = "accepted"
        elif isinstance(event, PlayReturned):
            play, reason = "returned", PENALTY_TEXT[event.reason]
        elif isinstance(event, PlayCancelled):
            play, reason = "cancelled", PENALTY_TEXT[_OUT_OF_TURN]
        else:
            continue
        break
    return MaoActRead(
        game_id=game.id,
        version=game.version,
        play=play,
        reason=reason,
        events=[
            {"number": first + n, **entry} for n, entry in enumerate(shown[first : first + len(events)], 1)
        ],
    )


def seat_act(
    context: Context,
    actor: Actor,
    game_id: UUID,
    seat: int | None,
    command_for: Callable[[int], Command],
    key: str | None,
    request: tuple[Any, ...],
    is_play: bool = False,
) -> MaoActRead:
    """An act for one seat: the asker's own, or the one an official names."""

    def command(game: MaoGame, rng: random.Random) -> Command:
        return command_for(mao_policy.acting_seat(context, actor, game, seat))

    return act(context, actor, game_id, command, is_play=is_play, key=key, request=request)


def judge_act(
    context: Context,
    actor: Actor,
    game_id: UUID,
    command_for: Callable[[], Command],
    key: str | None,
    request: tuple[Any, ...],
) -> MaoActRead:
    """An act only the match's judge does."""

    def command(game: MaoGame, rng: random.Random) -> Command:
        mao_policy.check_judge(context, actor, game)
        return command_for()

    return act(context, actor, game_id, command, key=key, request=request)


_CARDS = {format_card(card): card for card in FULL_DECK}


def deck_of(names: list[str]) -> tuple[int, ...]:
    """The cards a deck names; any name that is not one of the 52 makes it no deck."""
    try:
        return tuple(_CARDS[name.strip().upper()] for name in names)
    except KeyError:
        raise RuleError("invalid_deck", why="deck_cards_each") from None


def deal(
    context: Context,
    actor: Actor,
    game_id: UUID,
    deck: list[str] | None,
    key: str | None,
    request: tuple[Any, ...],
) -> MaoActRead:
    """The next deal: from the server's shuffle, or (the officials only) a deck of their own."""

    def command(game: MaoGame, rng: random.Random) -> DealRound:
        mao_policy.check_dealer(context, actor, game)
        if deck is None:
            return shuffled_deck(rng)
        if not mao_policy.officiates(context, actor, game):
            raise RuleError("not_allowed", why="own_deck")
        return DealRound(deck_of(deck))

    return act(context, actor, game_id, command, key=key, request=request)
