"""PostgreSQL stopped and started again under HTTP load, in the distributed mode: two API processes, a
worker, the beat and the projection runner, on a cluster the test made itself.

While the database is down every answer is 2xx or a clean problem+json (503 ``unavailable``; ``/ready``
503 ``not_ready`` before the client's timeout), never a 500 or a hang. Once it is back, with nobody
restarting anything: every game accepts moves again (issue 13, defect 3: games refusing every move
with 409 ``stale_version`` for good), ``/ready`` says ready, each acknowledged move is in the log exactly
once, a retried key answers its first result (a retry answered 500), and the read models equal the log.
"""

import time

from tests.e2e.test_distributed import ADMIN_TOKEN, start_service
from tests.faults.distributed import admin_club, load, throwaway_service
from tests.faults.driving import (
    Answers,
    assert_each_acknowledged_move_stored_once,
    assert_read_models_equal_the_log,
    wait_until_every_table_moves,
)

OUTAGE = 8.0  # seconds the database is down: as long as the one seen in the club
WARM_UP_MOVES = 3  # moves each table makes before the fault


def test_a_database_stopped_and_started_under_load_loses_no_acknowledged_move_and_recovers_by_itself(
    tmp_path,
):
    with throwaway_service(tmp_path / "logs", MAUMAU_READY_MAX_LAG="1000") as service:
        bases = start_service(service.processes, apis=2, workers=1)
        club = admin_club(bases[0])
        tables = club.tables(4)
        answers = Answers()
        with load(bases, tables, answers, seconds=150):
            wait_until_every_table_moves(tables, answers, moves=WARM_UP_MOVES)
            answers.phase = "down"
            service.postgres.stop("fast")
            time.sleep(OUTAGE)
            answers.phase = "restarted"
            service.postgres.start()
            wait_until_every_table_moves(tables, answers, base=bases[0])
            answers.phase = "after"
        down = [a for a in answers.all if a.phase == "down"]
        assert any(a.code == "unavailable" for a in down), "no move or view was refused as unavailable"
        assert any(a.what == "ready" and a.status == 503 for a in down), "/ready never said not ready"
        assert_each_acknowledged_move_stored_once(club.http, tables)
        assert_read_models_equal_the_log(bases, ADMIN_TOKEN, tables)
        # last, so that a failure here says that everything above held: no request hung past the
        # client's timeout and none failed with a 500 while the database was down
        answers.assert_clean()
        club.close()
