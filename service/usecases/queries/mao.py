"""A Mao match as the API reads it: its public part, a seat's view, the judge's view, its log cut
to what the asker may see and the referee's replay, with ``mao_policy``'s checks; and what its live
streams read at each change (``live``)."""

from dataclasses import dataclass
from uuid import UUID

import msgspec

from service.domain.errors import RuleError
from service.domain.mao.aggregate import BOT_PREFIX, MaoGame
from service.domain.mao.game import checked_rule
from service.domain.mao.redaction import PUBLIC, redact_all
from service.domain.mao.replay import Step, referee_replay
from service.domain.mao.rule import format_rule
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


def public_view(game: MaoGame) -> PlayerView:
    """What anyone sees of the table (``GET /mao-games/{id}``): a seat's view without its hand."""
    return msgspec.structs.replace(player_view(game.state, 0), hand=[], my_proposal=None)


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


@dataclass(frozen=True)
class MaoTable:
    """What the Mao pages show around a match, read once: it as stored, who sits where, what the
    asker may do, and its log as the asker may see it (``log``'s)."""

    game: MaoGame
    names: list[str]  # each seat's player's name; a bot's seat its name ("bot:learning")
    league: str  # the league's name
    seat: int | None  # the asker's own seat, when they play at the match
    official: bool  # an admin or a referee of the league: the judge's view, the replay
    judges: bool  # may write the rule, deal and answer proposals (``mao_policy.check_judge``)
    log: list[Data]


def _judges(context: Context, actor: Actor | None, game: MaoGame) -> bool:
    if actor is None:
        return False
    try:
        mao_policy.check_judge(context, actor, game)
    except RuleError:
        return False
    return True


def table(context: Context, actor: Actor | None, game_id: UUID, public: bool = False) -> MaoTable:
    """The match (``game_not_found``), the names the pages put on its seats and its log, as the
    asker may see it (as anyone may, when ``public``)."""
    game = context.app.get_mao_game(game_id)
    players = [UUID(seat) for seat in game.seats if not seat.startswith(BOT_PREFIX)]
    found = {str(player_id): name for player_id, name in context.reader.names(players).items()}
    seat = game.seat_of(actor.id) if actor is not None and actor.role == "player" else None
    return MaoTable(
        game=game,
        names=[found.get(seat_id, seat_id) for seat_id in game.seats],
        league=context.app.get_league(game.league_id).name,
        seat=seat,
        official=mao_policy.officiates(context, actor, game),
        judges=_judges(context, actor, game),
        log=redact_all(game.facts, PUBLIC if public else mao_policy.viewer(context, actor, game)),
    )


def seat_view_at(context: Context, actor: Actor, found: MaoTable, seat: int | None) -> PlayerView:
    """``seat_view`` of the match the pages read (``table``)."""
    return player_view(found.game.state, mao_policy.acting_seat(context, actor, found.game, seat))


def judges_view_at(context: Context, actor: Actor, found: MaoTable) -> JudgeView:
    """``judges_view`` of the match the pages read: the officials'."""
    mao_policy.check_official(context, actor, found.game)
    return judge_view(found.game.state)


def replay_at(context: Context, actor: Actor, found: MaoTable) -> list[Step]:
    """``replay`` of the match the pages read: the officials'."""
    mao_policy.check_official(context, actor, found.game)
    return referee_replay(found.game.facts)


def check_rule(context: Context, actor: Actor, game_id: UUID, text: str) -> str:
    """The rule a text states, as the judge would write it, checked without writing it: refused when
    malformed or incompatible (as ``PUT /rule``), and to anyone but the match's judge."""
    mao_policy.check_judge(context, actor, context.app.get_mao_game(game_id))
    return format_rule(checked_rule(text))
