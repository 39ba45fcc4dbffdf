"""Mao's decider: ``decide(state, command) -> events`` and ``fold(events)``.

Nothing here draws a random number: deals and recycles arrive as data (``DealRound``,
``RecycleStock``). ``decide`` works on a scratch copy of the state, applying each event as
it is decided, so that a later step (giving the cards owed) sees what an earlier one did.

| command       | events                                                                 |
|---------------|------------------------------------------------------------------------|
| StartMatch    | MatchStarted, RuleWritten                                              |
| WriteRule     | RuleWritten (the judge, before the deal)                               |
| DealRound     | (RuleWritten, when nobody wrote one), RoundDealt                       |
| PlayCard      | on turn: CardPlayed or PlayReturned + PenaltyGiven; out of turn:       |
|               | PlayCancelled + PenaltyGiven; then CallMade / Spoke for what it says   |
| DrawCard      | CardDrawn, CardTaken                                                   |
| Say           | CallMade, or Spoke + PenaltyGiven; in a pause, about order or safety:  |
|               | TalkedInPause                                                          |
| CallPause     | PauseCalled; EndPause: PauseEnded                                      |
| RecycleStock  | StockRecycled, CardTaken...                                            |
| ProposeRule   | RuleProposed (+ RuleApproved, RuleWritten with the server as judge)    |
| ApproveRule   | RuleApproved, RuleWritten; RefuseRule: RuleRefused                     |

The next player's first act (a play, returned or not, or a draw) closes the call window of
the play before it: each call still missing gives CallMissed + PenaltyGiven first. Penalty
cards are owed, then given from the stock (CardTaken); an empty stock asks for a recycle
(StockRanOut), and when there is nothing to recycle the round stops (RoundEnded). A round's
end reveals its rule (RuleRevealed) and may end the match (MatchEnded). A seat's forfeit may end
the match at once (``end_by_forfeit``): the round in play ends, "forfeited", won by nobody.
"""

from collections.abc import Iterable
from typing import assert_never

from service.domain.cards import FULL_DECK
from service.domain.errors import RuleError
from service.domain.folding import fold_into
from service.domain.mao.commands import (
    PAUSE_TOPICS,
    REFEREE,
    SERVER,
    ApproveRule,
    CallPause,
    Command,
    DealRound,
    DrawCard,
    EndPause,
    PlayCard,
    ProposeRule,
    RecycleStock,
    RefuseRule,
    Say,
    StartMatch,
    WriteRule,
)
from service.domain.mao.compatibility import check_compatible
from service.domain.mao.events import (
    CallMade,
    CallMissed,
    CardDrawn,
    CardPlayed,
    CardTaken,
    Event,
    MatchEnded,
    MatchStarted,
    PauseCalled,
    PauseEnded,
    PenaltyGiven,
    PlayCancelled,
    PlayReturned,
    RoundDealt,
    RoundEnded,
    RuleApproved,
    RuleProposed,
    RuleRefused,
    RuleRevealed,
    RuleWritten,
    Spoke,
    StockRanOut,
    StockRecycled,
    TalkedInPause,
)
from service.domain.mao.judge import draw_clauses, evaluate, triggered_by
from service.domain.mao.rule import Rule, format_rule, parse_rule
from service.domain.mao.speech import calls_due, kind_of
from service.domain.mao.state import DEAL, NEW, OVER, PLAY, RECYCLE, State
from service.domain.mao.words import normalise
from service.domain.refusals import check_seat

MIN_SEATS, MAX_SEATS = 3, 6
MAX_UTTERANCE = 80
JUDGES = (SERVER, REFEREE)


class _Out:
    """The events decided so far, applied to a scratch state as they come."""

    def __init__(self, s: State) -> None:
        self.s = s.copy()
        self.events: list[Event] = []

    def add(self, *events: Event) -> None:
        for event in events:
            event.apply(self.s)
            self.events.append(event)


def decide(s: State, command: Command) -> list[Event]:
    out = _Out(s)
    # the most frequent commands first: a class pattern that misses costs an isinstance check
    match command:
        case PlayCard():
            _play(out, command)
        case DrawCard():
            _draw(out, command)
        case Say():
            _say(out, command)
        case DealRound():
            _deal(out, command)
        case RecycleStock():
            _recycle(out, command)
        case CallPause():
            _call_pause(out, command)
        case EndPause():
            _end_pause(out, command)
        case ProposeRule():
            _propose(out, command)
        case ApproveRule():
            _approve(out, command)
        case RefuseRule():
            _refuse(out, command)
        case WriteRule():
            _write(out, command)
        case StartMatch():
            _start(out, command)
        case _:
            assert_never(command)
    return out.events


def fold(events: Iterable[Event], s: State | None = None) -> State:
    return fold_into(State() if s is None else s, events)


# ---------------------------------------------------------------------------
# rules and rounds


def checked_rule(text: str) -> Rule:
    """The rule a text states, refused when malformed or incompatible."""
    rule = parse_rule(text)
    check_compatible(rule)
    return rule


