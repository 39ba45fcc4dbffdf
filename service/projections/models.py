"""What the read models answer: the rows the HTTP layer serves, as msgspec Structs.

These are the contract between ``service.projections`` (which keeps them up
to date from the event log) and ``service.http`` (which reads them and never
folds a game's events on request). Fields are added at the end with a
default; none is renamed or removed.

Every answer carries ``position``: the notification-log position the read
model had applied when it answered. A write's ``Outcome.position`` is the
position it produced, so a client that waits until a read's position reaches
it reads its own write.
"""

from datetime import datetime
from typing import Literal
from uuid import UUID

import msgspec

MoveKind = Literal["play", "draw", "keep", "challenge", "challenge_declaration", "name_suit", "choose_player"]


class LegalMove(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One move the rules allow a seat now, in the words a move request uses."""

    kind: MoveKind
    card: str | None = None  # "7H" for a play
    suit: str | None = None  # the suit a wild card names, or the suit named for a wild starter
    player: int | None = None  # the seat a card's player may choose to draw
    more: list[str] = []  # with the quick modifier: cards of the same rank laid on the card, the last on top
    declared: str | None = None  # with the blind modifier: the card it is played face down as


class PublicSeat(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    kind: Literal["player", "bot"]
    player_id: UUID | None  # the player sitting here; None for a bot seat
    bot: str | None  # the bot's name for a bot seat
    name: str  # the player's name, or "bot:<name>"
    cards: int  # how many cards the seat holds (never which)
    total: int  # the match score so far
    timed_out_turns: int = 0  # turns a clock bot played for this seat
    forfeited: bool = False  # the seat forfeited by clock: a bot plays it, it cannot win
    out: bool = False  # out of the match (over 101's limit, or faraon's last card lost): passed over


class MissedCall(msgspec.Struct, frozen=True):
    seat: int
    call: str  # "mau" or "mau_mau": said aloud (or not) at the table, so public


class PublicTable(msgspec.Struct, frozen=True, kw_only=True):
    """What anyone at the table sees: no hand, no stock order."""

    game_id: UUID
    league_id: UUID | None
    ruleset: str
    version: int  # the game's event number: what a move request must name
    phase: str  # "deal", "name_suit", "play", "drawn", "recycle", "over", "choose_player"
    round_no: int
    dealer: int
    turn: int | None  # the seat to move; None when nobody is (over, between rounds)
    direction: int  # 1 clockwise, -1 the other way
    top: str | None  # the top card of the discard pile
    named_suit: str | None  # the suit a wild card named
    debt: int  # cards owed by the seat on turn (a 7 chain)
    stock: int  # how many cards are in the stock (never their order)
    discard: int  # how many cards are in the discard pile
    missed: MissedCall | None  # a missed call whose challenge window is open
    seats: list[PublicSeat]
    round_points: list[list[int]]  # per finished round, per seat
    totals: list[int]  # per seat, the match so far
    winners: list[int]  # the winning seats once the match is over
    paused: bool  # a dispute is open
    over: bool
    turn_deadline: datetime | None  # when the seat on turn's clock runs out; None without a clock
    position: int
    # seconds from the answer to ``turn_deadline`` (0 once it passed); None without a clock
    seconds_left: float | None = None
    forfeited: list[int] = msgspec.field(default_factory=list)  # seats that forfeited, in that order
    abandoned: str | None = None  # why the match was called off unfinished: it counts for nobody
    # played with real cards: no hand, stock or turn here; rounds come from its score sheet
    in_person: bool = False


class HandView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's private view: its cards and what it may do now, beside the public table."""

    game_id: UUID
    seat: int
    cards: list[str]  # sorted by suit then rank
    drawn: str | None  # the card just drawn, while it may still be played
    legal: list[LegalMove]  # empty when it is not this seat's move (a challenge is the exception)
    table: PublicTable
    position: int


class RoundResult(msgspec.Struct, frozen=True, kw_only=True):
    round_no: int
    # as the engine's RoundEnded says: "went_out" (called correctly), "window_closed" (went out without
    # "Mau Mau", nobody challenged in time), "stock_exhausted" (a draw that could not be made: no winner),
    # "stalled" (the stock ran out again with every hand as at its last recycle: no winner)
    ended: Literal["went_out", "window_closed", "stock_exhausted", "stalled"]
    winner: int | None  # the seat that went out
    points: list[int]  # per seat, as the ruleset scores the round
    penalty_cards: list[int]  # per seat, cards drawn as penalties this round
    missed_calls: list[int]  # per seat, missed calls challenged this round


class MatchTotals(msgspec.Struct, frozen=True, kw_only=True):
    game_id: UUID
    league_id: UUID | None
    ruleset: str
    seats: list[PublicSeat]
    rounds: list[RoundResult]
    totals: list[int]
    winners: list[int]  # seats; more than one is a shared win
    over: bool
    position: int


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    # 1 is the best; equal rows share a rank; None: no finished match yet, listed after every ranked row
    rank: int | None
    player_id: UUID
    name: str
    matches_played: int  # finished matches
    matches_won: int  # outright wins
    matches_shared: int  # wins shared with another seat
    rounds_played: int
    rounds_won: int
    points: int  # the sum of the player's match totals
    average_points: float  # points per round played
    penalty_cards: int
    missed_calls: int
    bot_turns: int  # turns a clock bot played for the player (flagged)
    forfeits: int = 0  # matches forfeited by clock: each a match lost
    # the player's league rating (``RatingRead``), shown beside the standing; None: not rated yet
    rating: float | None = None  # the conservative value, mu - 3 sigma
    rating_provisional: bool = True


class Standings(msgspec.Struct, frozen=True, kw_only=True):
    league_id: UUID
    ruleset: str
    order: Literal["lowest_points", "highest_points"]
    tie_breaks: list[str]  # the keys the rows are ordered by, in the order they are applied
    rows: list[Standing]  # every member; one without a finished match with zeros, unranked, last
    position: int
    rule: str = ""  # the order in a sentence, the forfeit rule with it (docs/standings.md)


class PlayedGame(msgspec.Struct, frozen=True, kw_only=True):
    game_id: UUID
    league_id: UUID | None
    ruleset: str
    seat: int
    total: int
    result: Literal["playing", "won", "shared", "lost", "abandoned"]
    opponents: list[str]  # the other seats' names
    rounds: int
    ended_at: datetime | None
    # the other seats as ids, beside ``opponents``: a player's id, or "bot:<name>"
    opponent_ids: list[str] = msgspec.field(default_factory=list)


class PlayerHistory(msgspec.Struct, frozen=True, kw_only=True):
    player_id: UUID
    games: list[PlayedGame]  # newest first
    position: int


class KeptResult(msgspec.Struct, frozen=True, kw_only=True):
    """A result a ruling gave a table's game after the tournament could no longer take it."""

    totals: list[int]
    winners: list[int]


class TournamentTable(msgspec.Struct, frozen=True, kw_only=True):
    table: int
    entrants: list[str]  # in seat order: player ids, or "bot:<bot>#<n>" for a bot's place
    game_id: UUID | None  # once the round has started
    totals: list[int] | None  # per seat, once the table's game is over
    winners: list[int]  # seats
    finished: bool
    timed_out: list[int] | None = None  # per seat, turns a clock bot played, once the game is over
    forfeited: list[int] = msgspec.field(default_factory=list)  # seats that forfeited by clock
    # per seat, the round at whose end the seat was eliminated (0: never; empty: nobody was, or
    # the ruleset eliminates nobody): an elimination match places the later out better
    out_round: list[int] = msgspec.field(default_factory=list)
    abandoned: bool = False  # its game was in play when the tournament was cancelled: it counts for nobody
    in_person: bool = False  # played with real cards, its rounds entered by a scorer
    # the game's result after a later ruling, kept out of the tournament (docs/tournaments.md)
    kept: KeptResult | None = None
    # seats whose entrant had dropped out when the game was made: the plan's bot sat in, the seat's
    # result is the bot's and counts for nobody (docs/tournaments.md)
    stand_ins: list[int] = msgspec.field(default_factory=list)


class TournamentRound(msgspec.Struct, frozen=True, kw_only=True):
    round_no: int
    due_at: datetime | None  # None: when the previous round ends
    tables: list[TournamentTable]
    byes: list[str]
    out: list[str]  # single elimination: who this round put out
    finished: bool
    bye_points: int | None = None  # what each bye of the round scored, once the round is over


class TournamentPlacing(msgspec.Struct, frozen=True, kw_only=True):
    # 1 is the best, every rank distinct; None: no result yet (no table finished, no bye), listed
    # after every ranked entrant
    rank: int | None
    entrant: str
    name: str
    points: int
    wins: int
    tables: int
    byes: int
    bot_turns: int
    # the tie-breaks after points and wins (service.domain.pairing.rank): the mean points of the
    # opponents met (None: none met yet), and for single elimination the round reached
    opponents: float | None = None
    stage: int = 0
    forfeits: int = 0  # tables forfeited by clock: each a loss, scored the table's worst total
    dropped: bool = False  # dropped out: placed after everyone still playing
    # the league rating recorded at the start (the conservative value) when the plan seeds or breaks
    # ties by it; None for a bot, or when the plan does neither
    rating: float | None = None


class TournamentView(msgspec.Struct, frozen=True, kw_only=True):
    """The bracket: every round, table and result, and the ranking so far."""

    tournament_id: UUID
    league_id: UUID
    name: str
    format: str  # "round_robin", "swiss", "single_elimination"
    table_size: int
    planned_rounds: int | None
    status: Literal["announced", "running", "finished", "cancelled"]
    starts_at: datetime | None
    entrants: list[str]
    rounds: list[TournamentRound]
    ranking: list[TournamentPlacing]
    winners: list[str]
    position: int
    # the rest of the plan, as announced
    ruleset: str = ""
    interval: int | None = None  # seconds from one round's start to the next; None: as the previous ends
    target_score: int | None = None  # the match length: a target score, or one round, or neither (the
    single_round: bool = False  # league's own match end)
    turn_clock: int | None = None  # seconds per turn; a late turn is played by a bot, flagged
    places: int | None = None  # places a bot fills at the start when not taken
    fill_bot: str = "heuristic"
    names: dict[str, str] = msgspec.field(default_factory=dict)  # every entrant's name (a bot's: itself)
    # the keys the ranking is ordered by, in the order they are applied, and the same in a sentence
    tie_breaks: list[str] = msgspec.field(default_factory=list)
    rule: str = ""
    check_in_minutes: int | None = None  # the check-in opens this long before starts_at; None: no check-in
    check_in_opens: datetime | None = None
    checked_in: list[str] = msgspec.field(default_factory=list)  # before the start
    dropped: list[str] = msgspec.field(default_factory=list)  # no-shows at the start and those who withdrew
    cancelled: str | None = None  # the reason, once cancelled
    seeding: Literal["draw", "rating"] = "draw"  # the seed order: the seed's draw or the league rating
    rating_tie_break: bool = False  # the league rating breaks ties before the seed order
    in_person_tables: int = 0  # the plan's physical tables (docs/tournaments.md)


class NextGame(msgspec.Struct, frozen=True, kw_only=True):
    """A player's current or next tournament table: the one being played, else the next one due, else
    (between two rounds) the round still to be paired."""

    player_id: UUID
    tournament_id: UUID
    tournament: str  # its name
    round_no: int
    table: int | None  # None while the round is pending
    seat: int | None
    game_id: UUID | None  # None until the round's games are made
    # playing: the game is on; waiting: paired, the round has not started yet; pending: the round is
    # not paired yet (the previous round's last tables are still played)
    status: Literal["waiting", "playing", "pending"]
    # when the round is due to start (pending: at the earliest); None: when the previous round ends
    due_at: datetime | None
    turn_deadline: datetime | None  # the game's turn deadline, while this seat is to move under a clock
    position: int


# The lists (``GET /players``, ``/leagues``, ``/games``, ``/tournaments``, ``/disputes``): one item each.
GameStatus = Literal[
    "playing", "paused", "over", "abandoned"
]  # paused: a dispute is open (finished games too)
TournamentStatus = Literal["announced", "running", "finished", "cancelled"]


class ListedPlayer(msgspec.Struct, frozen=True, kw_only=True):
    player_id: UUID
    name: str


class ListedLeague(msgspec.Struct, frozen=True, kw_only=True):
    league_id: UUID
    name: str
    ruleset: str


class ListedGame(msgspec.Struct, frozen=True, kw_only=True):
    game_id: UUID
    league_id: UUID | None
    ruleset: str
    status: GameStatus
    round_no: int
    seats: list[PublicSeat]  # with their names
    winners: list[int]  # seats, once the match is over


class ListedMaoSeat(msgspec.Struct, frozen=True, kw_only=True):
    entrant: str  # a player's id, or a bot's name ("bot:learning")
    name: str  # the player's name as it is now; a bot's seat is named by its entrant


class ListedMaoMatch(msgspec.Struct, frozen=True, kw_only=True):
    game_id: UUID
    league_id: UUID
    status: Literal["playing", "over"]
    round_no: int  # the rounds dealt so far
    seats: list[ListedMaoSeat]
    wins: list[int]  # rounds won, per seat
    winner: int | None  # the seat that won the match, once it is over


class ListedTournament(msgspec.Struct, frozen=True, kw_only=True):
    tournament_id: UUID
    league_id: UUID
    name: str
    format: str
    table_size: int
    status: TournamentStatus
    starts_at: datetime | None
    entrants: int  # how many have joined (bots that filled places included once started)
    rounds: int  # rounds paired so far
    winners: list[str]  # entrants, once it is finished
    names: dict[str, str]  # each winner's name


class OpenDispute(msgspec.Struct, frozen=True, kw_only=True):
    """A dispute waiting for a ruling, as the officials who may rule on it see it."""

    game_id: UUID
    league_id: UUID | None  # None: a friendly game
    number: int  # the game's first dispute is 1
    raised_by: str  # the role that raised it: "player", "referee" or "admin"
    raised_by_id: str  # a player's id, a referee's id, an admin's credential
    raised_by_name: str | None  # a player's name (None for an official)
    seat: int | None  # the seat that raised it, when a player did
    about: int | None  # the event number it is about, when named
    reason: str
    raised_at: int  # the event number of the DisputeRaised


class LeagueOfMine(msgspec.Struct, frozen=True, kw_only=True):
    league_id: UUID
    name: str


class RatingRead(msgspec.Struct, frozen=True, kw_only=True):
    """A player's rating in a league (openskill Plackett-Luce; ``docs/ratings.md``)."""

    rank: int  # by ``rating``, the highest first; equal ratings share a rank
    player_id: UUID
    name: str
    rating: float  # the conservative value shown: mu - 3 sigma
    mu: float  # the estimated skill
    sigma: float  # its uncertainty
    matches: int  # matches rated
    provisional: bool  # fewer than ``provisional_matches`` matches rated


class LeagueRatingsRead(msgspec.Struct, frozen=True, kw_only=True):
    league_id: UUID
    model: str  # the openskill model: "PlackettLuce"
    provisional_matches: int  # a rating is provisional until this many matches are rated
    rows: list[RatingRead]
    position: int


class RatingChangeRead(msgspec.Struct, frozen=True, kw_only=True):
    """A player's rating after one rated match."""

    league_id: UUID
    game_id: UUID
    place: int  # the player's place in the match (1 is best; ties share a place)
    clock_played: bool  # the clock bot played more than half of the player's turns: not raised
    rating: float  # mu - 3 sigma after the match
    mu: float
    sigma: float
    position: int  # the log position at which the match finished


class PlayerRatingsRead(msgspec.Struct, frozen=True, kw_only=True):
    player_id: UUID
    history: list[RatingChangeRead]  # one per rated match, newest first, every league
    position: int
