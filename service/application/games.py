"""Games: create one, move in it (plays, draws, calls, challenges, clock turns), enter and confirm
the rounds of one played in person, and read it back (at any event, replayed, its list of events,
its shuffles)."""

import re
import secrets
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

import msgspec

from service.application.core import Outcome, _digest, _uuid, caused
from service.application.leagues import Leagues
from service.application.saving import retried
from service.domain.cards import (
    CARD_BITS,
    CARD_COUNT,
    CARD_PATTERN,
    SUIT_PATTERN,
    in_hand,
    not_a_card,
    parse_card,
    parse_suit,
)
from service.domain.clock import FORFEIT_AFTER, check_clock
from service.domain.commands import (
    Challenge,
    ChallengeDeclaration,
    ChoosePlayer,
    Command,
    DrawCard,
    KeepCard,
    NameSuit,
    PlayCard,
)
from service.domain.errors import RuleError
from service.domain.events import DealAnnulled, HiddenCardsReshuffled, RoundDealt, StockRecycled
from service.domain.fairness import verify
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.roles import SYSTEM, Actor
from service.domain.rulebook import MAU, MAU_MAU, NO_CALL
from service.domain.ruleset_options import check_options, with_options
from service.domain.ruleset_options import ruleset as make_ruleset
from service.domain.scoresheet import RoundEntry
from service.domain.seats import Seat, TableRef
from service.domain.state import State
from service.domain.views import Entry, TableView, entry_of, table_view
from service.observability import metrics

# Game ids made from a creation's idempotency key live under this namespace.
_KEYED_GAMES = uuid5(NAMESPACE_URL, "https://maumau.invalid/games")
# The options a league game may set on top of the league's: how long the match is (a tournament's plan).
MATCH_LENGTH_OPTIONS = ("target_score", "single_round")
_SHUFFLE_KINDS: dict[type, str] = {
    RoundDealt: "deal",
    DealAnnulled: "annulled_deal",
    StockRecycled: "recycle",
    HiddenCardsReshuffled: "reshuffle",
}
_CALLS = {"": NO_CALL, "mau": MAU, "mau_mau": MAU_MAU, "mau mau": MAU_MAU, "maumau": MAU_MAU}


class Shuffle(msgspec.Struct, frozen=True, kw_only=True):
    """One shuffle's public record: the commitment always; the salt and order once revealed."""

    number: int  # the event number of the deal or recycle
    round_no: int
    # "deal", "annulled_deal" (four of a kind: dealt again), "recycle", or "reshuffle" (after a void
    # reopened a revealed round)
    kind: str
    commitment: str
    salt: str | None = None
    order: tuple[int, ...] | None = None
    verified: bool | None = None  # None while the salt is secret