def _start(out: _Out, c: StartMatch) -> None:
    if out.s.phase != NEW:
        raise RuleError("match_already_started")
    if not MIN_SEATS <= c.seats <= MAX_SEATS:
        raise RuleError("player_count", why="mao_players", min_seats=MIN_SEATS, max_seats=MAX_SEATS)
    if not 0 <= c.first_dealer < c.seats:
        raise RuleError("not_a_seat", why="seat", seat=c.first_dealer)
    if c.hand_size < 1 or c.seats * c.hand_size + 1 > len(FULL_DECK):
        raise RuleError("invalid_option", why="hand_size_hands")
    if c.rounds_to_win < 1:
        raise RuleError("invalid_option", why="rounds_win_least")
    if c.judge not in JUDGES:
        raise RuleError("invalid_option", why="judge_server_referee")
    rule = checked_rule(c.secret_rule)
    out.add(
        MatchStarted(c.seats, c.first_dealer, c.hand_size, c.rounds_to_win, c.judge),
        RuleWritten(1, format_rule(rule), c.judge),
    )


def _write(out: _Out, c: WriteRule) -> None:
    _between_rounds(out.s)
    out.add(RuleWritten(out.s.round_no + 1, format_rule(checked_rule(c.text)), out.s.judge))


def _deal(out: _Out, c: DealRound) -> None:
    s = out.s
    _between_rounds(s)
    if s.proposal is not None:
        raise RuleError("proposal_pending", why="judge_first_approve")
    if sorted(c.deck) != list(FULL_DECK):
        raise RuleError("invalid_deck", why="deck_cards")
    if s.rule_round != s.round_no + 1:
        # nobody wrote a new rule: the last one carries on, known to all since its reveal
        assert s.rule is not None
        out.add(RuleWritten(s.round_no + 1, format_rule(s.rule), SERVER))
    out.add(RoundDealt(s.round_no + 1, s.next_dealer, tuple(c.deck)))


def _propose(out: _Out, c: ProposeRule) -> None:
    s = out.s
    _between_rounds(s)
    check_seat(s, c.seat)
    if s.round_no == 0 or c.seat != s.last_winner:
        raise RuleError("not_round_winner")
    if s.proposal is not None:
        raise RuleError("proposal_pending", why="proposed_rule_awaits")
    text = format_rule(checked_rule(c.text))
    out.add(RuleProposed(c.seat, text))
    if s.judge == SERVER:
        out.add(RuleApproved(text), RuleWritten(s.round_no + 1, text, SERVER))


def _approve(out: _Out, c: ApproveRule) -> None:
    s = out.s
    if s.proposal is None:
        raise RuleError("no_proposal")
    text = format_rule(s.proposal[1])
    out.add(RuleApproved(text), RuleWritten(s.round_no + 1, text, s.judge))


def _refuse(out: _Out, c: RefuseRule) -> None:
    s = out.s
    if s.proposal is None:
        raise RuleError("no_proposal")
    out.add(RuleRefused(format_rule(s.proposal[1]), "refused_by_judge"))


def _between_rounds(s: State) -> None:
    if s.phase != DEAL:
        raise _refusal(s)


# ---------------------------------------------------------------------------
# the table


def _play(out: _Out, c: PlayCard) -> None:
    s = out.s
    _check_acting(s, c.seat)
    if not 0 <= c.card < len(FULL_DECK):
        raise RuleError("malformed_card", why="not_card", card=c.card)
    if not s.hands[c.seat] >> c.card & 1:
        raise RuleError("card_not_in_hand", why="that_card")
    says = [_words(words) for words in c.says]
    seat, card = c.seat, c.card
    if seat != s.turn:
        out.add(PlayCancelled(seat, card), PenaltyGiven(seat, "out_of_turn"))
    else:
        _close_window(out)
        assert s.rule is not None
        reason = evaluate(s.rule, s.top, s.in_force, card)
        following = (seat + 1) % s.seats
        if reason is not None:
            out.add(PlayReturned(seat, card, reason, following), PenaltyGiven(seat, reason))
        else:
            left = s.hands[seat].bit_count() - 1
            due = calls_due(s.rule, card, left)
            out.add(CardPlayed(seat, card, triggered_by(s.rule, card), due, following))
    for words in says:
        if _speak(out, seat, words):
            return
    _give(out)


def _draw(out: _Out, c: DrawCard) -> None:
    s = out.s
    _check_acting(s, c.seat)
    if c.seat != s.turn:
        # only a card put on the table out of turn is penalised; a draw out of turn is just refused
        raise RuleError("not_your_turn", why="turn")
    _close_window(out)
    assert s.rule is not None
    in_force = tuple(sorted(set(s.in_force) | set(draw_clauses(s.rule))))
    out.add(CardDrawn(c.seat, in_force, (c.seat + 1) % s.seats))
    _give(out)


def _say(out: _Out, c: Say) -> None:
    if c.about:
        _talk_in_pause(out, c)
        return
    _check_acting(out.s, c.seat)
    if not _speak(out, c.seat, _words(c.words)):
        _give(out)


