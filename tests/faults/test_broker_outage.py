"""The broker (Redis) stopped and started again under HTTP load, in the distributed mode: two API
processes, a worker, the beat and the projection runner, on a Redis the test started itself.

People's moves need no broker: while it is down every answer is still 2xx or a clean problem+json,
never a 500 or a hang, and ``/ready`` says the broker does not answer. Once it is back, with nobody
restarting anything, the bots answer again (a table of a person and a bot, an all-bot tournament
that finishes), every acknowledged move is in the log exactly once, and the read models equal the log.
"""

import time

from tests.e2e.test_distributed import ADMIN_TOKEN, start_service
from tests.faults.distributed import admin_club, load, throwaway_service
from tests.faults.driving import (
    Answers,
    assert_each_acknowledged_move_stored_once,
    assert_read_models_equal_the_log,
    wait_ready,
    wait_until_every_table_moves,
)

OUTAGE = 6.0  # seconds the broker is down


def test_a_broker_stopped_and_started_under_load_loses_no_move_and_the_bots_play_on(tmp_path):
    with throwaway_service(tmp_path / "logs", MAUMAU_READY_MAX_LAG="1000") as service:
        bases = start_service(service.processes, apis=2, workers=1)
        club = admin_club(bases[0])
        people = club.tables(3)
        with_bots = club.tables(2, seats=1, bots=1)
        tables = people + with_bots
        answers = Answers()
        with load(bases, tables, answers, seconds=200):
            wait_until_every_table_moves(tables, answers, base=bases[0])
            tournament_id = club.bot_tournament()
            answers.phase = "down"
            service.redis.stop()
            time.sleep(OUTAGE)
            answers.phase = "restarted"
            # a process that stops as the broker goes (a Celery worker did, with "Unrecoverable error:
            # AttributeError ... 'hostname'", until workers/consumer.py) is started again by deploy/
            # whenever it stops, and so by the test for as long as the service recovers (restarting
            # only at two chosen moments, it would miss a process that stopped later); a tournament
            # that never finishes shows the processes' logs, which say which part stood still
            with service.processes.supervised():
                service.redis.start()
                wait_ready(bases)
                wait_until_every_table_moves(people, answers, base=bases[0])
                try:
                    club.wait_until_finished(tournament_id)  # the tick makes up for its lost tasks
                except AssertionError as late:
                    raise AssertionError(f"{late}\n{service.processes.log_tails()}") from None
        down = [a for a in answers.all if a.phase == "down"]
        assert any(a.what == "ready" and a.status == 503 for a in down), "/ready never said not ready"
        assert_each_acknowledged_move_stored_once(club.http, tables)
        assert_read_models_equal_the_log(bases, ADMIN_TOKEN, tables)
        answers.assert_clean()
        # last, as it fails apart from the rest: a bot's answer queued while the broker was down is
        # lost, and only the tick's look for games whose bot has waited MAUMAU_STALLED_AFTER seconds
        # queues it again (ticks expire after one tick's time: behind a busy queue they may all expire)
        with load(bases, with_bots, answers, seconds=90):
            wait_until_every_table_moves(with_bots, answers, base=bases[0])
        club.close()
