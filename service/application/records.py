"""Game records (docs/game-records.md): a game written out as one, and a record imported as a game
played in person.

Use cases as functions taking the application (``MauMau``): a record is read from the store like the
event log and never stored itself.
"""

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from uuid import NAMESPACE_URL, UUID, uuid5

import msgspec

from service.application.games import MATCH_LENGTH_OPTIONS
from service.domain.cards import parse_card
from service.domain.errors import RuleError
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.record import (
    Abandoned,
    Dealt,
    Forfeited,
    MatchEnd,
    Played,
    Record,
    RoundEnd,
    RoundEntered,
    RulingGiven,
    TimedOut,
)
from service.domain.record_of import record_of
from service.domain.record_parse import parse_record
from service.domain.record_render import render
from service.domain.redaction import Table, Viewer, redact
from service.domain.roles import Actor
from service.domain.round_scoring import card_entry
from service.domain.rulebook import rulebook
from service.domain.ruleset_options import ruleset as make_ruleset
from service.domain.ruleset_options import with_options
from service.domain.rulesets import Ruleset
from service.domain.scoresheet import RoundEntry, worth
from service.domain.seats import Seat
from service.domain.views import entry_of

if TYPE_CHECKING:
    from service.application import MauMau

# the dry run deals nothing, so its chance does not matter; fixed, so it draws no entropy
DRY_RUN_ENTROPY = "0" * 64
IMPORTED_GAMES = uuid5(NAMESPACE_URL, "https://maumau.invalid/imported-games")


def game_record(app: "MauMau", game_id: UUID, viewer: Viewer, names: Mapping[str, str]) -> str:
    """The record of the game as ``viewer`` may see it; ``names``: players' names by id."""
    events = app.game_events(game_id)
    created = events[0]
    table = Table(seats=len(created.seats), hand_size=created.ruleset.hand_size)
    entries = [redact(entry_of(event), viewer, table) for event in events]
    return render(record_of(str(game_id), entries, names, viewer))


class Imported(msgspec.Struct, frozen=True, kw_only=True):
    game_id: UUID
    league_id: UUID | None
    seats: list[str]  # the players' ids, seat order
    rounds: int
    version: int
    position: int  # the last round's


def import_record(
    app: "MauMau",
    text: str,
    *,
    league_id: UUID | None,
    seats: Sequence[str] | None,
    by: Actor,
    key: str | None = None,
    copy: bool = False,
) -> Imported:
    """A game played in person made from a record: its seats, and each round's points as entered.

    The game keeps the record's own id (``imported_id``), so a game is in the service once: the
    record of one stored already (the original, or the record imported before) is refused
    (``game_exists``) and counts nowhere a second time. ``copy``: the record is imported as a new
    game of its own, under a new id, as a club that replays a game at a real table asks for.

    ``seats`` (player ids, seat order) replaces the record's own; without it every seat of the
    record must be a player's. Every round is scored by this service first, on a game kept in
    memory: when the totals, the rounds or the winners it gives are not the record's, the record
    is refused (``record_inconsistent``) and nothing is stored. Then the game is created and each
    round entered (``enter_round``), each with an idempotency key made from ``key``, so that a
    retry after a failure between them finishes the same game.
    """
    record = parse_record(text)
    players = _players(record, seats)
    rounds, end = _result(record)
    rules, options = _rules(app, record, league_id)
    went_out = _last_cards(record)
    entries = [_entry(rules, ended, went_out.get(ended.number)) for ended in rounds]
    _check(rules, players, rounds, end, entries, by, league_id)
    try:
        created = app.create_game(
            players,
            ruleset=record.header.ruleset,
            options=options,
            league_id=league_id,
            in_person=True,
            by=by,
            key=key,
            game_id=None if copy else imported_id(record),
        )
    except RuleError as refused:
        if refused.code != "game_exists":
            raise
        raise RuleError("game_exists", why="record_game", game_id=record.header.game_id) from None
    outcome = created
    for ended, entry in zip(rounds, entries, strict=True):
        outcome = app.enter_round(
            created.game_id,
            winner=entry.winner,
            points=entry.points,
            last_card=entry.last_card,
            by=by,
            key=None if key is None else f"{key}:round {ended.round_no}",
        )
    return Imported(
        game_id=created.game_id,
        league_id=league_id,
        seats=players,
        rounds=len(rounds),
        version=outcome.version,
        position=outcome.position,
    )


def imported_id(record: Record) -> UUID:
    """The id a record's game is imported under: its own, or one that follows from it when it is no
    UUID (a record written elsewhere), so the same record always names the same game."""
    try:
        return UUID(record.header.game_id)
    except ValueError:
        return uuid5(IMPORTED_GAMES, record.header.game_id)


def _players(record: Record, seats: Sequence[str] | None) -> list[str]:
    if seats is not None:
        if len(seats) != len(record.header.seats):
            raise RuleError(
                "record_inconsistent", why="seat_count", seats=len(record.header.seats), count=len(seats)
            )
        return list(seats)
    bots = [seat.label for seat in record.header.seats if seat.kind == "bot"]
    if bots:
        raise RuleError("record_has_bots", bots=bots[0])
    return [seat.id for seat in record.header.seats]


