"""The Ukrainian and Russian catalogues keep to the glossary of docs/web.md ("Words the translations
keep to"): one word per concept on every page.

English says "round" for a game's round and for a tournament's; the messages about a tournament's
are listed here, every other message that says "round" is about a game's. A new message about a
tournament's round belongs in ``TOURNAMENT_ROUNDS``; the test says which one when it is missed.
"""

import re

import pytest

from service.web.i18n import read_catalogue
from service.web.messages import all_messages
from service.web.words import actor_words

TOURNAMENT_ROUNDS = {
    "Tournament round {number}",
    "Rounds",
    "No round has been paired yet.",
    "Printable score sheets for this round's tables played with real cards",
    "{tournament}: score sheets, tournament round {number}",
    "a swiss tournament needs its number of rounds",
    "a double round robin plays every pairing twice: its rounds follow from the entrants",
    "between 1 and {max_rounds} rounds",
    "round {round_no!r} is not paired",
    "round {round_no} of this tournament is not paired",
    "the current round has no table {table} in round {round_no}",
    "the round reached, the furthest first",
    "The bracket, round by round",
    "Each entrant's rounds",
    "Each row's result in each round: 1 won, 0 lost, ½ a shared win, = another at the table won, … in play; "
    "against the numbers of the others at its table; then its total in brackets.",
    "each round pairs those with equal scores; nobody is out",
    "the losers of each round are out, to one winner",
    "Your table is ready: {tournament}, round {round}, table {table}.",
    "a round of my tournament starts, and at what time",
    "{tournament}: round {round} starts at {time}.",
}
# per language: a game's round, a tournament's (not the start of "турнір"/"турнир"), the words for a
# call a player says, and the words they must not be confused with
WORDS = {
    "uk": {"game": r"\bраунд", "tournament": r"\bтур(?!нір)", "call": r"оголо", "not call": r"виклик"},
    "ru": {"game": r"\bраунд", "tournament": r"\bтур(?!нир)", "call": r"объяв", "not call": r"возглас"},
}
# the formats' names: "round robin" names a format, neither kind of round
FORMAT_NAMES = {"Round robin", "Double round robin"}
ROLES = ("Суддя", "Судья", "Адміністратор", "Администратор")
PLACEHOLDER = re.compile(r"\{[^}]*\}")


def says(pattern: str, text: str) -> bool:
    return re.search(pattern, text, re.IGNORECASE) is not None


def english_says(pattern: str, message: str) -> bool:
    return re.search(pattern, PLACEHOLDER.sub("", message), re.IGNORECASE) is not None


@pytest.mark.parametrize("language", sorted(WORDS))
def test_a_games_round_and_a_tournaments_round_have_one_word_each(language: str) -> None:
    messages, words = read_catalogue(language).messages, WORDS[language]
    assert all_messages() >= TOURNAMENT_ROUNDS
    rounds = [m for m in all_messages() if english_says(r"\brounds?\b", m) and m not in FORMAT_NAMES]
    tournament = [m for m in rounds if m in TOURNAMENT_ROUNDS]
    game = [m for m in rounds if m not in TOURNAMENT_ROUNDS]
    assert len(tournament) == len(TOURNAMENT_ROUNDS) and len(game) > 30
    assert [
        m
        for m in tournament
        if not says(words["tournament"], messages[m]) or says(words["game"], messages[m])
    ] == []
    assert [
        m for m in game if not says(words["game"], messages[m]) or says(words["tournament"], messages[m])
    ] == []
    # "партія"/"партия" reads as a whole game: no page says it for a round
    assert [m for m in all_messages() if says(r"парті|парти", messages[m])] == []


@pytest.mark.parametrize("language", sorted(WORDS))
def test_a_call_a_player_says_is_one_word_never_a_phone_call(language: str) -> None:
    messages, words = read_catalogue(language).messages, WORDS[language]
    calls = [m for m in all_messages() if english_says(r"\bcalls?\b", m)]
    assert len(calls) > 5
    assert [m for m in calls if not says(words["call"], messages[m])] == []
    assert [m for m in all_messages() if says(words["not call"], messages[m])] == []


@pytest.mark.parametrize("language", sorted(WORDS))
def test_an_officials_office_has_a_capital_only_where_a_sentence_starts(language: str) -> None:
    translate = read_catalogue(language).gettext
    referee, admin = translate("Referee {name}", name="Rita"), translate("An admin")
    assert referee.startswith(("Суддя", "Судья")) and admin[0].isupper()
    assert actor_words(translate, "referee", "Rita", opening=True) == referee
    assert actor_words(translate, "referee", "Rita") == referee[0].lower() + referee[1:]
    assert actor_words(translate, "admin", "") == admin[0].lower() + admin[1:]
    corrected = translate(
        "Corrected by {who}; the entry it replaced:", who=actor_words(translate, "referee", "Rita")
    )
    assert not any(role in corrected for role in ROLES), corrected
    # no message writes an office in capitals after its first word, but after a sentence's end
    mid_sentence = re.compile(rf"(?<![.!?:]\s)(?<!^)\b({'|'.join(ROLES)})\b")
    messages = read_catalogue(language).messages
    assert [messages[m] for m in all_messages() if mid_sentence.search(messages[m])] == []


@pytest.mark.parametrize("language", sorted(WORDS))
def test_a_double_round_robin_is_named_as_the_round_robin_is_with_its_two_cycles(language: str) -> None:
    messages = read_catalogue(language).messages
    assert messages["Round robin"].lower() in messages["Double round robin"].lower()
