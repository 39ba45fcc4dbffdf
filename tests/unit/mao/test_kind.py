"""A Mao match as a game kind (``service.domain.kind``): a request's key is remembered at the
decision it stored, and what it stored runs up to the next decision someone asked for (the
server's moves after it are its own)."""

from uuid import uuid4

from service.domain.mao.aggregate import SERVER_BY, MaoGame
from service.domain.mao.commands import SERVER, DealRound, Say, StartMatch


def test_a_requests_key_names_its_decision_and_what_it_stored_runs_to_the_next_request():
    game = MaoGame.start(uuid4(), ("p1", "p2", "bot:random"), SERVER)
    game.do(StartMatch(3, 0, judge=SERVER), SERVER_BY)
    game.do(DealRound(tuple(range(52))), SERVER_BY)
    asked = len(game.facts)
    game.do(Say(1, "hello"), "player:p2", key="k", digest="d")
    game.do(Say(2, "a bot's words"), SERVER_BY)
    game.do(Say(0, "psst"), "player:p1")
    events = game.collect_events()
    number = game.done_before("k", "d")
    assert number is not None
    stored = [event for event in events if event.originator_version >= number]
    assert [MaoGame.begins_request(event) for event in stored] == [True, False, True]
    assert not any(MaoGame.begins_request(event) for event in events[: -len(stored)])
    first, facts = game.facts_of(stored[:2])
    assert first == asked
    assert [type(fact).__name__ for fact in facts] == ["Spoke", "PenaltyGiven", "CardTaken"] * 2
