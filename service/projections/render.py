"""A tracked game, drawn as the documents the read models store.

``GameDoc`` holds everything the table, hand and totals reads answer from
(the reader cuts a seat's hand out of it, never another's). Player names and
the position are not stored: the reader fills them in when it answers, so a
renamed player shows the new name everywhere at once.

Legal moves come from the engine (``legal_actions``), in the words a move
request uses (``LegalMove``): a jack's play is listed once per suit it may
name, as the engine lists it. Nothing is legal while a dispute is open, nor for
a seat that forfeited (a bot plays it).

Winners, and what a match adds to histories and standings, are the game's
``result``: a seat that forfeited by clock never wins and scores the table's worst.
"""

from datetime import datetime, timedelta
from typing import Any, Literal
from uuid import UUID

import msgspec

from service.domain.actions import (
    BLIND_PLAY,
    CHALLENGE,
    CHALLENGE_DECLARATION,
    CHOOSE,
    DRAW,
    KEEP,
    NAME_SUIT,
    SEVERAL_PLAY,
    WILD_PLAY,
    blind_play,
    several_cards,
)
from service.domain.cards import CARD_COUNT, format_card, format_cards, format_suit
from service.domain.commands import MOST_SEATS
from service.domain.legal import legal_actions
from service.domain.rulebook import CALL_NAMES
from service.domain.seats import Seat
from service.domain.state import DEAL, NEW, OVER, PHASE_NAMES
from service.projections.fold import Facts, Tracked
from service.projections.models import LegalMove, MissedCall, PublicSeat, PublicTable, RoundResult
from service.projections.standings import STATS


