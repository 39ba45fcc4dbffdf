"""The environment a test gives a child process: this run's, without any ``MAUMAU_*`` setting."""

import os


def without_settings(**settings: str) -> dict[str, str]:
    """``os.environ`` less every ``MAUMAU_*`` variable (the child sees only the settings the test
    names), plus ``settings``."""
    return {key: value for key, value in os.environ.items() if not key.startswith("MAUMAU_")} | settings