class Games(Leagues):
    def create_game(
        self,
        seats: Sequence[Seat | str | UUID],
        *,
        ruleset: str | None = None,
        options: Mapping[str, Any] | None = None,
        seed: str | int | None = None,
        deck: Sequence[int | str] | None = None,
        first_dealer: int | None = None,
        league_id: UUID | str | None = None,
        turn_clock: int | None = None,
        forfeit_after: int | None = FORFEIT_AFTER,
        in_person: bool = False,
        by: Actor = SYSTEM,
        key: str | None = None,
        game_id: UUID | None = None,
        table: TableRef | None = None,
    ) -> Outcome:
        """A new game, dealt: seats are player ids or ``"bot:<name>"``.

        ``in_person``: played with real cards, its rounds entered from a score sheet
        (``enter_round``): nothing is dealt, only players sit at it, and it keeps no turn clock
        (a league's neither).

        ``ruleset``: None is the league's, or ``club`` outside a league; a league's game that names
        another is refused (``ruleset_mismatch``), and one that sets more than the match length
        (``invalid_option``).

        A league's game gets the league's turn clock (``turn_clock`` instead, a tournament's plan's,
        when given) and its forfeit rule. A game outside a league (a friendly game) has the
        ``turn_clock`` given, if any, and then ``forfeit_after`` as a league's (None or 0: never);
        without a clock it keeps no forfeit rule, as before.

        ``seed`` is mixed with fresh secret entropy (``Game.create``), so a chosen seed
        foretells no deck and the same seed gives another deal in another game; a random
        secret one when not given (128 bits);
        ``deck`` (card names or ints, the first card dealt first) and
        ``first_dealer`` fix the first deal, for referees and admins only.
        With ``key``, the game's id follows from the key, so a retried
        creation finds the game made the first time.
        ``game_id``: the game's id instead (an imported record's own): refused when something is
        stored under it already (``game_exists``), unless it is the game this ``key`` made.
        ``table``: the tournament table the game is made for, which its ``Created`` carries.
        """
        seated = tuple(Seat.parse(seat) for seat in seats)
        players = [seat.name for seat in seated if seat.kind == "player"]
        if len(set(players)) != len(players):
            raise RuleError("player_seated_twice", why="player_take_seat")
        for player_id in players:
            self.get_player(player_id).check_not_erased()
        check_options(options or {})
        league = None
        if league_id is not None:
            league = self.get_league(league_id)
            if ruleset is not None and ruleset != league.rules.name:
                raise RuleError("ruleset_mismatch", name=league.rules.name, ruleset=ruleset)
            if set(options or {}) - set(MATCH_LENGTH_OPTIONS):
                raise RuleError(
                    "invalid_option",
                    why="league_game_plays",
                    match_length_options=", ".join(MATCH_LENGTH_OPTIONS),
                )
            rules = with_options(league.rules, **dict(options or {}))
            for player_id in players:
                if UUID(player_id) not in league.members:
                    raise RuleError("not_a_member", why="player_not_member", player_id=player_id)
        else:
            rules = make_ruleset(ruleset or "club", **dict(options or {}))
        clock, forfeits = None, 0
        if league is not None and not in_person:
            clock = turn_clock if turn_clock is not None else league.turn_clock
            forfeits = league.forfeit_after
        elif league is None:
            # a friendly game's own clock (an in-person one is refused it by Game.create); the forfeit
            # count is checked here, as without a clock it is dropped before Game.create sees it
            clock, forfeits = turn_clock, 0 if forfeit_after is None else forfeit_after
            check_clock(clock, forfeits)
            if clock is None:
                forfeits = 0
        cards = None if deck is None else tuple(_card(card) for card in deck)
        seed_text = secrets.token_hex(16) if seed is None else str(seed)
        # not the table: a table's key names it already, and a round half started by a version
        # whose games did not carry their table is finished with the same digest
        digest = _digest(
            "CreateGame",
            seated,
            rules,
            seed_text if seed is not None else None,
            cards,
            first_dealer,
            league_id,
            in_person,
            # a friendly game's own clock, only when it has one: the digests of games without stay
            *(() if league is not None or clock is None else (clock, forfeits)),
        )
        cause = Cause(by, "CreateGame", key, digest if key is not None else "")
        chosen = game_id  # the id the caller gave, None when the service makes one
        if game_id is None and key is not None:
            game_id = uuid5(_KEYED_GAMES, key)

        def attempt() -> Outcome:
            # a creation sent twice at once: the second's save meets the first's, and its next
            # attempt finds the game the key made
            if game_id is not None and key is not None:
                found = self._done_before(game_id, cause)
                if found is not None:
                    return found
            if chosen is not None and self.recorder.select_events(chosen, limit=1):
                raise RuleError("game_exists", why="stored", game_id=game_id)
            game = Game.create(
                ruleset=rules,
                seats=seated,
                seed=seed_text,
                cause=cause,
                deck=cards,
                first_dealer=first_dealer,
                league_id=league.id if league is not None else None,
                game_id=game_id,
                entropy=None if self.entropy is None else self.entropy(),
                turn_clock=clock,
                forfeit_after=forfeits,
                in_person=in_person,
                table=table,
            )
            return self._save_game(game, cause)

        return retried(attempt)

    def execute(
        self,
        game_id: UUID | str,
        command: Command,
        *,
        by: Actor = SYSTEM,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """One seat's move (an engine command: PlayCard, DrawCard, KeepCard, NameSuit, ChoosePlayer,
        Challenge)."""
        cause = Cause(by, type(command).__name__, key, _digest(command) if key is not None else "")
        with metrics.CountedMove(command):
            return self._change(
                game_id,
                cause,
                expected_version,
                lambda game, cause: game.execute(as_held(command, game.state), cause),
            )

    def play(
        self,
        game_id: UUID | str,
        seat: int,
        card: int | str,
        *,
        suit: int | str | None = None,
        call: int | str | None = None,
        more: Sequence[int | str] = (),
        declared: int | str | None = None,
        **options: Any,
    ) -> Outcome:
        """Play ``card`` ("10H" or its int), naming ``suit`` with a wild card, saying ``call``; with
        the quick modifier, ``more`` cards of its rank laid on it, the last on top; with the blind
        modifier, face down as the card ``declared``.

        A card named without its copy mark (or any joker) is the copy the seat holds (``as_held``).
        """
        command = PlayCard(
            seat,
            _card(card),
            _suit(suit),
            _call(call),
            tuple([_card(c) for c in more]),
            -1 if declared is None else _card(declared),
        )
        return self.execute(game_id, command, **options)

    def draw(self, game_id: UUID | str, seat: int, **options: Any) -> Outcome:
        return self.execute(game_id, DrawCard(seat), **options)

    def keep(self, game_id: UUID | str, seat: int, **options: Any) -> Outcome:
        return self.execute(game_id, KeepCard(seat), **options)

    def name_suit(self, game_id: UUID | str, seat: int, suit: int | str, **options: Any) -> Outcome:
        return self.execute(game_id, NameSuit(seat, _suit(suit, required=True)), **options)

    def choose_player(self, game_id: UUID | str, seat: int, chosen: int, **options: Any) -> Outcome:
        return self.execute(game_id, ChoosePlayer(seat, chosen), **options)

    def challenge(self, game_id: UUID | str, seat: int, **options: Any) -> Outcome:
        return self.execute(game_id, Challenge(seat), **options)

    def challenge_declaration(self, game_id: UUID | str, seat: int, **options: Any) -> Outcome:
        """Doubt the face-down card just played (blind): it is turned up, and the liar or the
        challenger draws."""
        return self.execute(game_id, ChallengeDeclaration(seat), **options)

    def time_out_turn(
        self,
        game_id: UUID | str,
        seat: int,
        *,
        by: Actor = SYSTEM,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """The seat's turn clock ran out: a clock bot plays that turn, flagged by ``TurnTimedOut``."""
        cause = caused(by, "TimeOutTurn", key, seat)
        return self._change(
            game_id, cause, expected_version, lambda game, cause: game.time_out_turn(seat, cause)
        )

    def enter_round(
        self,
        game_id: UUID | str,
        *,
        winner: int | None,
        hands: Sequence[Sequence[int | str]] | None = None,
        points: Sequence[int] | None = None,
        missed_calls: Sequence[int] | None = None,
        last_card: int | str | None = None,
        by: Actor = SYSTEM,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """The next round of a game played in person, from its score sheet (docs/score-sheets.md).

        ``winner``: the seat that went out, None when the round stopped with no winner. Per seat,
        either ``hands`` (the cards left: names such as ``"10H"`` or ints) or ``points`` (what
        those cards are worth, the winner's 0); ``missed_calls``: per seat, the missed calls
        challenged (noted, they cost cards and never points); ``last_card``: the card the winner
        went out with, when the sheet says it (``round_scoring``). Refused with a ``RuleError`` and
        nothing stored when the entry is impossible or ``by`` is neither seated nor an official.
        """
        entry = round_entry(winner, hands, points, missed_calls, last_card)
        cause = caused(by, "EnterRound", key, entry)

        def enter(game: Game, cause: Cause) -> None:
            if game.league_id is not None and by.role == "referee":
                self._check_league_official(game.league_id, by)
            game.enter_round(entry, cause)

        return self._change(game_id, cause, expected_version, enter)

    def confirm_round(
        self,
        game_id: UUID | str,
        round_no: int,
        *,
        by: Actor,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """A seated player, not the one who entered it, confirms round ``round_no``'s entry."""
        cause = caused(by, "ConfirmRound", key, round_no)
        return self._change(
            game_id, cause, expected_version, lambda game, cause: game.confirm_round(round_no, cause)
        )

    def _check_league_official(self, league_id: UUID, by: Actor) -> None:
        if by.id not in self.get_league(league_id).referees:
            raise RuleError("not_allowed", why="league_rounds")

    def abandon_game(
        self, game_id: UUID | str, reason: str, *, by: Actor = SYSTEM, key: str | None = None
    ) -> Outcome:
        """Call the match off unfinished (its tournament was cancelled): ``Abandoned``; it counts for
        nobody and every later command is refused with ``game_abandoned``."""
        cause = caused(by, "AbandonGame", key, reason)
        return self._change(game_id, cause, None, lambda game, cause: game.abandon(reason, cause))

    # ------------------------------------------------------------------
    # reading: the game, replay, the list of events, the shuffles

    def get_game(self, game_id: UUID | str) -> Game:
        return self._get(Game, game_id, "game_not_found")

    def game_at(self, game_id: UUID | str, number: int | None = None) -> Game:
        """The game as it was right after event ``number`` (the latest when None)."""
        if number is None:
            return self.get_game(game_id)
        if not isinstance(number, int) or number < 1:
            raise RuleError("no_such_event", why="below_one", number=number)
        game = self._get(Game, game_id, "game_not_found", version=number)
        if game.version < number:
            raise RuleError("no_such_event", why="beyond", version=game.version, number=number)
        return game

    def state_at(self, game_id: UUID | str, number: int) -> State:
        return self.game_at(game_id, number).state

    def replay(self, game_id: UUID | str, number: int | None = None) -> TableView:
        """Everything on and under the table right after event ``number``: the referee's view."""
        return table_view(self.game_at(game_id, number))

    def game_events(self, game_id: UUID | str, after: int = 0, limit: int | None = None) -> list[Any]:
        """The stored Game events, in order; ``originator_version`` is each one's number."""
        events = list(self.events.get(_uuid(game_id, "game_not_found"), gt=after or None, limit=limit))
        if after == 0 and not (events and isinstance(events[0], Game.Created)):
            raise RuleError("game_not_found")
        return events

    def history(self, game_id: UUID | str, after: int = 0, limit: int | None = None) -> list[Entry]:
        """The numbered list of a game's events, for the referee."""
        return [entry_of(event) for event in self.game_events(game_id, after, limit)]

    def shuffles(self, game_id: UUID | str) -> list[Shuffle]:
        """Every deal, recycle and reshuffle with its commitment; salts and orders of finished rounds,
        verified."""
        found: dict[int, Shuffle] = {}
        round_no = 0
        for event in self.game_events(game_id):
            if isinstance(event, Game.Shuffled):
                fact = event.fact
                if isinstance(fact, RoundDealt | DealAnnulled):
                    round_no = fact.round_no
                found[event.originator_version] = Shuffle(
                    number=event.originator_version,
                    round_no=round_no,
                    kind=_SHUFFLE_KINDS[type(fact)],
                    commitment=event.commitment,
                    order=tuple(fact.deck if isinstance(fact, RoundDealt | DealAnnulled) else fact.order),
                )
            elif isinstance(event, Game.RulingGiven) and event.restored is not None:
                round_no = event.restored.round_no  # a void may go back to an earlier round
            elif isinstance(event, Game.DeckRevealed):
                for revealed in event.salts:
                    shuffle = found[revealed.number]
                    found[revealed.number] = msgspec.structs.replace(
                        shuffle,
                        salt=revealed.salt,
                        verified=verify(shuffle.commitment, revealed.salt, shuffle.order or ()),
                    )
        # the order of a shuffle whose salt is still secret is not public
        return [
            shuffle if shuffle.salt is not None else msgspec.structs.replace(shuffle, order=None)
            for shuffle in found.values()
        ]


def round_entry(
    winner: int | None,
    hands: Sequence[Sequence[int | str]] | None,
    points: Sequence[int] | None,
    missed_calls: Sequence[int] | None,
    last_card: int | str | None = None,
) -> RoundEntry:
    """A score sheet's round as the domain takes it: cards as ints (``Game.enter_round`` checks it)."""
    if winner is not None and type(winner) is not int:
        raise RuleError("not_a_seat", why="winner", winner=winner)
    return RoundEntry(
        winner=winner,
        hands=None if hands is None else tuple(tuple(_card(card) for card in hand) for hand in hands),
        points=None if points is None else tuple(points),
        missed_calls=tuple(missed_calls or ()),
        last_card=None if last_card is None else _card(last_card),
    )


def as_held(command: Command, s: State) -> Command:
    """A played card as the seat holds it: copies of a card play alike, and so do all jokers.

    The card just drawn comes first, since after a draw only it may be played. A card the seat
    holds in no copy is left as named, for the engine to refuse.
    """
    if (
        type(command) is not PlayCard
        or not 0 <= command.seat < len(s.hands)
        or not 0 <= command.card < CARD_COUNT
    ):
        return command
    held = command.card
    if s.drawn >= 0 and s.turn == command.seat:
        held = in_hand(held, CARD_BITS[s.drawn])
    if held != s.drawn:
        held = in_hand(command.card, s.hands[command.seat])
    if command.more:
        # each card laid on it is a copy not yet taken by the cards under it
        rest = s.hands[command.seat] & ~CARD_BITS[held]
        more = []
        for c in command.more:
            if 0 <= c < CARD_COUNT:
                c = in_hand(c, rest)
                rest &= ~CARD_BITS[c]
            more.append(c)
        return msgspec.structs.replace(command, card=held, more=tuple(more))
    return command if held == command.card else msgspec.structs.replace(command, card=held)


def _card(card: int | str) -> int:
    if isinstance(card, str):
        if re.fullmatch(CARD_PATTERN, card) is None:  # as the document says; parse_card would trim
            raise not_a_card(card)
        return parse_card(card)
    if type(card) is not int or not 0 <= card < CARD_COUNT:
        raise RuleError("malformed_card", why="not_card", card=card)
    return card


def _suit(suit: int | str | None, required: bool = False) -> int:
    if suit is None and not required:
        return -1
    if isinstance(suit, str):
        if re.fullmatch(SUIT_PATTERN, suit) is None:  # as the document says; parse_suit would trim
            raise RuleError("malformed_suit", why="not_suit_use", suit=suit)
        return parse_suit(suit)
    if type(suit) is not int or not 0 <= suit < 4:
        raise RuleError("malformed_suit", why="not_suit", suit=suit)
    return suit


def _call(call: int | str | None) -> int:
    if call is None:
        return NO_CALL
    if isinstance(call, str):
        found = _CALLS.get(call.strip().lower().replace("-", "_"))
        if found is None:
            raise RuleError("malformed_call", why="not_call_say", call=call)
        return found
    if type(call) is not int or call not in (NO_CALL, MAU, MAU_MAU):
        raise RuleError("malformed_call", why="not_call", call=call)
    return call