class HandDoc(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    cards: list[str]
    drawn: str | None
    legal: list[LegalMove]


class GameDoc(msgspec.Struct, frozen=True, kw_only=True):
    table: PublicTable  # names of player seats and the position are left empty
    hands: list[HandDoc]
    rounds: list[RoundResult]


# a player's result in one game, as their history shows it
Outcome = Literal["playing", "won", "shared", "lost", "abandoned"]


class Played(msgspec.Struct, frozen=True, kw_only=True):
    """One player's line in their history, with the other seats as seats (the reader names them)."""

    game_id: UUID
    league_id: UUID | None
    ruleset: str
    seat: int
    total: int
    result: Outcome
    opponents: list[Seat]
    rounds: int
    ended_at: datetime | None


def _legal_move(action: int) -> LegalMove:
    if action >= BLIND_PLAY:
        card, declared, suit = blind_play(action)
        named = format_suit(suit) if suit >= 0 else None
        return LegalMove(kind="play", card=format_card(card), suit=named, declared=format_card(declared))
    if action >= SEVERAL_PLAY:
        cards, suit = several_cards(action)
        named = format_suit(suit) if suit >= 0 else None
        return LegalMove(kind="play", card=format_card(cards[0]), suit=named, more=format_cards(cards[1:]))
    if action < WILD_PLAY:
        return LegalMove(kind="play", card=format_card(action))
    if action < DRAW:
        card, suit = (action - WILD_PLAY) >> 2, action & 3
        return LegalMove(kind="play", card=format_card(card), suit=format_suit(suit))
    if action == DRAW:
        return LegalMove(kind="draw")
    if action == KEEP:
        return LegalMove(kind="keep")
    if action == CHALLENGE:
        return LegalMove(kind="challenge")
    if action == CHALLENGE_DECLARATION:
        return LegalMove(kind="challenge_declaration")
    if action >= CHOOSE:
        return LegalMove(kind="choose_player", player=action - CHOOSE)
    return LegalMove(kind="name_suit", suit=format_suit(action - NAME_SUIT))


# every action as a hand's legal moves show it, for any card of either deck
LEGAL_MOVES = {
    action: _legal_move(action)
    for action in (
        *range(CARD_COUNT),
        *range(WILD_PLAY, WILD_PLAY + 4 * CARD_COUNT),
        DRAW,
        KEEP,
        CHALLENGE,
        CHALLENGE_DECLARATION,
        *range(NAME_SUIT, NAME_SUIT + 4),
        *range(CHOOSE, CHOOSE + MOST_SEATS),
    )
}


def game_doc(tracked: Tracked, facts: Facts) -> GameDoc:
    return GameDoc(table=public_table(tracked, facts), hands=hands(tracked), rounds=rounds(tracked, facts))


def public_table(tracked: Tracked, facts: Facts) -> PublicTable:
    game = tracked.game
    s = game.state
    totals = list(s.totals) or [0] * len(game.seats)
    result = game.result()
    timed_out = [0] * len(game.seats)
    for mark in facts.timeouts:
        timed_out[mark.seat] += 1
    seats = [
        PublicSeat(
            seat=index,
            kind=occupant.kind,
            player_id=UUID(occupant.name) if occupant.kind == "player" else None,
            bot=occupant.name if occupant.kind == "bot" else None,
            name="" if occupant.kind == "player" else f"bot:{occupant.name}",
            cards=s.hands[index].bit_count() if s.hands else 0,
            total=totals[index],
            timed_out_turns=timed_out[index],
            forfeited=index in result.forfeited,
            out=bool(s.out >> index & 1),
        )
        for index, occupant in enumerate(game.seats)
    ]
    phase = s.phase
    turn = None if phase in (NEW, DEAL, OVER) else game.seat_to_move
    return PublicTable(
        game_id=game.id,
        league_id=game.league_id,
        ruleset=game.ruleset.name,
        version=game.version,
        phase=PHASE_NAMES[phase],
        round_no=s.round_no,
        dealer=s.dealer,
        turn=turn,
        direction=s.direction,
        top=format_card(s.shown) if s.discard else None,  # a face-down top (blind) as declared
        named_suit=format_suit(s.named_suit) if s.named_suit >= 0 else None,
        debt=s.debt,
        stock=len(s.stock),
        discard=len(s.discard),
        missed=MissedCall(s.missed[0], CALL_NAMES[s.missed[1]] or "") if s.missed else None,
        seats=seats,
        round_points=[list(points) for points in s.round_points],
        totals=totals,
        winners=list(result.winners),
        paused=game.paused,
        over=phase == OVER,
        turn_deadline=turn_deadline(tracked, turn),
        position=0,
        forfeited=list(result.forfeited),
        abandoned=game.abandoned,
        in_person=game.in_person,
    )


def turn_deadline(tracked: Tracked, turn: int | None) -> datetime | None:
    """When the clock of the person to move runs out: the game's last event and the turn clock.

    The workers set the clock afresh at every event while the person is to move (a draw
    starts it again), after the bots' think delay: the clock runs out at this time at the earliest.
    None for a bot's turn (a forfeited seat's too), a game without a clock, a paused or finished game.
    """
    game = tracked.game
    clock = game.turn_clock if game.turn_clock is not None else tracked.ledger.turn_clock
    if clock is None or turn is None or game.paused or game.abandoned or game.bot_for(turn) is not None:
        return None
    return game.modified_on + timedelta(seconds=clock)


def hands(tracked: Tracked) -> list[HandDoc]:
    return [hand(tracked, seat) for seat in range(len(tracked.game.seats))]


def hand(tracked: Tracked, seat: int) -> HandDoc:
    game = tracked.game
    s = game.state
    mine = not game.paused and s.phase != OVER and game.abandoned is None and seat not in game.forfeited
    # a play of several cards (quick) is made into words when met: there are too many to list
    legal = [LEGAL_MOVES.get(a) or _legal_move(a) for a in legal_actions(s, seat)] if mine else []
    return HandDoc(
        seat=seat,
        cards=format_cards(s.hands[seat]) if s.hands else [],
        drawn=format_card(s.drawn) if s.drawn >= 0 and s.turn == seat else None,
        legal=legal,
    )


def rounds(tracked: Tracked, facts: Facts) -> list[RoundResult]:
    game = tracked.game
    s = game.state
    seats = len(game.seats)
    sheets = game.sheets
    results = []
    for end, points in zip(facts.rounds, s.round_points, strict=True):
        penalty_cards, missed_calls = [0] * seats, [0] * seats
        for mark in facts.penalties:
            if mark.round_no == end.round_no:
                penalty_cards[mark.seat] += mark.count
        for mark in facts.challenges:
            if mark.round_no == end.round_no:
                missed_calls[mark.seat] += mark.count
        sheet = sheets.get(end.round_no) if game.in_person else None
        if sheet is not None and sheet.entry.missed_calls:
            # the sheet's note: each missed call challenged cost the ruleset's penalty in cards
            missed_calls = list(sheet.entry.missed_calls)
            penalty_cards = [count * game.ruleset.call_penalty for count in missed_calls]
        results.append(
            RoundResult(
                round_no=end.round_no,
                ended=end.reason,
                winner=end.winner if end.winner >= 0 else None,
                points=list(points),
                penalty_cards=penalty_cards,
                missed_calls=missed_calls,
            )
        )
    return results


def played(tracked: Tracked, facts: Facts) -> list[tuple[UUID, Played]]:
    """One history line per player seat."""
    game = tracked.game
    s = game.state
    result = game.result()
    over = s.phase == OVER
    lines = []
    for seat, occupant in enumerate(game.seats):
        if occupant.kind != "player":
            continue
        outcome: Outcome
        if game.abandoned is not None:
            outcome = "abandoned"
        elif not over:
            outcome = "playing"
        elif seat in result.winners:
            outcome = "won" if len(result.winners) == 1 else "shared"
        else:
            outcome = "lost"
        line = Played(
            game_id=game.id,
            league_id=game.league_id,
            ruleset=game.ruleset.name,
            seat=seat,
            total=result.totals[seat],
            result=outcome,
            opponents=[other for index, other in enumerate(game.seats) if index != seat],
            rounds=len(s.round_points),
            ended_at=facts.ended_at if over else None,
        )
        lines.append((UUID(occupant.name), line))
    return lines


def contribution(tracked: Tracked, facts: Facts) -> list[tuple[Any, ...]] | None:
    """What the match adds to its league's standings: one row per player seat, once it is over.

    Each row is the player's id (text) and then a number per ``standings.STATS`` field.
    """
    game = tracked.game
    s = game.state
    if game.league_id is None or s.phase != OVER:
        return None
    result = game.result()
    # a game played in person has its missed calls challenged on its score sheet, not in its log
    noted = [0] * len(game.seats)
    for sheet in game.rounds():
        for index, count in enumerate(sheet.entry.missed_calls):
            noted[index] += count
    rows = []
    for seat, occupant in enumerate(game.seats):
        if occupant.kind != "player":
            continue
        won = seat in result.winners
        stats = {
            "matches_played": 1,
            "matches_won": int(won and len(result.winners) == 1),
            "matches_shared": int(won and len(result.winners) > 1),
            "rounds_played": len(s.round_points),
            "rounds_won": sum(1 for end in facts.rounds if end.winner == seat),
            "points": result.totals[seat],
            "penalty_cards": sum(mark.count for mark in facts.penalties if mark.seat == seat)
            + noted[seat] * game.ruleset.call_penalty,
            "missed_calls": sum(mark.count for mark in facts.challenges if mark.seat == seat) + noted[seat],
            "bot_turns": sum(mark.count for mark in facts.timeouts if mark.seat == seat),
            "forfeits": int(seat in result.forfeited),
        }
        rows.append((occupant.name, *(stats[name] for name in STATS)))
    return rows
