"""A Mao match as the API reads it: its public part, a seat's view, the judge's view, its log cut
to what the asker may see and the referee's replay, with ``mao_policy``'s checks; and what its live
streams read at each change (``live``)."""

from dataclasses import dataclass
from uuid import UUID

from service.domain.mao.aggregate import MaoGame
from service.domain.mao.redaction import PUBLIC, redact_all
from service.domain.mao.replay import Step, referee_replay
from service.domain.mao.views import JudgeView, PlayerView, judge_view, player_view
from service.domain.roles import Actor
from service.domain.sight import Data
from service.usecases import mao_policy
from service.usecases.context import Context


def match(context: Context, game_id: UUID) -> MaoGame:
    """The match as stored; its public part is what the API shows of it."""
    return context.app.get_mao_game(game_id)


def seat_view(context: Context, actor: Actor, game_id: UUID, seat: int | None) -> PlayerView:
    """A player's own seat's view; an official names the seat."""
    game = context.app.get_mao_game(game_id)
    return player_view(game.state, mao_policy.acting_seat(context, actor, game, seat))


def judges_view(context: Context, actor: Actor, game_id: UUID) -> JudgeView:
    """The rule, the clauses in force, every hand: the officials'."""
    return judge_view(mao_policy.official_game(context, actor, game_id).state)


@dataclass(frozen=True)
class MaoLog:
    version: int
    events: list[Data]  # each as the asker may see it, the first first


def numbered(events: list[Data]) -> list[Data]:
    """A log's entries as the API shows them: each with its number, the first 1."""
    return [{"number": number, **entry} for number, entry in enumerate(events, 1)]


def log(context: Context, actor: Actor | None, game_id: UUID) -> MaoLog:
    """Every event: whole for officials, own cards for a seat, the table for the public."""
    game = context.app.get_mao_game(game_id)
    return MaoLog(
        version=game.version, events=redact_all(game.facts, mao_policy.viewer(context, actor, game))
    )


def replay(context: Context, actor: Actor, game_id: UUID) -> list[Step]:
    """Every event, and for each penalty why it was given: the officials'."""
    return referee_replay(mao_policy.official_game(context, actor, game_id).facts)


def followed_seat(context: Context, actor: Actor, game_id: UUID, seat: int | None) -> int:
    """The seat whose view a stream follows, checked as ``seat_view``'s."""
    return mao_policy.acting_seat(context, actor, context.app.get_mao_game(game_id), seat)


@dataclass(frozen=True)
class LiveMatch:
    """The match as its streams read it at a change: one read, shared by every stream of the match
    (``LiveGames.shared``)."""

    version: int
    over: bool
    public: list[Data]  # the log as the public sees it (``log``'s for an anonymous caller), numbered
    game: MaoGame

    def view(self, seat: int) -> PlayerView:
        """A seat's view, as ``seat_view`` answers it (the seat checked by ``followed_seat``)."""
        return player_view(self.game.state, seat)


def live(context: Context, game_id: UUID) -> LiveMatch:
    """The match as stored now, folded from its start (a match is small)."""
    game = context.app.get_mao_game(game_id)
    public = numbered(redact_all(game.facts, PUBLIC))
    return LiveMatch(version=game.version, over=game.over, public=public, game=game)
