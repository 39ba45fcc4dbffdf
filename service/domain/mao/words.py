"""The words of the base rules' calls.

Words are compared after ``normalise`` (lower case, single spaces); the judge takes the
words as written here and nothing else ("seven of spades", not "7 of spades").
"""

MAO = "mao"
RANK_WORDS: tuple[str, ...] = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace",
)  # fmt: skip
SPADE_NAMES: frozenset[str] = frozenset(f"{word} of spades" for word in RANK_WORDS)


def normalise(words: str) -> str:
    return " ".join(words.lower().split())


def is_public_call(words: str) -> bool:
    return words == MAO or words in SPADE_NAMES
