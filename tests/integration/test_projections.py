"""The read models against a recomputation straight from the stored events, on PostgreSQL and SQLite.

The workload: players (one renamed), a ``club`` and a ``mau-mau-150`` league
and games outside any league, played by random legal moves with timed-out
turns, disputes (resumed, penalised, voided; some voided after the match
ended, some voiding back past an earlier void) in between.

The recomputation is written apart from the projection: the table and the
hands come from the referee's view of the game (``app.replay``) and the
engine's ``legal_actions``; the counts (how rounds ended, penalty cards,
challenged calls, timed-out turns) from folding the events while keeping the
counts after every event number, a void putting them back to the counts
before its first voided event.
"""

import random
from uuid import UUID

import msgspec
import pytest

from service.application import MauMau, project
from service.domain.adjudication import Correct, Penalty, Resume, Void
from service.domain.commands import Challenge, DrawCard, KeepCard, NameSuit, PlayCard, command_for
from service.domain.errors import RuleError
from service.domain.game import Game
from service.domain.legal import legal_actions
from service.domain.roles import Actor
from service.domain.state import PENALTY
from service.projections.models import (
    HandView,
    LegalMove,
    MatchTotals,
    MissedCall,
    PlayedGame,
    PublicSeat,
    PublicTable,
    RoundResult,
    Standings,
)
from service.projections.reader import ReadModels
from service.projections.runner import start_projections
from service.projections.standings import TIE_BREAKS, Tally, order_of, rank, rule
from tests.gameplay import next_command
from tests.integration.projecting import catch_up

pytestmark = pytest.mark.own_store  # each test reads the whole log: a store of the test's own


ADMIN = Actor("admin", "ada")
SUITS = "CDHS"


# ---------------------------------------------------------------------------
# the workload


class Club:
    """Players, leagues and the games made so far, in the order they were created."""

    def __init__(self, app: MauMau, seed: int) -> None:
        self.app = app
        self.rng = random.Random(seed)
        self.players = [app.register_player(f"Player {n}") for n in range(6)]
        app.rename_player(self.players[0], "Ann the Renamed")
        self.leagues = {
            app.found_league("Club league", "club", {"target_score": 30}): "club",
            app.found_league("150 league", "mau-mau-150", {"target_score": 60}): "mau-mau-150",
        }
        for league in self.leagues:
            for player in self.players:
                app.admit_member(league, player)
        self.games: list[UUID] = []

    def new_game(self, league: UUID | None = None) -> UUID:
        rng = self.rng
        seats: list[str | UUID] = list(rng.sample(self.players, rng.randint(2, 3)))
        if rng.random() < 0.5:
            seats.append("bot:random")
        rng.shuffle(seats)
        if league is None:
            outcome = self.app.create_game(
                seats, ruleset="club", options={"target_score": 25}, seed=rng.random()
            )
        else:
            outcome = self.app.create_game(seats, league_id=league, seed=rng.random())
        self.games.append(outcome.game_id)
        return outcome.game_id

    def play(self, game_id: UUID, moves: int = 10_000) -> None:
        """Random moves (with timeouts and disputes) until the match ends or ``moves`` are made."""
        app, rng = self.app, self.rng
        for _ in range(moves):
            game = app.get_game(game_id)
            if game.over:
                return
            roll = rng.random()
            if roll < 0.01:
                self.dispute(game_id)
            elif roll < 0.03:
                app.time_out_turn(game_id, game.seat_to_move)
            else:
                app.execute(game_id, next_command(game.state, rng), expected_version=game.version)

    def dispute(self, game_id: UUID, reach: int = 25) -> None:
        """A dispute and a ruling on it: resume, a penalty, or a void reaching back up to ``reach`` events."""
        app, rng = self.app, self.rng
        raised = app.raise_dispute(game_id, reason="a test dispute", by=ADMIN).version
        roll = rng.random()
        if roll < 0.5:
            first = rng.randint(max(3, raised - reach), raised - 1)
            app.give_ruling(game_id, Void(first), by=ADMIN)
            return
        if roll < 0.8:
            seats = len(app.get_game(game_id).seats)
            try:
                app.give_ruling(game_id, Penalty(rng.randrange(seats), rng.randint(1, 3)), by=ADMIN)
                return
            except RuleError:
                pass  # no penalty can be given now (the stock, the phase): resume instead
        app.give_ruling(game_id, Resume(), by=ADMIN)

    def season(self, games: int) -> None:
        """``games`` whole games, in turns across the leagues and outside them, two at a time."""
        leagues: list[UUID | None] = [*self.leagues, None]
        for index in range(0, games, 2):
            pair = [self.new_game(leagues[(index + k) % len(leagues)]) for k in range(min(2, games - index))]
            for game_id in pair:  # interleave the two games' events in the log
                self.play(game_id, 40)
            for game_id in pair:
                self.play(game_id)
                if self.rng.random() < 0.4:
                    # a dispute about a finished match: a void reaching back past its end reopens it
                    self.dispute(game_id, reach=12)
                    self.play(game_id)
            if index % 4 == 0 and self.games:
                # a dispute voiding back past an earlier void, then the game played out
                game_id = self.new_game(leagues[index % len(leagues)])
                self.play(game_id, 60)
                self.dispute_void(game_id, 20)
                self.play(game_id, 30)
                self.dispute_void(game_id, 45)
                self.play(game_id)

    def dispute_void(self, game_id: UUID, back: int) -> None:
        app = self.app
        if app.get_game(game_id).over:
            return
        raised = app.raise_dispute(game_id, by=ADMIN).version
        app.give_ruling(game_id, Void(max(3, raised - back)), by=ADMIN)


