"""The notes a live fold is told of: the events a batch carries, or the games it names."""

import uuid

import msgspec
from eventsourcing.persistence import StoredEvent

from service.projections.live_notes import ALL, follows_on, read_notes


class Event:
    def __init__(self, version: int) -> None:
        self.originator_version = version


def test_a_note_that_carries_events_gives_them_per_game_in_log_order():
    one, two = uuid.uuid4(), uuid.uuid4()
    first = (
        f"{one} {two}\n"
        + msgspec.json.encode([[one, 4, "t:A", b"\x00\x01", 10], [two, 1, "t:B", b"", 11]]).decode()
    )
    second = f"{one}\n" + msgspec.json.encode([[one, 5, "t:C", b"\xff", 12]]).decode()
    carried, named = read_notes([first, second])
    assert named == set()
    assert carried == {
        one: [(StoredEvent(one, 4, "t:A", b"\x00\x01"), 10), (StoredEvent(one, 5, "t:C", b"\xff"), 12)],
        two: [(StoredEvent(two, 1, "t:B", b""), 11)],
    }


def test_a_note_that_names_games_gives_their_names_and_an_empty_note_means_every_game():
    one, two = str(uuid.uuid4()), str(uuid.uuid4())
    assert read_notes([f"{one} {two}"]) == ({}, {one, two})
    assert read_notes([one, ALL]) == ({}, {one, ALL})


def test_an_unreadable_note_means_every_game():
    game = uuid.uuid4()
    carried, named = read_notes([f"{game}\n[not a note", f'{game}\n[["no", "id"]]'])
    assert carried == {} and named == {ALL}


def test_events_follow_on_a_fold_only_with_no_version_missing():
    assert follows_on([(Event(4), 1), (Event(5), 2), (Event(6), 3)], 4)  # the first folded already
    assert follows_on([(Event(5), 1), (Event(6), 2)], 4)
    assert follows_on([], 4)
    assert not follows_on([(Event(6), 1)], 4)
    assert not follows_on([(Event(5), 1), (Event(7), 2)], 4)