def _result(record: Record) -> tuple[list[RoundEnd], MatchEnd]:
    """The rounds in force and the match's end: a void takes back every round ended from its event on,
    a round ended again (a corrected entry) replaces that round and the ones after it."""
    rounds: list[RoundEnd] = []
    end: MatchEnd | None = None
    for line in record.lines:
        if isinstance(line, RoundEnd):
            rounds = [kept for kept in rounds if kept.round_no < line.round_no] + [line]
            end = None
        elif isinstance(line, MatchEnd):
            end = line
        elif isinstance(line, RulingGiven) and line.kind == "void" and line.from_event is not None:
            void = line.from_event
            rounds = [kept for kept in rounds if kept.number < void]
            end = end if end is not None and end.number < void else None
        elif isinstance(line, Forfeited | TimedOut):
            raise RuleError("record_inconsistent", why="clock", number=line.number)
        elif isinstance(line, Abandoned):
            raise RuleError("record_inconsistent", why="abandoned", number=line.number)
    if end is None:
        raise RuleError("record_inconsistent", why="no_match_end")
    if [ended.round_no for ended in rounds] != list(range(1, len(rounds) + 1)):
        raise RuleError("record_inconsistent", why="numbering")
    return rounds, end


def _rules(app: "MauMau", record: Record, league_id: UUID | None) -> tuple[Ruleset, dict[str, Any]]:
    """The rules the imported game plays (a league's own) and the options to create it with; refused
    when they are not the rules the record was played by."""
    header = record.header
    played = make_ruleset(header.ruleset, **header.options)
    if league_id is None:
        return played, dict(header.options)
    options = {name: value for name, value in header.options.items() if name in MATCH_LENGTH_OPTIONS}
    rules = with_options(app.get_league(league_id).rules, **options)
    if rules != played:
        raise RuleError("record_inconsistent", why="league_rules", ruleset=rules.name)
    return rules, options


def _last_cards(record: Record) -> dict[int, str]:
    """By a round end's event number, the card its winner went out with, where the record tells it:
    the winner's last card played in a round played here, or a score sheet's ``last card``."""
    played: dict[int, str] = {}  # by seat, its last card played since the deal
    sheet: str | None = None  # the last card of the score sheet's round entered just before
    found: dict[int, str] = {}
    for line in record.lines:
        if isinstance(line, Dealt):
            played = {}
        elif isinstance(line, Played):
            played[line.seat] = line.card
        elif isinstance(line, RoundEntered | RulingGiven) and line.entry is not None:
            sheet = line.entry.last_card
        elif isinstance(line, RoundEnd):
            card = played.get(line.winner) if line.winner is not None else None
            card = sheet if sheet is not None else card
            if card is not None:
                found[line.number] = card
            played, sheet = {}, None
    return found


def _entry(rules: Ruleset, ended: RoundEnd, last_card: str | None = None) -> RoundEntry:
    """A score sheet entry the rules score as the record's round: the points each seat had left.

    Where the losers pay their points, a round won with a card that scores (``out_points``) or
    multiplies (``out_multiplier``) is entered with that card and each loser's points before it.
    Where the winner takes the losers' points, the record tells only their sum: it is entered as
    the lowest card's worth in each losing hand but the first, which holds the rest.
    """
    if rules.scoring == "penalty":
        winner = ended.winner
        if last_card is None or winner is None or winner < 0:
            return RoundEntry(winner=winner, points=tuple(ended.points))
        card = parse_card(last_card)
        times = card_entry(rules.out_multiplier, card) or 1
        points = tuple([0 if seat == winner else p // times for seat, p in enumerate(ended.points)])
        return RoundEntry(winner=winner, points=points, last_card=card)
    book = rulebook(rules)
    lowest = min(worth(book, card) for card in book.deck)  # jokers, when the deck has them, included
    losers = [seat for seat in range(len(ended.points)) if seat != ended.winner]
    values = [0] * len(ended.points)
    for seat in losers:
        values[seat] = lowest
    if ended.winner is not None:
        values[losers[0]] = ended.points[ended.winner] - lowest * (len(losers) - 1)
    return RoundEntry(winner=ended.winner, points=tuple(values))


def _check(
    rules: Ruleset,
    players: list[str],
    rounds: list[RoundEnd],
    end: MatchEnd,
    entries: list[RoundEntry],
    by: Actor,
    league_id: UUID | None,
) -> None:
    """Every round entered on a game kept in memory gives the record's points and totals, and the
    match ends after the last round with the record's winners and totals."""
    game = Game.create(
        ruleset=rules,
        seats=tuple(Seat.parse(player) for player in players),
        seed="a dry run",
        cause=Cause(by, "ImportRecord"),
        league_id=league_id,
        entropy=DRY_RUN_ENTROPY,
        in_person=True,
    )
    for ended, entry in zip(rounds, entries, strict=True):
        if game.over:
            raise RuleError("record_inconsistent", why="early_end", round_no=ended.round_no)
        try:
            game.enter_round(entry, Cause(by, "EnterRound"))
        except RuleError as refused:
            raise RuleError(
                "record_inconsistent", why="refused", round_no=ended.round_no, refusal=refused.message
            ) from None
        scored = game.state.round_points[-1]
        if list(scored) != ended.points or game.state.totals != ended.totals:
            raise RuleError(
                "record_inconsistent",
                why="scores",
                round_no=ended.round_no,
                number=ended.number,
                scored=list(scored),
                totals=game.state.totals,
            )
    if not game.over:
        raise RuleError("record_inconsistent", why="no_end")
    if list(game.state.winners) != end.winners or game.state.totals != end.totals:
        raise RuleError("record_inconsistent", why="winners", winners=list(game.state.winners))