def _talk_in_pause(out: _Out, c: Say) -> None:
    """Talk about the turn order or safety, the only talk a pause allows; the server cannot hear what
    words are about, so it takes the speaker's word for it and the log shows the words to all."""
    s = out.s
    _check_table(s, c.seat)
    if c.about not in PAUSE_TOPICS:
        raise RuleError("malformed_utterance", why="talk_pause_about", pause_topics=" or ".join(PAUSE_TOPICS))
    if s.paused_by < 0:
        raise RuleError("not_paused", why="talk_about_turn")
    out.add(TalkedInPause(c.seat, c.about, _words(c.words)))


def _speak(out: _Out, seat: int, words: str) -> bool:
    """Record one utterance; True when it won the round."""
    s = out.s
    window = s.window
    if window is not None and window.seat == seat and words in window.missing():
        out.add(CallMade(seat, words))
        if not s.hands[seat] and len(window.missing()) == 1:  # that was the last call due
            _round_end(out, seat, "went_out")
            return True
        return False
    out.add(Spoke(seat, words), PenaltyGiven(seat, "extra_utterance"))
    return False


def _close_window(out: _Out) -> None:
    window = out.s.window
    if window is None:
        return
    for words in window.missing():
        out.add(CallMissed(window.seat, words, kind_of(words)), PenaltyGiven(window.seat, "missed_call"))


def _give(out: _Out) -> None:
    """Give the cards owed, oldest first, recycling or stopping the round when the stock is out."""
    s = out.s
    while s.owing and s.phase == PLAY:
        seat, why = s.owing[0]
        if s.stock:
            out.add(CardTaken(seat, s.stock[-1], why))
        elif len(s.discard) > 1:
            out.add(StockRanOut())
        else:
            _round_end(out, _smallest(s), "stopped")


def _recycle(out: _Out, c: RecycleStock) -> None:
    s = out.s
    if s.phase != RECYCLE:
        raise RuleError("no_shuffle_due")
    if sorted(c.order) != sorted(s.discard[:-1]):
        raise RuleError("invalid_recycle")
    out.add(StockRecycled(tuple(c.order)))
    _give(out)


def _smallest(s: State) -> int:
    """The seat with the fewest cards in hand plus penalty cards owed; -1 on a tie."""
    counts = _counts(s)
    best = min(counts)
    return counts.index(best) if counts.count(best) == 1 else -1


def _counts(s: State) -> list[int]:
    return [hand.bit_count() + s.owed(seat) for seat, hand in enumerate(s.hands)]


def _round_end(out: _Out, winner: int, reason: str) -> None:
    s = out.s
    wins = list(s.wins)
    if winner >= 0:
        wins[winner] += 1
    assert s.rule is not None
    out.add(
        RoundEnded(s.round_no, winner, reason, tuple(_counts(s)), tuple(wins)),
        RuleRevealed(s.round_no, format_rule(s.rule)),
    )
    if winner >= 0 and wins[winner] >= s.rounds_to_win:
        out.add(MatchEnded(winner, tuple(wins)))


def end_by_forfeit(s: State, winner: int) -> list[Event]:
    """The match ended at once by a seat's forfeit (``MaoGame.forfeit_seat``), won by ``winner``: a
    round in play ends first, won by nobody."""
    out = _Out(s)
    if s.phase in (PLAY, RECYCLE):
        assert s.rule is not None
        out.add(
            RoundEnded(s.round_no, -1, "forfeited", tuple(_counts(s)), tuple(s.wins)),
            RuleRevealed(s.round_no, format_rule(s.rule)),
        )
    out.add(MatchEnded(winner, tuple(out.s.wins)))
    return out.events


def _call_pause(out: _Out, c: CallPause) -> None:
    s = out.s
    _check_table(s, c.seat)
    if s.paused_by >= 0:
        raise RuleError("already_paused")
    out.add(PauseCalled(c.seat))


def _end_pause(out: _Out, c: EndPause) -> None:
    s = out.s
    _check_table(s, c.seat)
    if s.paused_by < 0:
        raise RuleError("not_paused", why="game_not_paused")
    if c.seat != s.paused_by:
        raise RuleError("not_pause_caller")
    out.add(PauseEnded(c.seat))


def _words(words: str) -> str:
    said = normalise(words) if isinstance(words, str) else ""
    if not said or len(said) > MAX_UTTERANCE:
        raise RuleError("malformed_utterance", why="say_characters", max_utterance=MAX_UTTERANCE)
    return said


def _check_table(s: State, seat: int) -> None:
    if s.phase != PLAY:
        raise _refusal(s)
    check_seat(s, seat)


def _check_acting(s: State, seat: int) -> None:
    _check_table(s, seat)
    if s.paused_by >= 0:
        raise RuleError("game_paused", why="game_paused_nothing")


_PHASE_REFUSALS = {
    NEW: "match_not_started",
    DEAL: "round_not_dealt",
    PLAY: "round_in_progress",
    RECYCLE: "awaiting_shuffle",
    OVER: "game_over",
}


def _refusal(s: State) -> RuleError:
    return RuleError(_PHASE_REFUSALS[s.phase])
