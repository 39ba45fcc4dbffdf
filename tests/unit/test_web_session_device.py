"""What a session's row says of its browser, and the setting that marks the pages' cookies Secure."""

import pytest

from service.settings import Settings
from service.web.session import device

AGENTS = {
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0.0.0 Mobile Safari/537.36": ("Chrome", "Android"),
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.4 Mobile/15E148 Safari/604.1": ("Safari", "iOS"),
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51": ("Edge", "Windows"),
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0": (
        "Firefox",
        "macOS",
    ),
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 "
    "Safari/537.36": ("Chrome", "Linux"),
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0.0.0 Safari/537.36": ("Chrome", "ChromeOS"),
    "curl/8.5.0": ("", ""),
    "": ("", ""),
}


@pytest.mark.parametrize(("agent", "expected"), AGENTS.items())
def test_a_user_agent_comes_down_to_a_word_for_the_browser_and_one_for_the_system(agent, expected):
    assert device(agent) == expected


def test_the_cookies_are_secure_over_https_by_default_and_always_when_the_setting_says_yes():
    assert Settings.from_env({}).secure_cookies == "auto"
    assert Settings.from_env({"MAUMAU_SECURE_COOKIES": "YES"}).secure_cookies == "yes"
    with pytest.raises(ValueError, match="MAUMAU_SECURE_COOKIES must be one of auto, yes, not 'no'"):
        Settings.from_env({"MAUMAU_SECURE_COOKIES": "no"})
