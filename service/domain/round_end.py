"""How a round ends and is scored: a missed call's window closing on an empty hand, a round
ending (``round_end``: the face-down cards turned up), its scoring (``score_round``, the one path a
round played here and one entered from a score sheet share: eliminations, shrinking hands, the
match's end) and a score sheet's round (``score_entered``)."""

from service.domain.cards import (
    CARD_COUNT,
)
from service.domain.commands import (
    ScoreRound,
)
from service.domain.errors import RuleError
from service.domain.events import (
    DeclarationsRevealed,
    EndReason,
    Event,
    HandShrank,
    MatchEnded,
    PlayerEliminated,
    RoundEnded,
)
from service.domain.refusals import check_seat, phase_refusal
from service.domain.round_scoring import hand_value, round_losers, round_points
from service.domain.rulebook import MAU_MAU
from service.domain.rulesets import Ruleset
from service.domain.state import (
    DEAL,
    State,
)


def window_closes(s: State, hands: list[int]) -> list[Event]:
    """The turn after a missed call is complete: an unchallenged empty hand wins now."""
    assert s.missed is not None
    offender, call = s.missed
    if call == MAU_MAU and not hands[offender]:
        # nothing has covered the offender's last card yet: the turn closing the window is
        # still being decided
        return round_end(s, offender, "window_closed", hands, s.shown)
    return []


def round_end(s: State, winner: int, reason: EndReason, hands: list[int], last_card: int) -> list[Event]:
    book = s.book
    values = [hand_value(book, hand) for hand in hands]
    if s.face_down:  # blind: the cards still face down are turned up as the round ends
        revealed = DeclarationsRevealed(tuple(s.face_down))
        return [revealed, *score_round(s, s.round_no, winner, reason, values, last_card)]
    return score_round(s, s.round_no, winner, reason, values, last_card)


def score_round(
    s: State, round_no: int, winner: int, reason: EndReason, values: list[int], last_card: int = -1
) -> list[Event]:
    """The end of round ``round_no`` from the points each seat has left in hand (``values``) and
    the card the winner went out with (``last_card``, -1: none or not known).

    The one scoring path: a round played here passes its hands' points, a round entered from a
    score sheet the points of the cards the sheet names (or the points it gives).
    """
    rules = s.book.rules
    points = round_points(rules, winner, last_card, values)
    # lists, not generators, inside tuple(): a generator is resumed once per item
    totals = tuple([total + p for total, p in zip(s.totals, points, strict=True)])
    if rules.reset_totals:
        totals = tuple([0 if total in rules.reset_totals else total for total in totals])
    events: list[Event] = [RoundEnded(round_no, winner, reason, points, totals)]
    out = s.out
    if rules.elimination_total is not None:
        for seat, total in enumerate(totals):
            if total > rules.elimination_total and not out >> seat & 1:
                events.append(PlayerEliminated(seat, "over_ceiling", total))
                out |= 1 << seat
    if rules.shrinking_hands:
        for seat in round_losers(winner, values, s.out):
            size = s.hand_sizes[seat] if s.hand_sizes else rules.hand_size
            if size <= 1:
                events.append(PlayerEliminated(seat, "lost_holding_one_card", totals[seat]))
                out |= 1 << seat
            else:
                events.append(HandShrank(seat, size - 1))
    winners = _match_winners(s, rules, totals, out)
    if winners is not None:
        events.append(MatchEnded(winners, totals))
    return events


def _match_winners(s: State, rules: Ruleset, totals: tuple[int, ...], out: int) -> tuple[int, ...] | None:
    """Who wins the match with these totals and these seats out, None while it goes on."""
    standing = [seat for seat in range(s.seats) if not out >> seat & 1]
    if rules.winning_total is not None:
        outright = tuple(seat for seat in standing if totals[seat] == rules.winning_total)
        if outright:
            return outright
    last_standing = rules.elimination_total is not None or rules.shrinking_hands
    if last_standing and not rules.single_round:
        if len(standing) > 1:
            return None
        # Reading: when a round puts out every seat still in, those seats share the win
        return tuple(standing) or tuple(seat for seat in range(s.seats) if not s.out >> seat & 1)
    if not rules.single_round and max(totals) < rules.target_score:
        return None
    best = min(totals) if rules.match_winner == "lowest_total" else max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)


def score_entered(s: State, c: ScoreRound) -> list[Event]:
    if s.phase != DEAL:
        raise phase_refusal(s, "round_in_progress")
    if len(c.values) != s.seats:
        raise RuleError("seat_count", why="table_seats_not", seats=s.seats, count=len(c.values))
    if c.winner != -1:
        check_seat(s, c.winner)
    for seat, value in enumerate(c.values):
        if s.out >> seat & 1 and (value or seat == c.winner):
            raise RuleError("seat_out", why="seat_out_match", seat=seat)
    if c.last_card != -1:
        if c.winner == -1:
            raise RuleError("no_winner")
        if not 0 <= c.last_card < CARD_COUNT:
            raise RuleError("malformed_card", why="not_card", card=c.last_card)
        if not s.book.deck_mask >> c.last_card & 1:
            raise RuleError("card_not_in_deck", why="plays_without_card", name=s.book.rules.name)
    # a round stopped with no winner stopped because the stock could not give a draw (docs/rules/, section 5)
    reason: EndReason = "stock_exhausted" if c.winner == -1 else "went_out"
    return score_round(s, s.round_no + 1, c.winner, reason, list(c.values), c.last_card)
