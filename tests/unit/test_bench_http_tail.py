"""The HTTP bench's split of the open loop's tail: the server's log, the machine's stalls, the table."""

from bench.http import Measured, Run, app_durations, pressure, print_tails, stolen


def test_each_traced_request_s_time_in_the_app_is_read_from_the_server_s_request_log(tmp_path):
    log = tmp_path / "server.log"
    log.write_text(
        "INFO:     Started server process [12]\n"
        '{"level":"INFO","message":"request","route":"/games/{game_id:uuid}/moves","duration_ms":12.5,'
        '"request_id":"bench-1"}\n'
        '{"level":"INFO","message":"request","route":"/health","duration_ms":0.3,"request_id":"abc"}\n'
        '{"level":"INFO","message":"request","route":"/bench/floor","duration_ms":2.25,"request_id":"bench-2"}\n'
    )
    assert app_durations(log) == {"bench-1": 12.5, "bench-2": 2.25}


def test_the_machine_s_stalls_are_read_in_seconds_from_the_kernel_s_pressure_files(tmp_path):
    (tmp_path / "cpu").write_text(
        "some avg10=1.00 avg60=2.00 avg300=3.00 total=2500000\n"
        "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
    )
    (tmp_path / "io").write_text(
        "some avg10=1.79 avg60=8.01 avg300=8.22 total=44180288\n"
        "full avg10=1.14 avg60=5.68 avg300=6.37 total=35610224\n"
    )
    assert pressure(tmp_path) == {"cpu": 2.5, "cpu full": 0.0, "io": 44.180288, "io full": 35.610224}


def test_a_kernel_without_pressure_files_gives_no_stalls(tmp_path):
    assert pressure(tmp_path / "absent") == {}


def test_the_time_the_hypervisor_took_is_read_per_core_from_the_kernel_s_stat_file(tmp_path):
    stat = tmp_path / "stat"
    stat.write_text(
        "cpu  175726 220 46812 185129 2534 0 11766 3248 0 0\n"
        "cpu0 87863 110 23406 92564 1267 0 5883 1624 0 0\n"
        "cpu1 87863 110 23406 92565 1267 0 5883 1624 0 0\n"
        "intr 123\n"
    )
    assert stolen(stat) == {"steal": 16.24}


def test_a_kernel_that_counts_no_steal_gives_none(tmp_path):
    (tmp_path / "stat").write_text("cpu  1 2 3 4\ncpu0 1 2 3 4\n")
    assert stolen(tmp_path / "stat") == {}
    assert stolen(tmp_path / "absent") == {}


def test_the_slowest_percent_is_split_into_unsent_in_the_app_and_the_rest(capsys):
    moves = Run(seconds=10.0, pressure={"cpu": 6.0, "io": 1.0, "io full": 0.5, "steal": 0.8})
    # a hundred moves found in the log, the slowest 1% of them one: (id, due -> sent, due -> answered)
    moves.traced = [(f"bench-{n}", 0.0005, 0.005) for n in range(97)]
    moves.traced += [("bench-a", 0.001, 0.050), ("bench-b", 0.001, 0.100), ("bench-c", 0.010, 0.200)]
    moves.traced.append(("bench-lost", 0.0, 0.001))  # its log line never came
    app_ms = {rid: 1000 * whole / 2 for rid, _, whole in moves.traced if rid != "bench-lost"}
    print_tails(Measured(runs={}, usage={}, open_loop=moves, app_ms=app_ms))
    row = next(line for line in capsys.readouterr().out.splitlines() if line.lstrip().startswith("moves"))
    whole, unsent, in_app, stored, its_cpu, rest, app_p50, app_p99, cpu, io, io_full, steal = row.split()[
        1:13
    ]
    assert (whole, unsent, in_app, stored, its_cpu, rest) == ("200.0", "10.0", "100.0", "-", "-", "90.0")
    assert (app_p50, app_p99) == ("2.50", "100.00")
    assert (cpu, io, io_full, steal) == ("60.0", "10.0", "5.0", "8.0")
    assert "(1 not in the log)" in row


def test_a_floor_write_s_time_in_the_app_is_split_by_its_transaction_and_its_cpu_in_it(capsys):
    floor = Run(seconds=10.0)
    floor.traced = [(f"bench-{n}", 0.0, 0.004) for n in range(99)] + [("bench-slow", 0.0, 0.120)]
    floor.stored = {f"bench-{n}": (0.002, 0.0002) for n in range(99)} | {"bench-slow": (0.080, 0.0004)}
    app_ms = {rid: 1000 * whole * 11 / 12 for rid, _, whole in floor.traced}
    print_tails(Measured(runs={}, usage={}, open_floor_own=floor, app_ms=app_ms))
    row = next(line for line in capsys.readouterr().out.splitlines() if line.lstrip().startswith("floor own"))
    whole, unsent, in_app, stored, its_cpu, rest = row.split()[2:8]
    assert (whole, unsent, in_app, stored, its_cpu, rest) == ("120.0", "0.0", "110.0", "80.0", "0.4", "10.0")


def test_an_open_loop_that_traced_nothing_prints_no_split(capsys):
    print_tails(Measured(runs={}, usage={}, open_loop=Run()))
    assert capsys.readouterr().out == ""
