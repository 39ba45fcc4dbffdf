"""A game record: every action of a game, one numbered line each, as plain text (docs/game-records.md).

``Record`` is the record as data: a header (the game, its rules, its seats) and one ``Line`` per
stored event, each a Struct of its own. ``record_render.render`` writes it as text;
``record_parse.parse_record`` reads the text back into the same ``Record``, so
``render(parse_record(text)) == text`` for any text ``render`` wrote. Which cards a record names
is not decided here: a record is built from entries already cut down to a sight (``record_of``),
so it holds what that sight holds.

In a line a seat is named by its label (``Header.seats``): a player's name, a bot's name, made
unique at the table. A label is written bare when it cannot be mistaken for a word of the format,
else as a JSON string (``"Ada Lovelace"``, ``"round"``).
"""

from typing import Any, Literal

import msgspec

from service.domain.cards import SUIT_NAMES, SUITS

VERSION_LINE = "maumau game record 1"

# Words a line begins with or puts where a label could stand: a label spelled so is quoted.
RESERVED = frozenset(
    (
        "game",
        "turned",
        "match",
        "round",
        "stock",
        "hidden",
        "salts",
        "dispute",
        "ruling",
        "event",
        "none",
        "no",
        "winner",
        "player",
        "bot",
        "admin",
        "referee",
        "system",
    )
)
SUIT_NAME = dict(zip(SUITS, SUIT_NAMES, strict=True))
SUIT_LETTER = {name: letter for letter, name in SUIT_NAME.items()}
# how a round ended, as the engine names it, and as a line says it after the winner's label
WON_BY = {"went_out": "went out", "window_closed": "went out unchallenged"}
NO_WINNER = {"stock_exhausted": "no winner, stock exhausted", "stalled": "no winner, stalled"}


