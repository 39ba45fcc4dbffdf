"""The workers' settings (MAUMAU_BROKER_*, MAUMAU_BOT_THINK, MAUMAU_TICK), the broker they make and the
command lines `maumau worker` and `maumau beat` hand to celery."""

import pytest

from service.settings import Settings
from workers.cli import beat_argv, worker_argv


def test_without_a_broker_url_the_embedded_default_is_a_filesystem_broker_in_the_data_dir(tmp_path):
    from service.tasks import broker

    settings = Settings.from_env({"MAUMAU_DATA_DIR": str(tmp_path / "data")})
    assert settings.broker_url is None
    url, options = broker(settings)
    assert url.startswith("filesystem://")
    assert options["data_folder_in"] == options["data_folder_out"] == str(tmp_path / "data" / "broker")
    assert (tmp_path / "data" / "broker").is_dir()


def test_a_redis_broker_redelivers_after_the_visibility_timeout_and_prefixes_its_keys():
    from service.tasks import broker

    settings = Settings.from_env(
        {
            "MAUMAU_BROKER_URL": "redis://broker.example:6379/3",
            "MAUMAU_BROKER_PREFIX": "club-a:",
            "MAUMAU_BROKER_VISIBILITY_TIMEOUT": "2",
        }
    )
    url, options = broker(settings)
    assert url == "redis://broker.example:6379/3"
    assert options["visibility_timeout"] == 2
    assert options["unacked_restore_interval"] == 1  # a dead worker's tasks are looked for every second
    assert options["global_keyprefix"] == "club-a:"
    _, default_options = broker(Settings.from_env({"MAUMAU_BROKER_URL": "redis://b:6379/0"}))
    assert default_options["visibility_timeout"] == 3600 and "global_keyprefix" not in default_options
    assert broker(Settings.from_env({"MAUMAU_BROKER_URL": "amqp://guest@rabbit//"})) == (
        "amqp://guest@rabbit//",
        {},
    )


def test_the_celery_app_acknowledges_late_and_ticks_every_maumau_tick_seconds():
    from service.tasks import config

    conf = config(Settings.from_env({"MAUMAU_BROKER_URL": "redis://b:6379/0", "MAUMAU_TICK": "0.5"}))
    assert conf["task_acks_late"] and conf["task_reject_on_worker_lost"]
    assert conf["beat_schedule"]["maumau.tick"]["task"] == "maumau.tick"
    assert conf["beat_schedule"]["maumau.tick"]["schedule"] == 0.5


def test_the_tasks_have_their_names_and_time_limits():
    from workers.app import celery_app

    for name in ("maumau.tick", "maumau.conduct_tournament", "maumau.advance_game", "maumau.time_out_turn"):
        task = celery_app.tasks[name]
        assert task.soft_time_limit and task.time_limit > task.soft_time_limit


def test_bot_think_and_tick_are_seconds_with_small_defaults():
    defaults = Settings.from_env({})
    assert (defaults.bot_think, defaults.tick) == (0.5, 2.0)
    settings = Settings.from_env({"MAUMAU_BOT_THINK": "0", "MAUMAU_TICK": "0.25"})
    assert (settings.bot_think, settings.tick) == (0.0, 0.25)


def test_a_bots_turn_counts_as_stalled_after_thirty_seconds_unless_told_otherwise():
    assert Settings.from_env({}).stalled_after == 30.0
    assert Settings.from_env({"MAUMAU_STALLED_AFTER": "1.5"}).stalled_after == 1.5


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("MAUMAU_BOT_THINK", "soon"),
        ("MAUMAU_BOT_THINK", "-1"),
        ("MAUMAU_BOT_THINK", "nan"),
        ("MAUMAU_TICK", "0"),
        ("MAUMAU_TICK", "inf"),
        ("MAUMAU_STALLED_AFTER", "0"),
        ("MAUMAU_BROKER_VISIBILITY_TIMEOUT", "0"),
    ],
)
def test_a_bad_number_of_seconds_is_refused_naming_the_setting(name, value):
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: value})


def test_the_worker_and_beat_commands_are_celerys_own_with_the_schedule_beside_the_store(tmp_path):
    assert worker_argv(2, "INFO", ("--pool", "solo")) == [
        "worker",
        "--loglevel",
        "INFO",
        "--concurrency",
        "2",
        "--pool",
        "solo",
    ]
    assert worker_argv(None, "WARNING", ()) == ["worker", "--loglevel", "WARNING"]
    settings = Settings(data_dir=tmp_path / "var")
    assert beat_argv(settings, "INFO", ()) == [
        "beat",
        "--loglevel",
        "INFO",
        "--schedule",
        str(tmp_path / "var" / "celerybeat-schedule"),
    ]
