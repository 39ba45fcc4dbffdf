"""The web pages' sessions on PostgreSQL and SQLite: opened, looked up while open, their use noted,
ended one by one or all of a subject's, and gone after two weeks unused."""

import time
from collections.abc import Iterator
from uuid import uuid4

import pytest

from service.domain.roles import Actor
from service.persistence.sessions import LIFETIME, USE_GRANULARITY, Sessions
from service.projections.store import Views, close_views, open_views
from service.settings import Settings

ANN, BEN = Actor("player", str(uuid4())), Actor("player", str(uuid4()))


@pytest.fixture
def views(fresh_settings: Settings) -> Iterator[Views]:
    found = open_views(fresh_settings)
    yield found
    close_views(found)


def test_a_session_is_open_until_it_is_ended_and_lists_with_its_device_newest_first(views: Views):
    book, credential = Sessions(views), uuid4()
    now = time.time()
    first = book.open(ANN, credential, "Chrome", "Android", now=now - 60)
    second = book.open(ANN, credential, "Firefox", "Windows", now=now)
    book.open(BEN, uuid4(), "", "", now=now)

    found = book.live(first, now=now)
    assert found is not None
    assert (found.subject, found.role, found.credential_id) == (ANN.id, "player", credential)
    assert (found.browser, found.system) == ("Chrome", "Android")
    assert [s.session_id for s in book.of(ANN, now=now)] == [second, first]

    assert book.end(first)
    assert book.live(first, now=now) is None
    assert not book.end(first)  # once only
    assert [s.session_id for s in book.of(ANN, now=now)] == [second]


def test_a_subject_ends_only_their_own_sessions_and_an_erasure_ends_them_all(views: Views):
    book = Sessions(views)
    anns, bens = book.open(ANN, uuid4(), "Safari", "iOS"), book.open(BEN, uuid4(), "Safari", "iOS")
    assert not book.end(bens, ANN.id)
    assert book.live(bens) is not None
    assert book.end(anns, ANN.id)

    more = [book.open(BEN, None, "", "") for _ in range(2)]
    book.end_all(BEN.id)
    assert [book.live(session) for session in [bens, *more]] == [None, None, None]


def test_a_sessions_last_use_is_noted_at_most_once_in_a_while_per_process(views: Views):
    book, other_process = Sessions(views), Sessions(views)
    opened_at = time.time() - 3600
    session = book.open(ANN, None, "", "", now=opened_at)
    book.live(session, now=opened_at + 10)
    noted = book.live(session, now=opened_at + 20)  # within USE_GRANULARITY of the note before
    assert noted is not None and noted.used.timestamp() == pytest.approx(opened_at + 10, abs=0.01)
    assert noted.created.timestamp() == pytest.approx(opened_at, abs=0.01)
    other_process.live(session, now=opened_at + 20 + USE_GRANULARITY)
    found = book.live(session, now=opened_at + 30 + USE_GRANULARITY)
    assert found is not None and found.used.timestamp() == pytest.approx(
        opened_at + 20 + USE_GRANULARITY, abs=0.01
    )


def test_a_session_unused_for_two_weeks_is_over_and_its_row_goes_at_the_next_sign_in(views: Views):
    book = Sessions(views)
    now = time.time()
    old = book.open(ANN, None, "", "", now=now - LIFETIME - 1)
    kept = book.open(ANN, None, "", "", now=now - LIFETIME + 60)
    assert book.live(old, now=now) is None
    assert [s.session_id for s in book.of(ANN, now=now)] == [kept]
    book.open(BEN, None, "", "", now=now)
    assert views.query("session", (old, 0)) == []  # deleted, not only hidden