# ---------------------------------------------------------------------------
# the recomputation


class Counts(msgspec.Struct, kw_only=True):
    rounds: list[tuple[int, str, int]] = msgspec.field(default_factory=list)  # round, reason, winner
    penalties: list[tuple[int, int, int]] = msgspec.field(default_factory=list)  # round, seat, cards
    challenges: list[tuple[int, int]] = msgspec.field(default_factory=list)  # round, offender
    timeouts: list[int] = msgspec.field(default_factory=list)  # seats
    ended_at: object = None


def _copy(counts: Counts) -> Counts:
    return Counts(
        rounds=list(counts.rounds),
        penalties=list(counts.penalties),
        challenges=list(counts.challenges),
        timeouts=list(counts.timeouts),
        ended_at=counts.ended_at,
    )


def recount(events: list) -> tuple[Game, Counts]:
    """The engine's fold of the events, and the counts in force after the last one."""
    game = None
    after = {0: Counts()}
    entered: dict[int, int] = {}  # a score sheet's round -> the event number of its latest entry
    for event in events:
        game = event.mutate(game)
        number = event.originator_version
        counts = _copy(after[number - 1])
        name = type(event).__name__
        if isinstance(event, Game.RulingGiven) and isinstance(event.ruling, Void):
            counts = _copy(after[event.ruling.from_event - 1])
        elif isinstance(event, Game.RulingGiven) and isinstance(event.ruling, Correct):
            # a correction counts as a void from the corrected round's entry
            counts = _copy(after[entered[event.ruling.round_no] - 1])
        elif name == "RoundEntered":
            entered[event.round_no] = number
        elif name == "CardsDrawn" and event.fact.reason == PENALTY:
            counts.penalties.append((game.state.round_no, event.fact.seat, len(event.fact.cards)))
        elif name == "MissedCallChallenged":
            counts.challenges.append((game.state.round_no, event.fact.offender))
        elif name == "RoundEnded":
            counts.rounds.append((event.fact.round_no, event.fact.reason, event.fact.winner))
        elif name == "MatchEnded":
            counts.ended_at = event.timestamp
        elif name == "TurnTimedOut":
            counts.timeouts.append(event.seat)
        after[number] = counts
    assert game is not None
    return game, after[game.version]


