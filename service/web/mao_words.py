"""A Mao match's log, penalties and phases in words, in the page's language.

The log's entries are the ones the reader may see (``service.domain.mao.redaction``): a sentence
says only what its entry holds, so a player's page never names a card or a rule the entry hid.
What players say is quoted as said (the judge hears English words: "mao", "seven of spades").
The messages are literals passed to ``_`` (``service.web.messages`` reads this file).
"""

from collections.abc import Callable
from typing import Any

from service.domain.tournament_plan import BOT_ENTRANT
from service.web.i18n import Translate
from service.web.rule_words import bot_name

CardName = Callable[[str], str]


def penalty_words(_: Translate, reason: str) -> str:
    """The judge's short reason for a penalty (or a returned play), never the rule."""
    reasons = {
        "no_match": _("does not match"),
        "wrong_colour": _("wrong colour"),
        "wrong_suit": _("wrong suit"),
        "wrong_rank": _("wrong rank"),
        "out_of_turn": _("out of turn"),
        "missed_call": _("missed call"),
        "extra_utterance": _("talking"),
    }
    return reasons.get(reason, reason)


def phase_words(_: Translate, phase: str, round_no: int) -> str:
    """Where the match stands; before the first deal, it says so."""
    if phase in ("new", "deal") and round_no == 0:
        return _("Waiting for the first deal")
    phases = {
        "deal": _("Waiting for the next deal"),
        "play": _("Playing"),
        "recycle": _("Shuffling the discards"),
        "over": _("The match is over"),
    }
    return phases.get(phase, phase)


def seat_words(_: Translate, name: str) -> str:
    """A seat's name: a member's own; a bot's in words."""
    return bot_name(_, name) if name.startswith(BOT_ENTRANT) else name


def _about(_: Translate, about: str) -> str:
    return _("the turn order") if about == "order" else _("safety")


def _penalty(_: Translate, entry: dict[str, Any], who: str) -> str:
    return _("{who} takes a penalty card: {reason}", who=who, reason=penalty_words(_, entry["reason"]))


def _said(_: Translate, entry: dict[str, Any], who: str) -> str:
    return _("{who} said “{words}”", who=who, words=entry["words"])


def _missed(_: Translate, entry: dict[str, Any], who: str) -> str:
    if "words" in entry:  # a base call; the rule's own stay hidden until the reveal
        return _("{who} missed the call “{words}”", who=who, words=entry["words"])
    return _("{who} missed a call", who=who)


def _taken(_: Translate, entry: dict[str, Any], who: str, card: CardName) -> str:
    if "card" not in entry:  # another seat's card: its count is all the table sees
        return ""
    return _("{who} took {card}", who=who, card=card(entry["card"]))


def _round_ended(_: Translate, entry: dict[str, Any], names: list[str]) -> str:
    if entry["winner"] < 0:
        return _("Round {number} ended in a draw", number=entry["round_no"])
    return _("{who} won round {number}", who=names[entry["winner"]], number=entry["round_no"])


def _proposed(_: Translate, entry: dict[str, Any], who: str) -> str:
    if "text" in entry:
        return _("{who} proposed the rule “{rule}”", who=who, rule=entry["text"])
    return _("{who} proposed a rule for the next round", who=who)


def entry_words(_: Translate, entry: dict[str, Any], names: list[str], card: CardName) -> str:
    """One log entry as a sentence; "" for what the log keeps but a reader needs no line for."""
    kind = entry["type"]
    who = names[entry["seat"]] if isinstance(entry.get("seat"), int) else ""
    if kind == "CardPlayed":
        return _("{who} played {card}", who=who, card=card(entry["card"]))
    if kind == "PlayReturned":
        return _(
            "{who} played {card}: returned, {reason}",
            who=who,
            card=card(entry["card"]),
            reason=penalty_words(_, entry["reason"]),
        )
    if kind == "PlayCancelled":
        return _("{who} played {card} out of turn: taken back", who=who, card=card(entry["card"]))
    if kind == "CardDrawn":
        return _("{who} drew a card", who=who)
    if kind in ("CallMade", "Spoke"):
        return _said(_, entry, who)
    if kind == "TalkedInPause":
        return _(
            "{who}, in the pause, about {topic}: “{words}”",
            who=who,
            topic=_about(_, entry["about"]),
            words=entry["words"],
        )
    if kind == "CallMissed":
        return _missed(_, entry, who)
    if kind == "PenaltyGiven":
        return _penalty(_, entry, who)
    if kind == "CardTaken":
        return _taken(_, entry, who, card)
    return _table_words(_, entry, names, who)


def _table_words(_: Translate, entry: dict[str, Any], names: list[str], who: str) -> str:
    """The entries about the round and the match rather than one seat's act."""
    kind = entry["type"]
    if kind == "RuleWritten":
        if "text" in entry:
            return _("The rule of round {number}: “{rule}”", number=entry["round_no"], rule=entry["text"])
        return _("The judge wrote the rule of round {number}", number=entry["round_no"])
    if kind == "RoundDealt":
        return _("Round {number} dealt by {who}", number=entry["round_no"], who=names[entry["dealer"]])
    if kind == "StockRecycled":
        return _("The discards were shuffled into a new stock")
    if kind == "PauseCalled":
        return _("{who} called a pause", who=who)
    if kind == "PauseEnded":
        return _("{who} ended the pause", who=who)
    if kind == "RoundEnded":
        return _round_ended(_, entry, names)
    if kind == "RuleRevealed":
        return _("The rule of round {number} was “{rule}”", number=entry["round_no"], rule=entry["text"])
    if kind == "RuleProposed":
        return _proposed(_, entry, who)
    if kind == "RuleApproved":
        return _("The judge approved the proposed rule")
    if kind == "RuleRefused":
        return _("The judge refused the proposed rule")
    if kind == "MatchEnded":
        return _("{who} won the match", who=names[entry["winner"]]) if entry["winner"] >= 0 else ""
    return ""  # the match's start, the stock run out: the table's figures say it


def log_lines(
    _: Translate, entries: list[dict[str, Any]], names: list[str], card: CardName, most: int
) -> list[tuple[int, str]]:
    """The last ``most`` entries that have words, the newest first, each with its number."""
    lines: list[tuple[int, str]] = []
    for number, entry in reversed(list(enumerate(entries, 1))):
        words = entry_words(_, entry, names, card)
        if words:
            lines.append((number, words))
            if len(lines) == most:
                break
    return lines
