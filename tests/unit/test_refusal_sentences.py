"""Every refusal has its sentence: each ``RuleError(...)`` written in the service names a key of the
catalogue (``service.domain.refusal_sentences``) and gives exactly the values its sentence fills in;
the pages' catalogues translate every sentence with the same values."""

import ast
import string
from pathlib import Path

import pytest

from service.domain.errors import RuleError
from service.domain.refusal_sentences import SENTENCES, sentence
from service.web.i18n import read_catalogue

ROOT = Path(__file__).resolve().parents[2]


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def _fields_with_form(template: str) -> set[tuple[str, str, str]]:
    """Each value a sentence fills in, with its conversion and format (a translation keeps them)."""
    return {
        (name, conversion or "", spec or "")
        for _, name, spec, conversion in string.Formatter().parse(template)
        if name is not None
    }


def _raise_sites() -> list[tuple[str, str, set[str] | None]]:
    """Each ``RuleError(...)`` with a literal code: where, its key, and the values it gives (None
    when some come from a mapping, ``**data``)."""
    found = []
    for path in sorted((ROOT / "service").rglob("*.py")) + sorted((ROOT / "workers").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id != "RuleError" or not node.args:
                continue
            code = node.args[0]
            if not (isinstance(code, ast.Constant) and isinstance(code.value, str)):
                continue
            keywords = {k.arg: k.value for k in node.keywords}
            why = keywords.pop("why", None)
            if why is not None and not (isinstance(why, ast.Constant) and isinstance(why.value, str)):
                continue
            key = f"{code.value}.{why.value}" if why is not None else code.value
            given = None if None in keywords else {str(name) for name in keywords}
            found.append((f"{path.relative_to(ROOT)}:{node.lineno}", key, given))
    return found


def test_the_scan_finds_the_refusals():
    sites = _raise_sites()
    assert len(sites) > 350
    assert any(key == "forbidden.admin_only" for _, key, _ in sites)


def test_every_refusal_written_has_a_sentence():
    assert [(where, key) for where, key, _ in _raise_sites() if key not in SENTENCES] == []


def test_every_refusal_gives_the_values_its_sentence_fills_in_and_no_other():
    wrong = [
        (where, key, sorted(given), sorted(_fields(SENTENCES[key])))
        for where, key, given in _raise_sites()
        if key in SENTENCES and given is not None and given != _fields(SENTENCES[key])
    ]
    assert wrong == []


def test_every_sentence_is_refused_somewhere_or_by_a_code_given_at_run_time():
    written = {key for _, key, _ in _raise_sites()}
    # the keys made at run time: a phase's refusal, an aggregate not found, a key of a constant
    made = {key for key in SENTENCES if key.endswith(".not_an_id") or key.endswith("_not_found")}
    made |= {"match_not_started", "round_not_dealt", "suit_not_named", "player_not_chosen"}
    made |= {"awaiting_shuffle", "round_in_progress", "already_drew", "nothing_to_keep"}
    made |= {"nothing_to_choose", "no_suit_to_name", "no_shuffle_due", "game_over"}
    made |= {"game_not_found.mao_match", "tournament_not_found.withdrawn", "credential_not_found.keyring"}
    made |= {"forbidden.holder_tokens", "forbidden.holder_new_token", "forbidden.rename_player"}
    assert sorted(set(SENTENCES) - written - made) == []


def test_the_english_sentence_is_the_message_filled_in_as_the_data_were_formatted():
    assert RuleError("forbidden", why="admin_only").message == "only an admin may do this"
    error = RuleError("malformed_card", why="not_card", card="ZZ")
    assert error.message == "'ZZ' is not a card" == str(error)
    named = RuleError("malformed_name", why="character", what="player", codepoint=0x202E)
    assert "U+202E" in named.message


def test_a_refusal_keeps_its_code_and_data_when_copied():
    import copy
    import pickle

    error = RuleError("not_your_seat", seat=2)
    for again in (copy.copy(error), pickle.loads(pickle.dumps(error))):
        assert (again.code, again.why, again.data, again.message) == (
            "not_your_seat",
            "",
            {"seat": 2},
            error.message,
        )


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_every_sentence_is_translated_with_the_same_values(language):
    messages = read_catalogue(language).messages
    untranslated = sorted(template for template in SENTENCES.values() if template not in messages)
    assert untranslated == []
    wrong = [t for t in SENTENCES.values() if _fields_with_form(messages[t]) != _fields_with_form(t)]
    assert wrong == []


def test_a_refusal_reads_in_the_readers_language():
    error = RuleError("not_your_seat", seat=2)
    ukrainian, russian = read_catalogue("uk").gettext, read_catalogue("ru").gettext
    assert error.message == "seat 2 is not yours"
    assert error.sentence(ukrainian) == sentence("not_your_seat", {"seat": 2}, ukrainian)
    assert error.sentence(ukrainian) not in (error.message, error.sentence(russian))
    assert "2" in error.sentence(ukrainian) and "2" in error.sentence(russian)
