"""The one rule for names (service.domain.names), and the pattern the OpenAPI document states for it."""

import re
import sys
import unicodedata
from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.domain.errors import RuleError
from service.domain.name_chars import SPACES, UNICODE_VERSION, VISIBLE
from service.domain.names import MAX_NAME, NAME_PATTERN, REFUSED_CATEGORIES, checked_name, refuse_taken
from tests.refusals import refused


def test_a_name_is_stored_trimmed_and_in_nfc():
    assert checked_name("  Ada Lovelace\u3000", "player") == "Ada Lovelace"
    assert checked_name("Jose\u0301", "player") == "Jos\u00e9"  # e and a combining acute: one é
    assert checked_name("李 小龍", "player") == "李 小龍"


@pytest.mark.parametrize(
    "name",
    [
        "\u202eAdmin\u200b",  # right-to-left override, zero-width space
        "Ada\u0000",  # NUL
        "Ada\nBob",  # a line feed
        "Ada\u2028Bob",  # line separator
        "Ada\u2029",  # paragraph separator
        "A\u200dda",  # zero-width joiner
        "\ufeffAda",  # byte order mark
        "Ada\ue000",  # private use
        "Ada\U000e0001",  # language tag
        "Ada\u0378",  # unassigned
        "Ada\ud800",  # a lone surrogate
    ],
)
def test_control_invisible_formatting_private_and_unassigned_characters_are_refused(name):
    refused("malformed_name", partial(checked_name, name, "player"))


def test_a_name_holds_1_to_64_characters_once_trimmed():
    assert checked_name(" " + "x" * MAX_NAME + " ", "player") == "x" * MAX_NAME
    for name in ("", "   ", "\u3000", "x" * (MAX_NAME + 1), 7, None):
        refused("malformed_name", partial(checked_name, name, "player"))


@given(st.text(st.characters(codec="utf-8"), max_size=20))
def test_the_documented_pattern_admits_exactly_the_names_the_domain_accepts(name):
    try:
        checked_name(name, "player")
        accepted = True
    except RuleError:
        accepted = False
    assert accepted == (re.fullmatch(NAME_PATTERN, name) is not None)


@pytest.mark.parametrize(
    "name", ["Ada", " Ada ", "a-b]", "^x\\", "[Ünal 李]", "\u202eAdmin", "   ", "Ada\u200b"]
)
def test_the_documented_pattern_agrees_with_the_domain_on_these_names(name):
    try:
        checked_name(name, "player")
        accepted = True
    except RuleError:
        accepted = False
    assert accepted == (re.fullmatch(NAME_PATTERN, name) is not None)


def test_the_kept_character_ranges_are_those_of_this_pythons_unicode_database():
    assert unicodedata.unidata_version == UNICODE_VERSION

    def ranges(keep):
        found, start = [], None
        for code in range(sys.maxunicode + 2):
            if code <= sys.maxunicode and keep(unicodedata.category(chr(code))):
                start = code if start is None else start
            elif start is not None:
                found.append((start, code - 1))
                start = None
        return tuple(found)

    assert ranges(lambda category: category not in REFUSED_CATEGORIES | {"Zs"}) == VISIBLE
    assert ranges(lambda category: category == "Zs") == SPACES


def test_a_name_that_reads_as_another_is_taken():
    refuse_taken("Bob", ["Ada", "Bobby"], "the league")
    for same in ("Ada", "ADA", "ada", "\uff21\uff44\uff41"):  # full-width letters too
        with pytest.raises(RuleError) as found:
            refuse_taken(same, ["Bob", "Ada"], "the league")
        assert found.value.code == "name_taken"