class RecordSeat(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    label: str  # unique at the table
    kind: Literal["player", "bot"]
    id: str  # the player's id, or the bot's name


class Header(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    ruleset: str  # the preset's name
    options: dict[str, Any]  # the options that differ from the preset (rulesets.OPTIONS)
    league_id: str | None
    created: str  # ISO 8601, UTC
    turn_clock: int | None  # seconds per turn
    forfeit_after: int  # timeouts in a row that forfeit a seat; 0: never
    sight: Literal["public", "seat", "full"]
    seats: list[RecordSeat]
    sight_seat: int | None = None  # whose cards a seat's record shows


Cards = list[str]
Hands = list[tuple[int, Cards]]  # (seat, its cards), seat order


class Line(msgspec.Struct, frozen=True, kw_only=True, tag_field="line"):
    number: int  # the event number a referee cites


class GameCreated(Line, tag="created", frozen=True):
    pass


class MatchStarted(Line, tag="match_started", frozen=True):
    first_dealer: int


class Dealt(Line, tag="dealt", frozen=True):
    round_no: int
    dealer: int
    starter: str
    hand_size: int  # the most cards a seat is dealt
    stock: int  # cards left in the stock
    hands: Hands = []  # the seat's own in its sight, every one in the full sight
    # per seat, the cards dealt when hands differ (faraon's shrunk hands; 0 for a seat out of the
    # match); None: ``hand_size`` each
    sizes: list[int] | None = None
    stock_order: Cards | None = None  # top first (full sight)
    salt: str | None = None  # (full sight)


class SuitNamed(Line, tag="suit_named", frozen=True):
    seat: int
    suit: str  # "C", "D", "H", "S"


class Played(Line, tag="played", frozen=True):
    seat: int
    card: str
    suit: str | None = None  # named with a wild card
    call: str | None = None  # said: "mau", "mau_mau"
    missed: str | None = None  # due and not said
    more: list[str] | None = None  # quick: cards of its rank laid on it in the same play, the last on top
    declared: str | None = None  # blind: what the card, face down, was declared as (its player's sight)


class Drew(Line, tag="drew", frozen=True):
    seat: int
    count: int
    reason: str  # "turn", "debt", "penalty"
    cards: Cards | None = None  # in the drawer's sight and the full one


class Kept(Line, tag="kept", frozen=True):
    seat: int


class RanOut(Line, tag="ran_out", frozen=True):
    seat: int
    count: int
    reason: str


class Recycled(Line, tag="recycled", frozen=True):
    count: int
    order: Cards | None = None
    salt: str | None = None


class Reshuffled(Line, tag="reshuffled", frozen=True):
    counts: list[int]
    stock: int
    hands: Hands = []
    order: Cards | None = None
    salt: str | None = None


class Challenged(Line, tag="challenged", frozen=True):
    seat: int
    offender: int
    call: str


class RoundEnd(Line, tag="round_ended", frozen=True):
    round_no: int
    winner: int | None
    reason: str
    points: list[int]
    totals: list[int]


class MatchEnd(Line, tag="match_ended", frozen=True):
    winners: list[int]
    totals: list[int]


class Revealed(Line, tag="revealed", frozen=True):
    round_no: int
    salts: list[tuple[int, str]]  # (event number of the shuffle, its salt)


class DisputeRaised(Line, tag="dispute", frozen=True):
    dispute: int
    seat: int | None  # the seat that raised it, when a seated player did
    role: str  # else who did: "referee", "admin", "system"
    actor_id: str
    about: int | None
    reason: str


class SheetEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A round of a score sheet (a game played in person): by points or by the cards left."""

    winner: int | None
    points: list[int] | None = None
    hands: Hands | None = None  # every seat's cards left, seat order
    missed_calls: list[int] = []  # per seat; empty: none noted
    last_card: str | None = None  # the card the winner went out with, when the sheet says it


class RoundEntered(Line, tag="round_entered", frozen=True):
    round_no: int
    seat: int | None  # the seated player who entered it
    role: str  # else who did: "referee", "admin", "system"
    actor_id: str
    entry: SheetEntry


class RoundConfirmed(Line, tag="round_confirmed", frozen=True):
    round_no: int
    seat: int


class RulingGiven(Line, tag="ruling", frozen=True):
    dispute: int
    kind: Literal["resume", "penalty", "void", "correct"]
    seat: int | None = None  # penalty
    cards: int | None = None  # penalty
    from_event: int | None = None  # void
    round_no: int | None = None  # correct
    entry: SheetEntry | None = None  # correct: the round's entry in force now
    note: str = ""
    counts: list[int] | None = None  # a void: the cards each seat holds again
    hands: Hands = []
    stock_order: Cards | None = None


class TimedOut(Line, tag="timed_out", frozen=True):
    seat: int


class Forfeited(Line, tag="forfeited", frozen=True):
    seat: int
    turns: int


class Abandoned(Line, tag="abandoned", frozen=True):
    reason: str


class Chose(Line, tag="chose", frozen=True):
    """The player of a card that makes another player draw chose who (the draw is its own line)."""

    seat: int
    chosen: int


class TookSkip(Line, tag="took_skip", frozen=True):
    """The player facing a waiting skip took it: their turn is over, no card moved."""

    seat: int


class Passed(Line, tag="passed", frozen=True):
    """The player who could play again after a card of theirs ended the turn instead."""

    seat: int


class Annulled(Line, tag="annulled", frozen=True):
    """A deal that does not stand: a hand was dealt four of one rank; the dealer deals again."""

    round_no: int
    dealer: int
    seat: int
    rank: str  # "Q", "joker"
    order: Cards | None = None  # the annulled deal's deck, first card dealt first (full sight)
    salt: str | None = None  # (full sight)


class Eliminated(Line, tag="eliminated", frozen=True):
    seat: int
    reason: str  # "over_ceiling", "lost_holding_one_card"
    total: int


class Shrank(Line, tag="shrank", frozen=True):
    seat: int
    hand_size: int  # dealt from the next round on


class Doubted(Line, tag="doubted", frozen=True):
    """The next player challenged a face-down card (blind): turned up, a lie or the truth."""

    seat: int  # the challenger
    player: int
    card: str
    declared: str
    lied: bool


class TurnedUp(Line, tag="turned_up", frozen=True):
    """The round ended: the cards still face down (blind) are turned up."""

    plays: list[tuple[int, str, str]]  # seat, card, declared


class Other(Line, tag="other", frozen=True):
    """An event this format has no line for: its type, and its data when the sight shows it."""

    type: str
    data: str | None = None  # compact JSON


AnyLine = (
    GameCreated
    | MatchStarted
    | Dealt
    | SuitNamed
    | Played
    | Drew
    | Kept
    | RanOut
    | Recycled
    | Reshuffled
    | Challenged
    | RoundEnd
    | MatchEnd
    | Revealed
    | DisputeRaised
    | RulingGiven
    | TimedOut
    | Forfeited
    | Abandoned
    | RoundEntered
    | RoundConfirmed
    | Chose
    | TookSkip
    | Passed
    | Annulled
    | Eliminated
    | Shrank
    | Doubted
    | TurnedUp
    | Other
)


class Record(msgspec.Struct, frozen=True, kw_only=True):
    header: Header
    lines: list[AnyLine]