def _move(command: object) -> LegalMove:
    """A legal command in the words of a move request (written apart from the projection's own)."""
    if isinstance(command, PlayCard):
        names = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
        card = names[command.card % 13] + SUITS[command.card // 13]
        return LegalMove(kind="play", card=card, suit=SUITS[command.suit] if command.suit >= 0 else None)
    if isinstance(command, NameSuit):
        return LegalMove(kind="name_suit", suit=SUITS[command.suit])
    kinds = {DrawCard: "draw", KeepCard: "keep", Challenge: "challenge"}
    return LegalMove(kind=kinds[type(command)])


def expected_game(
    app: MauMau, game_id: UUID, position: int
) -> tuple[PublicTable, list[HandView], MatchTotals]:
    game, counts = recount(app.game_events(game_id))
    assert game.state == project(None, app.game_events(game_id)).state
    view = app.replay(game_id)
    names = {str(p): app.get_player(p).name for p in {UUID(s.name) for s in game.seats if s.kind == "player"}}
    timed_out = [counts.timeouts.count(seat) for seat in range(len(game.seats))]
    seats = [
        PublicSeat(
            seat=seat.seat,
            kind=seat.occupant.kind,
            player_id=UUID(seat.occupant.name) if seat.occupant.kind == "player" else None,
            bot=seat.occupant.name if seat.occupant.kind == "bot" else None,
            name=names[seat.occupant.name] if seat.occupant.kind == "player" else f"bot:{seat.occupant.name}",
            cards=seat.cards,
            total=seat.total,
            timed_out_turns=timed_out[seat.seat],
            out=bool(game.state.out >> seat.seat & 1),
        )
        for seat in view.seats
    ]
    turn = view.dealer if view.phase == "name_suit" else view.turn
    table = PublicTable(
        game_id=game_id,
        league_id=game.league_id,
        ruleset=view.ruleset,
        version=view.number,
        phase=view.phase,
        round_no=view.round_no,
        dealer=view.dealer,
        turn=None if view.phase in ("deal", "over") else turn,
        direction=view.direction,
        top=view.top,
        named_suit=view.named_suit,
        debt=view.debt,
        stock=len(view.stock),
        discard=len(view.discard),
        missed=MissedCall(view.missed.seat, view.missed.call) if view.missed else None,
        seats=seats,
        round_points=view.round_points,
        totals=view.totals,
        winners=view.winners,
        paused=view.paused,
        over=view.over,
        turn_deadline=None,
        position=position,
        in_person=game.in_person,
    )
    hands = []
    for seat in view.seats:
        legal = []
        if not view.paused and not view.over:
            legal = [_move(command_for(seat.seat, action)) for action in legal_actions(game.state, seat.seat)]
        drawn = view.drawn if view.phase == "drawn" and view.turn == seat.seat else None
        hands.append(
            HandView(
                game_id=game_id,
                seat=seat.seat,
                cards=seat.hand,
                drawn=drawn,
                legal=legal,
                table=table,
                position=position,
            )
        )
    rounds = []
    for (round_no, reason, winner), points in zip(counts.rounds, view.round_points, strict=True):
        penalty_cards = [0] * len(seats)
        for r, seat, cards in counts.penalties:
            if r == round_no:
                penalty_cards[seat] += cards
        missed = [0] * len(seats)
        for r, seat in counts.challenges:
            if r == round_no:
                missed[seat] += 1
        rounds.append(
            RoundResult(
                round_no=round_no,
                ended=reason,
                winner=winner if winner >= 0 else None,
                points=points,
                penalty_cards=penalty_cards,
                missed_calls=missed,
            )
        )
    totals = MatchTotals(
        game_id=game_id,
        league_id=game.league_id,
        ruleset=view.ruleset,
        seats=seats,
        rounds=rounds,
        totals=view.totals,
        winners=view.winners,
        over=view.over,
        position=position,
    )
    return table, hands, totals


def expected_standings(app: MauMau, club: Club, league_id: UUID, position: int) -> Standings:
    sums: dict[UUID, dict[str, int]] = {}
    for game_id in club.games:
        game, counts = recount(app.game_events(game_id))
        if game.league_id != league_id or not game.over:
            continue
        s = game.state
        for seat, occupant in enumerate(game.seats):
            if occupant.kind != "player":
                continue
            won = seat in s.winners
            row = sums.setdefault(UUID(occupant.name), {})
            for key, value in {
                "matches_played": 1,
                "matches_won": int(won and len(s.winners) == 1),
                "matches_shared": int(won and len(s.winners) > 1),
                "rounds_played": len(s.round_points),
                "rounds_won": sum(1 for _, _, winner in counts.rounds if winner == seat),
                "points": s.totals[seat],
                "penalty_cards": sum(cards for _, who, cards in counts.penalties if who == seat),
                "missed_calls": sum(1 for _, who in counts.challenges if who == seat),
                "bot_turns": counts.timeouts.count(seat),
                "forfeits": int(seat in game.result().forfeited),
            }.items():
                row[key] = row.get(key, 0) + value
    league = app.get_league(league_id)
    order = order_of(league.rules)
    for member in league.members:  # a member without a finished match: a row of zeros
        sums.setdefault(member, {})
    tallies = [Tally(player_id=p, name=app.get_player(p).name, **row) for p, row in sums.items()]
    return Standings(
        league_id=league_id,
        ruleset=league.ruleset_name,
        order=order,
        tie_breaks=TIE_BREAKS,
        rows=rank(tallies, order),
        position=position,
        rule=rule(order),
    )


def expected_history(app: MauMau, club: Club, player_id: UUID, position: int) -> list[PlayedGame]:
    games = []
    for game_id in reversed(club.games):
        game, counts = recount(app.game_events(game_id))
        seat = game.seat_of(str(player_id))
        if seat is None:
            continue
        s = game.state
        if not game.over:
            result = "playing"
        elif seat in s.winners:
            result = "won" if len(s.winners) == 1 else "shared"
        else:
            result = "lost"

        def name(other: object) -> str:
            return app.get_player(other.name).name if other.kind == "player" else f"bot:{other.name}"

        games.append(
            PlayedGame(
                game_id=game_id,
                league_id=game.league_id,
                ruleset=game.ruleset.name,
                seat=seat,
                total=s.totals[seat],
                result=result,
                opponents=[name(o) for i, o in enumerate(game.seats) if i != seat],
                rounds=len(s.round_points),
                ended_at=counts.ended_at if game.over else None,
                opponent_ids=[
                    o.name if o.kind == "player" else f"bot:{o.name}"
                    for i, o in enumerate(game.seats)
                    if i != seat
                ],
            )
        )
    return games


def unrated(standings: Standings | None) -> Standings | None:
    """The standings without the ratings beside them (test_projections_ratings.py checks those)."""
    if standings is None:
        return None
    rows = [msgspec.structs.replace(row, rating=None, rating_provisional=True) for row in standings.rows]
    return msgspec.structs.replace(standings, rows=rows)


def assert_read_models_match(app: MauMau, club: Club, reader: ReadModels) -> None:
    position = reader.position()
    assert position == app.recorder.max_notification_id()
    for game_id in club.games:
        table, hands, totals = expected_game(app, game_id, position)
        assert reader.table(game_id) == table
        for seat, hand in enumerate(hands):
            assert reader.hand(game_id, seat) == hand
        assert reader.totals(game_id) == totals
    for league_id in club.leagues:
        assert unrated(reader.standings(league_id)) == expected_standings(app, club, league_id, position)
    for player_id in club.players:
        history = reader.history(player_id)
        assert history.position == position
        assert history.games == expected_history(app, club, player_id, position)
    assert_lists_match(app, club, reader)


def assert_lists_match(app: MauMau, club: Club, reader: ReadModels) -> None:
    """The lists' rows: each game's status, the open disputes, the leagues' members (all of the club's)."""
    listed, _ = reader.games(None, None, None, None, 10_000)
    statuses = {item.game_id: item.status for item in listed}
    games = {game_id: app.get_game(game_id) for game_id in club.games}
    expected = {
        game_id: "paused" if game.paused else "over" if game.over else "playing"
        for game_id, game in games.items()
    }
    assert {game_id: statuses.get(game_id) for game_id in club.games} == expected
    disputes, _ = reader.disputes(None, None, 10_000)
    open_ones = {(d.game_id, d.number) for d in disputes if d.game_id in games}
    assert open_ones == {(game_id, game.dispute.number) for game_id, game in games.items() if game.dispute}
    for player_id in club.players:
        member_of = {league.league_id for league in reader.leagues_of(str(player_id), "member")}
        assert member_of == {
            league_id for league_id in club.leagues if player_id in app.get_league(league_id).members
        }


# ---------------------------------------------------------------------------


def test_every_read_model_equals_a_recomputation_from_the_events_after_many_bot_games(app, settings, reader):
    club = Club(app, seed=11)
    club.season(10)
    assert catch_up(settings) == app.recorder.max_notification_id()
    assert_read_models_match(app, club, reader)
    # the workload did reach what it is for
    events = [event for game_id in club.games for event in app.game_events(game_id)]
    kinds = {type(event).__name__ for event in events}
    assert {"TurnTimedOut", "RulingGiven", "MissedCallChallenged", "MatchEnded"} <= kinds
    rulings = {type(event.ruling) for event in events if isinstance(event, Game.RulingGiven)}
    assert rulings == {Void, Penalty, Resume}
    assert any(reader.standings(league).rows for league in club.leagues)


def test_a_runner_stopped_and_restarted_resumes_from_its_tracking_without_counting_twice(
    app, settings, reader
):
    club = Club(app, seed=5)
    club.season(3)
    running = start_projections(settings)
    try:
        assert (
            reader.wait_for(app.recorder.max_notification_id(), timeout=30)
            == app.recorder.max_notification_id()
        )
    finally:
        running.stop()
    stopped_at = reader.position()
    club.season(3)
    assert reader.position() == stopped_at  # nothing runs meanwhile
    running = start_projections(settings)
    try:
        last = app.recorder.max_notification_id()
        assert reader.wait_for(last, timeout=30) == last
    finally:
        running.stop()
    # read once stopped: the runner learns its position when its write returns, a moment after the
    # commit that told the reader
    assert running.position == last
    assert_read_models_match(app, club, reader)


def test_a_new_runner_over_the_same_store_takes_up_where_the_last_one_wrote(app, settings, reader):
    club = Club(app, seed=13)
    club.season(3)
    first = catch_up(settings)
    assert any(reader.standings(league).rows for league in club.leagues)
    club.season(2)
    assert catch_up(settings) > first
    assert catch_up(settings) == app.recorder.max_notification_id()  # and a third finds nothing new
    assert_read_models_match(app, club, reader)
