"""What a play did and the round and match events of the family's presets, in words.

A play's effects are read from the event (who owes cards, who misses a turn, who moves next) and,
for what the event does not say (a turn of direction, a debt cleared, every other player drawing),
from the game's ruleset with its options. The calls are said in the ruleset's own words.

The messages here are literals passed to ``_``, found by ``service.web.messages`` like those of
``words.py``.
"""

from typing import Any

from service.domain.cards import JOKER, RANKS, SUITS, is_joker, parse_card, rank_of, suit_of
from service.domain.presets import CLUB
from service.domain.rulesets import CardEffect, Ruleset
from service.web.i18n import Translate

NO_EFFECT = CardEffect()


def effect_of(rules: Ruleset, card: str) -> CardEffect:
    """The effect a card has in the ruleset: its own entry, else its rank's (a joker: the jokers')."""
    c = parse_card(card)
    if is_joker(c):
        return rules.effects.get(JOKER, NO_EFFECT)
    rank = RANKS[rank_of(c)]
    found = rules.effects.get(rank + SUITS[suit_of(c)]) or rules.effects.get(rank)
    return found or NO_EFFECT


def call_word(_: Translate, word: str) -> str:
    """A call as the players say it at the table, in the page's language; a word not known here as
    the ruleset writes it."""
    words = {
        "Mau": _("Mau"),
        "Mau Mau": _("Mau Mau"),
        "Mau-Mau": _("Mau-Mau"),
        "last card": _("last card"),
        "single card": _("single card"),
        "Puke": _("Puke"),
        "Puke-Puke": _("Puke-Puke"),
    }
    return words.get(word, word)


def said_words(_: Translate, call: str | None, rules: Ruleset) -> str:
    """What a player said with a play, in the ruleset's words ("" for nothing)."""
    word = {"mau": rules.call_words[0], "mau_mau": rules.call_words[1]}.get(call or "")
    return _("says “{word}”", word=call_word(_, word)) if word else ""


def _seat(names: list[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""


def effect_words(_: Translate, data: dict[str, Any], names: list[str], rules: Ruleset = CLUB) -> list[str]:
    """What a play did to the game, one phrase an effect, in the order they happen."""
    effect = effect_of(rules, data["card"])
    seat, turn, debt = data.get("seat"), data.get("turn"), data.get("debt") or 0
    skipped = data.get("skipped", -1)
    phase = data.get("phase") or "play"
    said: list[str] = []
    if effect.reverse:
        said.append(_("play turns the other way"))
    if effect.cancels_debt and not debt:
        said.append(_("any debt owed is cancelled"))
    if effect.others_draw:
        said.append(_("every other player draws {count}", count=effect.others_draw))
    if debt:
        said.append(_("{who} owes {count} cards", who=_seat(names, turn), count=debt))
    if isinstance(skipped, int) and skipped >= 0:
        said.append(_("{who} misses a turn", who=_seat(names, skipped)))
    if phase == "choose_player":
        said.append(_("{who} chooses who draws {count}", who=_seat(names, seat), count=effect.choose_drawer))
    elif turn == seat and not debt and (not isinstance(skipped, int) or skipped < 0):
        # a card its player must cover or follow, or one that plays again
        said.append(_("{who} moves again", who=_seat(names, seat)))
    return said


def round_event_words(_: Translate, kind: str, data: dict[str, Any], names: list[str]) -> str | None:
    """The events of elimination and shrinking hands; None for any other."""
    who = _seat(names, data.get("seat"))
    if kind == "PlayerEliminated":
        if data.get("reason") == "lost_holding_one_card":
            return _("{who} is out of the match: they lost a round holding a single card", who=who)
        return _(
            "{who} is out of the match with {total} points, over the limit", who=who, total=data.get("total")
        )
    if kind == "HandShrank":
        return _("{who} is dealt {count} cards from the next round on", who=who, count=data.get("hand_size"))
    return None


def calls_of(_: Translate, rules: Ruleset) -> dict[str, str]:
    """The calls a player of this ruleset may have to say with a play, by the move's name, in words."""
    calls = {}
    if rules.mau_call:
        calls["mau"] = call_word(_, rules.call_words[0])
    if rules.mau_mau_call != "never":
        calls["mau_mau"] = call_word(_, rules.call_words[1])
    return calls
