"""A Mao match played by bots, chance settled by a seeded generator: for tests and bench.

Each bot is asked only on its turn and sees its ``PlayerView``; after an accepted play it
says the base rules' calls. Every bot observes every event as the public sees it.
"""

import random

from service.domain.cards import FULL_DECK
from service.domain.mao.bots import Bot, calls_after
from service.domain.mao.commands import Command, DealRound, PlayCard, RecycleStock, Say, StartMatch
from service.domain.mao.events import CardPlayed, Event
from service.domain.mao.game import decide
from service.domain.mao.redaction import PUBLIC, redact
from service.domain.mao.state import DEAL, OVER, RECYCLE, State
from service.domain.mao.views import player_view


class Table:
    def __init__(self, bots: list[Bot], rng: random.Random, start: StartMatch) -> None:
        self.bots = bots
        self.rng = rng
        self.state = State()
        self.events: list[Event] = []
        self.do(start)

    def do(self, command: Command) -> list[Event]:
        events = decide(self.state, command)
        for event in events:
            entry = redact(event, PUBLIC, self.state)
            event.apply(self.state)
            self.events.append(event)
            for bot in self.bots:
                bot.observe(entry)
        return events

    def step(self) -> None:
        s = self.state
        if s.phase == DEAL:
            deck = list(FULL_DECK)
            self.rng.shuffle(deck)
            self.do(DealRound(tuple(deck)))
        elif s.phase == RECYCLE:
            self.recycle()
        else:
            seat = s.turn
            command = self.bots[seat].choose(player_view(s, seat))
            events = self.do(command)
            if isinstance(command, PlayCard) and any(isinstance(e, CardPlayed) for e in events):
                for words in calls_after(command.card, player_view(self.state, seat)):
                    if self.state.phase == RECYCLE:  # the play settled a penalty of the player before
                        self.recycle()
                    if self.state.window is None or self.state.window.seat != seat:
                        break  # the round ended
                    self.do(Say(seat, words))

    def recycle(self) -> None:
        order = self.state.discard[:-1]
        self.rng.shuffle(order)
        self.do(RecycleStock(tuple(order)))

    def play(self, max_steps: int = 100_000) -> State:
        for _ in range(max_steps):
            if self.state.phase == OVER:
                break
            self.step()
        return self.state
