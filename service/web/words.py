"""Cards, suits and a game's events in words, in the page's language.

The messages here are literals passed to ``_`` so that the catalogue test finds them like the
templates' own (``tests/web/test_catalogues.py`` reads this file too).
"""

from typing import Any

from service.domain.cards import JOKER, RANKS, SUITS, is_joker, parse_card, rank_of, suit_of
from service.domain.declared import DECLARED
from service.domain.presets import CLUB
from service.domain.rulesets import Ruleset
from service.web.i18n import Translate
from service.web.play_words import effect_words, round_event_words, said_words

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def suit_name(_: Translate, suit: str) -> str:
    names = {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")}
    return names.get(suit[:1].upper(), suit)


def rank_name(_: Translate, rank: str) -> str:
    names = {"J": _("jack"), "Q": _("queen"), "K": _("king"), "A": _("ace")}
    return names.get(rank, rank)


JOKER_SYMBOL = "🃏"


def card_suit(card: str) -> str:
    """The suit letter of a card's text (``"10H"``, ``"10H.2"``: ``"H"``); ``"joker"`` for a joker."""
    c = parse_card(card)
    return JOKER if is_joker(c) else SUITS[suit_of(c)]


def card_name(_: Translate, card: str) -> str:
    """``"10H"`` as "10 of hearts" (in the page's language); a second deck's copy is named alike."""
    c = parse_card(card)
    if is_joker(c):
        return _("joker")
    return _("{rank} of {suit}", rank=rank_name(_, RANKS[rank_of(c)]), suit=suit_name(_, SUITS[suit_of(c)]))


def card_symbol(card: str) -> str:
    c = parse_card(card)
    return JOKER_SYMBOL if is_joker(c) else RANKS[rank_of(c)] + SUIT_SYMBOLS[SUITS[suit_of(c)]]


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


def actor_words(_: Translate, role: str, name: str, *, opening: bool = False) -> str:
    """Who did something, as a sentence names them: a player by name, an official by office; the
    office in capitals only when ``opening`` the sentence ("Entered by referee Rita")."""
    if role == "referee":
        return _("Referee {name}", name=name) if opening else _("referee {name}", name=name)
    if role == "admin":
        return _("An admin") if opening else _("an admin")
    return name


def seat_name(names: list[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""


def _declared(translate: Translate, message: str, data: dict[str, Any], names: list[str]) -> str:
    """The words an event declares beside its class (``Declaration``), with the values they may name."""
    return translate(
        message,
        who=seat_name(names, data.get("seat")),
        next=seat_name(names, data.get("turn")),
        other=seat_name(names, data.get("chosen")),
        number=data.get("round_no", ""),
        count=data.get("count", ""),
    )


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


def _declaration_challenged(_: Translate, data: dict[str, Any], names: list[str]) -> str:
    """A face-down card challenged (blind): what it was, and who pays for the mistake."""
    who, player = seat_name(names, data.get("seat")), seat_name(names, data.get("player"))
    card, declared = card_name(_, data["card"]), card_name(_, data["declared"])
    if data.get("lied"):
        return _(
            "{who} challenges the card {player} laid face down as {declared}: it is {card}, a lie, "
            "and {player} draws the penalty",
            who=who,
            player=player,
            declared=declared,
            card=card,
        )
    return _(
        "{who} challenges the card {player} laid face down as {declared}: it is {card}, as declared, "
        "and {who} draws the penalty",
        who=who,
        player=player,
        declared=declared,
        card=card,
    )


def event_words(
    _: Translate, event: Any, names: list[str], by: str = "", rules: Ruleset = CLUB
) -> str | None:
    """A public event as a sentence; None for the events a spectator need not read. ``by`` names
    who caused it, for the events that say so; ``rules``, the game's ruleset, what a card does and
    how a call is said."""
    said = sheet_words(_, event, names, by)
    if said is not None:
        return said
    data: dict[str, Any] = event.data
    who = seat_name(names, data.get("seat"))
    kind = event.type
    if kind == "CardPlayed":
        played = [data["card"], *(data.get("more") or ())]  # several cards of one rank (quick)
        text = _("{who} plays {card}", who=who, card=", ".join(card_name(_, card) for card in played))
        if data.get("declared"):  # blind: only its player and the officials read the real card
            text = _(
                "{who} plays {card} face down as {declared}",
                who=who,
                card=card_name(_, data["card"]),
                declared=card_name(_, data["declared"]),
            )
        if data.get("suit"):
            text += ", " + _("names {suit}", suit=suit_name(_, data["suit"]))
        text = f"{text} {said_words(_, data.get('call'), rules)}".strip()
        # a face-down card acts as the card declared
        effects = effect_words(_, {**data, "card": data.get("declared") or data["card"]}, names, rules)
        return f"{text}: {'; '.join(effects)}" if effects else text
    if kind == "CardsDrawn":
        return _("{who} draws {count}", who=who, count=data.get("count", len(data.get("cards") or [])))
    if kind == "SuitNamed":
        return _("{who} names {suit}", who=who, suit=suit_name(_, data.get("suit") or ""))
    if kind == "DeclarationChallenged":
        return _declaration_challenged(_, data, names)
    if kind == "DeclarationsRevealed":
        shown = "; ".join(
            _(
                "{who}: {card} as {declared}",
                who=seat_name(names, play["seat"]),
                card=card_name(_, play["card"]),
                declared=card_name(_, play["declared"]),
            )
            for play in data.get("plays") or ()
        )
        return _("The cards played face down are turned up: {plays}", plays=shown or "–")
    declared = DECLARED.get(kind)
    if declared is not None and declared.words is not None:
        return _declared(_, declared.words, data, names)
    return round_event_words(_, kind, data, names)


# the referee console (``service.web.referee``): the full sight and the refusals of a ruling


def _cards(_: Translate, cards: list[str]) -> str:
    return ", ".join(card_name(_, card) for card in cards) or _("no card")


def _hands(_: Translate, hands: list[list[str]], names: list[str]) -> str:
    return "; ".join(f"{name}: {_cards(_, hand)}" for name, hand in zip(names, hands, strict=False))


def _dealt(data: dict[str, Any], names: list[str]) -> list[list[str]]:
    """Each seat's hand from a deal's whole deck, dealt one card a seat from the dealer's left."""
    deck: list[str] = data["deck"]
    seats = len(data["cards"])
    dealt = sum(data["cards"])
    return [deck[(seat - data["dealer"] - 1) % seats : dealt : seats] for seat in range(seats)]


def _reshuffled(data: dict[str, Any]) -> list[list[str]]:
    order: list[str] = data["order"]
    counts: list[int] = data["counts"]
    return [order[sum(counts[:seat]) : sum(counts[: seat + 1])] for seat in range(len(counts))]


def _ruling_words(_: Translate, ruling: dict[str, Any], names: list[str]) -> str:
    kind = ruling.get("type")
    if kind == "penalty":
        seat = ruling["seat"]
        who = names[seat] if 0 <= seat < len(names) else str(seat)
        return _("A referee ruled: {who} draws {count} penalty cards", who=who, count=ruling["cards"])
    if kind == "void":
        return _("A referee ruled: every event from {number} on is void", number=ruling["from_event"])
    if kind == "correct":
        return _("A referee ruled: the entry of round {number} is corrected", number=ruling["round_no"])
    return _("A referee ruled: play goes on")


def _entry_words(_: Translate, data: dict[str, Any], names: list[str]) -> str:
    entry = data["entry"]
    winner = entry.get("winner")
    number = data.get("round_no", "")
    if isinstance(winner, int) and 0 <= winner < len(names):
        text = _(
            "Round {number} is entered from the score sheet: {who} went out", number=number, who=names[winner]
        )
    else:
        text = _("Round {number} is entered from the score sheet: nobody went out", number=number)
    if entry.get("hands"):
        text += "; " + _("left in hand: {hands}", hands=_hands(_, entry["hands"], names))
    elif entry.get("points"):
        points = "; ".join(f"{name}: {value}" for name, value in zip(names, entry["points"], strict=False))
        text += "; " + _("points left in hand: {points}", points=points)
    return text


def role_words(_: Translate, role: str) -> str:
    """Who raised a dispute when no player's name says it."""
    return {"referee": _("a referee"), "admin": _("an admin"), "player": _("a player")}.get(role, role)


def full_event_words(_: Translate, event: Any, names: list[str], rules: Ruleset = CLUB) -> str:
    """Any event as an official reads it (``service.domain.redaction.FULL``): the hands dealt, the
    cards drawn, the stock's new order; an event without words here is named by its type."""
    data: dict[str, Any] = event.data
    seat = data.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    kind = event.type
    if kind == "RoundDealt" and "deck" in data:
        return _(
            "Round {number} is dealt: {hands}; the starter is {card}",
            number=data.get("round_no", ""),
            hands=_hands(_, _dealt(data, names), names),
            card=card_name(_, data["starter"]),
        )
    if kind == "CardsDrawn" and "cards" in data:
        return _("{who} draws {cards}", who=who, cards=_cards(_, data["cards"]))
    if kind == "HiddenCardsReshuffled" and "order" in data:
        return _("The hidden cards are shuffled anew: {hands}", hands=_hands(_, _reshuffled(data), names))
    if kind == "DisputeRaised":
        reason = (data.get("dispute") or {}).get("reason") or ""
        return (
            _("A dispute is raised: {reason}", reason=reason)
            if reason
            else event_words(_, event, names, rules=rules) or ""
        )
    if kind == "RulingGiven":
        return _ruling_words(_, data.get("ruling") or {}, names)
    if kind == "RoundEntered":
        return _entry_words(_, data, names)
    declared = DECLARED.get(kind)
    if declared is not None and declared.official is not None:
        return _declared(_, declared.official, data, names)
    return event_words(_, event, names, rules=rules) or kind
