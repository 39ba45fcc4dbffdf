"""The turns a change to a game leaves (``views/changes.py``), judged over the change whole: on a
table whose games are just a seat to move, and events that say whether they begin a change."""

from dataclasses import dataclass

from service.projections.views.changes import Changing


@dataclass
class Table:
    to_move: int | None = None


@dataclass
class Kept:
    game: Table


@dataclass(frozen=True)
class Step:
    """An event: it begins a change (a move) or goes on with one (its chance), and leaves ``to_move``."""

    begins: bool
    to_move: int | None
    originator_id: str = "a"  # its game's


def changing() -> Changing[Kept]:
    return Changing(lambda event, last: event.begins, lambda game: game.to_move, lambda game, seat: seat != 9)


def fold(judge: Changing[Kept], kept: Kept, key: str, step: Step, position: int) -> None:
    judge.fold(key, kept, step, position)
    kept.game.to_move = step.to_move


def test_a_seat_the_turn_only_passes_through_within_a_change_is_told_nothing():
    judge, a = changing(), Kept(Table(0))
    judge.listen("notices", True)
    fold(judge, a, "a", Step(True, 1), 1)  # the last card passes the turn to seat 1...
    fold(judge, a, "a", Step(False, None), 2)  # ...the round ends in the same change
    fold(judge, a, "a", Step(False, 2), 3)  # and the next deal leaves seat 2 to move
    assert judge.turns(3) == []
    judge.passing(4)  # another aggregate's event: the change is whole
    assert [(turn.seat, turn.position) for turn in judge.turns(4)] == [(2, 3)]
    assert judge.turns(5) == []  # read at the event that found it only


def test_another_games_event_ends_the_open_change_and_its_turn_is_read_at_that_event():
    judge, a, b = changing(), Kept(Table(0)), Kept(Table(0))
    judge.listen("notices", True)
    fold(judge, a, "a", Step(True, 1), 1)
    fold(judge, b, "b", Step(True, 3), 2)
    assert [(turn.game, turn.seat) for turn in judge.turns(2)] == [(a.game, 1)]
    judge.flush(whole=True)
    assert [(turn.game, turn.seat) for turn in judge.turns(None)] == [(b.game, 3)]


def test_a_batch_ending_in_the_middle_of_the_log_leaves_its_open_change_open_for_the_next():
    judge, a = changing(), Kept(Table(0))
    judge.listen("notices", True)
    fold(judge, a, "a", Step(True, 1), 1)
    judge.flush(whole=False)
    judge.written()
    assert judge.turns(None) == []
    read_back = Kept(Table(1))  # the game let go of and read back from its row
    fold(judge, read_back, "a", Step(False, 2), 2)
    judge.flush(whole=True)
    assert [(turn.game, turn.seat, turn.position) for turn in judge.turns(None)] == [(read_back.game, 2, 2)]


def test_a_seat_not_told_and_a_seat_to_move_before_as_after_are_told_nothing():
    judge, a = changing(), Kept(Table(0))
    judge.listen("notices", True)
    fold(judge, a, "a", Step(True, 9), 1)  # seat 9 hears of nothing (a bot's seat)
    fold(judge, a, "a", Step(True, 0), 2)
    fold(judge, a, "a", Step(True, 0), 3)  # still seat 0: no new turn
    judge.flush(whole=True)
    assert [(turn.seat, turn.position) for turn in judge.turns(2)] == []
    assert judge.turns(None) == []


def test_nothing_is_followed_while_nobody_listens():
    judge, a = changing(), Kept(Table(0))
    fold(judge, a, "a", Step(True, 1), 1)
    judge.passing(2)
    assert judge.turns(2) == []
    judge.listen("webhooks", True)  # at a hook's event, where no change is half way
    fold(judge, a, "a", Step(True, 2), 3)
    # the hook disabled: its event first ends the change before it (``passing``), then the hook goes
    judge.passing(4)
    assert [(turn.seat, turn.position) for turn in judge.turns(4)] == [(2, 3)]
    judge.listen("webhooks", False)
    fold(judge, a, "a", Step(True, 3), 5)
    judge.passing(6)
    assert judge.turns(6) == []


def test_whether_a_change_is_whole_is_known_from_the_event_that_comes_next():
    judge, a = changing(), Kept(Table(0))
    assert judge.ends_with(Step(False, 1))  # nobody listens: no change is followed
    judge.listen("webhooks", True)
    fold(judge, a, "a", Step(True, 1), 1)
    assert not judge.ends_with(Step(False, 2))  # its chance goes on with it
    assert judge.ends_with(Step(True, 2))  # the game's next move
    assert judge.ends_with(Step(False, 2, originator_id="b"))  # another game's event
    assert judge.turns(None) == []  # asking judges nothing
