"""How many penalties it takes the learning bot to learn Mao's teaching rule, beside a random bot.

Two tables per seed, each a 4-seat match (3 round wins) under the teaching rule ("after Q: next
black"), chance from the seed:

- **learners**: four learning bots. They read the same public log, so they learn at the same
  event; the figure is every penalty for the secret rule given at the table until then (a
  returned play with "wrong colour" / "wrong suit" / "wrong rank"): what learning cost, since
  nobody else makes the mistakes for them. A match that ends before they know counts all its
  rule penalties and is reported as not learned (the count is then a floor).
- **mixed**: one learning bot (seat 0) among three random bots (seats 1-3, which play any
  matching card): the learner's own rule penalties before it knew the rule, and every seat's
  rule penalties per 100 turns over the whole match, the learner beside a random bot.

"Knows" means every candidate rule still standing allows the same cards as the teaching rule in
every situation (``learning.same_behaviour``). The learner reads no revealed rule: it only
eliminates candidates from the public log.

    ./run bench mao_learning [--games 200]
"""

import argparse
import random
import statistics

from service.domain.mao.bots import RandomBot
from service.domain.mao.commands import StartMatch
from service.domain.mao.events import PenaltyGiven
from service.domain.mao.learning import LearningBot
from service.domain.mao.rule import TEACHING_RULE
from service.domain.mao.state import OVER
from service.domain.mao.table import Table

RULE_REASONS = frozenset(("wrong_colour", "wrong_suit", "wrong_rank"))
GOAL = 2


def knows(bot: LearningBot) -> bool:
    # the teaching rule has one equivalent among the candidates at most: skip the full check before
    return len(bot.hypotheses.rules) <= 4 and bot.hypotheses.knows(TEACHING_RULE)


def run(table: Table, learner: LearningBot) -> tuple[int | None, list[int], list[int], int]:
    """(the event number the learner knew the rule at, rule penalties per seat before then,
    rule penalties per seat in the whole match, turns per seat in the whole match)."""
    seats = table.state.seats
    before, total, turns = [0] * seats, [0] * seats, [0] * seats
    learned_at: int | None = None
    seen = 0
    while table.state.phase != OVER:
        turn = table.state.turn
        count = len(table.events)
        table.step()
        if len(table.events) > count and table.state.turn != turn:
            turns[turn] += 1
        for event in table.events[seen:]:
            if isinstance(event, PenaltyGiven) and event.reason in RULE_REASONS:
                total[event.seat] += 1
                if learned_at is None:
                    before[event.seat] += 1
        seen = len(table.events)
        if learned_at is None and knows(learner):
            learned_at = seen
    return learned_at, before, total, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()

    table_costs, learned_tables = [], 0
    own_costs, learned_mixed = [], 0
    learner_rate, random_rate = [], []
    for seed in range(args.games):
        rng = random.Random(seed)
        learners = [LearningBot(random.Random(f"{seed}:{seat}")) for seat in range(4)]
        table = Table(learners, rng, StartMatch(4, seed % 4))
        learned_at, before, _, _ = run(table, learners[0])
        table_costs.append(sum(before))
        learned_tables += learned_at is not None

        rng = random.Random(seed)
        learner = LearningBot(random.Random(f"{seed}:0"))
        bots = [learner, *(RandomBot(random.Random(f"{seed}:{seat}")) for seat in range(1, 4))]
        table = Table(bots, rng, StartMatch(4, seed % 4))
        learned_at, before, total, turns = run(table, learner)
        own_costs.append(before[0])
        learned_mixed += learned_at is not None
        learner_rate.append(100 * total[0] / max(turns[0], 1))
        random_rate.append(100 * statistics.mean(total[s] / max(turns[s], 1) for s in range(1, 4)))

    games = args.games
    measured = statistics.median(table_costs)
    print(f"mao_learning: {games} seeded matches per table, 4 seats, the teaching rule")
    print(
        f"  learners' table: rule penalties until the rule is known: median {measured:g}, "
        f"mean {statistics.mean(table_costs):.1f}, max {max(table_costs)}; known in {learned_tables}/{games}"
    )
    print(
        "  mixed table: the learner's own rule penalties until it knew: "
        f"median {statistics.median(own_costs):g}, mean {statistics.mean(own_costs):.1f}; "
        f"known in {learned_mixed}/{games}"
    )
    print(
        f"  mixed table, rule penalties per 100 turns over the match: learner median "
        f"{statistics.median(learner_rate):.1f}, random bots median {statistics.median(random_rate):.1f}"
    )
    verdict = "met" if measured <= GOAL else "missed"
    print(f"target mao_learning_penalties measured={measured:g} goal=<={GOAL} {verdict}")


if __name__ == "__main__":
    main()
