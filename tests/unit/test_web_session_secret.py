"""The web pages' session key: the setting, else one made once and kept under the data directory."""

import stat
from pathlib import Path

from service.auth.sessions import SECRET_FILE, session_secret
from service.settings import Settings


def test_without_the_setting_a_secret_is_made_once_kept_private_and_used_again(tmp_path: Path):
    settings = Settings(data_dir=tmp_path / "data")
    first = session_secret(settings)
    assert len(first) >= 32
    assert session_secret(settings) == first
    kept = tmp_path / "data" / SECRET_FILE
    assert kept.read_text() == first
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert [p.name for p in kept.parent.iterdir()] == [SECRET_FILE]  # no draft left behind


def test_the_setting_is_the_secret_and_nothing_is_written(tmp_path: Path):
    settings = Settings(data_dir=tmp_path, session_secret="s" * 40)
    assert session_secret(settings) == "s" * 40
    assert list(tmp_path.iterdir()) == []


def test_the_setting_is_read_from_the_environment_and_masked_in_the_settings_text():
    settings = Settings.from_env({"MAUMAU_SESSION_SECRET": "a-long-secret-" * 3})
    assert settings.session_secret == "a-long-secret-" * 3
    assert "a-long-secret" not in repr(settings)
