"""Cards, suits and a game's events in words, in the page's language.

The messages here are literals passed to ``_`` so that the catalogue test finds them like the
templates' own (``tests/web/test_catalogues.py`` reads this file too).
"""

from typing import Any

from service.web.i18n import Translate

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def suit_name(_: Translate, suit: str) -> str:
    names = {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")}
    return names.get(suit[:1].upper(), suit)


def rank_name(_: Translate, rank: str) -> str:
    names = {"J": _("jack"), "Q": _("queen"), "K": _("king"), "A": _("ace")}
    return names.get(rank, rank)


def card_name(_: Translate, card: str) -> str:
    """``"10H"`` as "10 of hearts" (in the page's language)."""
    return _("{rank} of {suit}", rank=rank_name(_, card[:-1]), suit=suit_name(_, card[-1]))


def card_symbol(card: str) -> str:
    return card[:-1] + SUIT_SYMBOLS.get(card[-1], card[-1])


def order_words(_: Translate, keys: list[str], lower_is_better: bool) -> list[str]:
    """The keys a table is ranked by (``Standings.tie_breaks``, ``TournamentView.tie_breaks``), in
    words, in order; a key not known here as itself."""
    phrases = {
        "matches_won_or_shared": _("most matches won (a shared win counts)"),
        "matches_won": _("most outright wins"),
        "forfeits": _("fewest forfeits"),
        "average_points": _("the lowest average points per round")
        if lower_is_better
        else _("the highest average points per round"),
        "rounds_won": _("most rounds won"),
        "missed_calls": _("fewest missed calls"),
        "stage": _("the round reached, the furthest first"),
        "points": _("fewest points") if lower_is_better else _("most points"),
        "wins": _("most wins (a shared win and a bye count)"),
        "opponents": _("the strongest opposition (the mean points of the opponents met)"),
        "seed": _("the seed order"),
    }
    return [phrases.get(key, key) for key in keys]


def actor_words(_: Translate, role: str, name: str) -> str:
    """Who did something, as a sentence names them: a player by name, an official by office."""
    if role == "referee":
        return _("Referee {name}", name=name)
    if role == "admin":
        return _("An admin")
    return name


def seat_name(names: list[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""


def sheet_words(_: Translate, event: Any, names: list[str], by: str) -> str | None:
    """A score sheet's event (a game played in person) as a sentence; ``by`` says who caused it."""
    data: dict[str, Any] = event.data
    kind = event.type
    if kind == "RoundEntered":
        winner = data["entry"]["winner"]
        if winner is None:
            return _("{who} entered round {number}: nobody went out", who=by, number=data["round_no"])
        return _(
            "{who} entered round {number}: {winner} went out",
            who=by,
            number=data["round_no"],
            winner=seat_name(names, winner),
        )
    if kind == "RoundConfirmed":
        return _(
            "{who} confirmed round {number}", who=seat_name(names, data["seat"]), number=data["round_no"]
        )
    if kind == "RulingGiven" and data["ruling"].get("type") == "correct":
        return _("{who} corrected round {number}", who=by, number=data["ruling"]["round_no"])
    return None


def event_words(_: Translate, event: Any, names: list[str], by: str = "") -> str | None:
    """A public event as a sentence; None for the events a spectator need not read. ``by`` names
    who caused it, for the events that say so."""
    said = sheet_words(_, event, names, by)
    if said is not None:
        return said
    data: dict[str, Any] = event.data
    who = seat_name(names, data.get("seat"))
    kind = event.type
    if kind == "CardPlayed":
        said = {"mau": _("says Mau"), "mau_mau": _("says Mau Mau")}.get(data.get("call") or "", "")
        text = _("{who} plays {card}", who=who, card=card_name(_, data["card"]))
        if data.get("suit"):
            text += ", " + _("names {suit}", suit=suit_name(_, data["suit"]))
        return f"{text} {said}".strip()
    if kind == "CardsDrawn":
        return _("{who} draws {count}", who=who, count=data.get("count", len(data.get("cards") or [])))
    if kind == "CardKept":
        return _("{who} keeps the card drawn", who=who)
    if kind == "SuitNamed":
        return _("{who} names {suit}", who=who, suit=suit_name(_, data.get("suit") or ""))
    if kind == "MissedCallChallenged":
        return _("{who} challenges a missed call", who=who)
    if kind == "RoundDealt":
        return _("Round {number} is dealt", number=data.get("round_no", ""))
    if kind == "RoundEnded":
        return _("The round is over")
    if kind == "MatchEnded":
        return _("The match is over")
    if kind == "DisputeRaised":
        return _("A dispute is raised: play waits for a referee")
    if kind == "RulingGiven":
        return _("A referee ruled")
    if kind == "TurnTimedOut":
        return _("{who}'s clock ran out: a bot plays the turn", who=who)
    return None
