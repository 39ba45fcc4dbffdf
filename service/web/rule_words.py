"""The rulesets, their options and the bots by name in the reader's language, each with a line saying
what it is: the pages never show an identifier (``stack_sevens``, ``haft-khabis``, ``bot:heuristic``)
where a person reads. The identifiers stay what the forms send and the API takes.
"""

from typing import Any, TypeVar

import msgspec

from service.domain.tournament_plan import BOT_ENTRANT
from service.web.i18n import Translate


def ruleset_name(_: Translate, name: str) -> str:
    """A ruleset (a preset) by its name in the reader's language; an unknown one as it is written."""
    names = {
        "club": _("Club Mau-Mau"),
        "classic": _("Classic Mau-Mau"),
        "mau-mau-150": _("Mau-Mau to 150"),
        "101": _("One hundred and one (101)"),
        "faraon": _("Faraon (Slovak)"),
        "haft-khabis": _("Haft-khabis, the evil seven (Iranian)"),
        "neuner": _("Neuner (Austrian)"),
        "pesten": _("Pesten (Dutch)"),
        "prsi": _("Prsi (Czech)"),
        "puke": _("Puke (Portuguese)"),
        "russian": _("Russian Pharaoh (Crocodile)"),
        "mao": _("Mao"),  # a Mao league's, which the home and league pages list beside the others
    }
    return names.get(name, name)


def ruleset_meaning(_: Translate, name: str) -> str:
    """What a ruleset is, in a line."""
    meanings = {
        "club": _("52 cards; sevens pile up, eights skip, jacks name a suit; to 100, the lowest total wins"),
        "classic": _(
            "32 cards; a seven draws two, an eight skips, jacks name a suit, an ace must be covered"
        ),
        "mau-mau-150": _(
            "32 cards; nines reverse, draw whenever you like; the winner collects, first to 150"
        ),
        "101": _("36 cards, four each; sixes must be covered, queens name a suit; over 101 is out"),
        "faraon": _(
            "32 cards; a seven draws three, an ace skips, the queen names a suit; "
            "a loser is dealt one card fewer"
        ),
        "haft-khabis": _("52 cards; a seven draws two, an ace skips, a ten reverses, a two picks who draws"),
        "neuner": _("32 cards and a joker; nines and the joker name a suit, no other card does anything"),
        "pesten": _(
            "52 cards and two jokers; twos and jokers pile up, after a seven or a king you play again"
        ),
        "prsi": _("32 cards, four each; a seven draws two, an ace skips, the queen names a suit; no calls"),
        "puke": _(
            "Classic Mau-Mau on 52 cards: a two skips, an eight is plain; the call comes one card early"
        ),
        "russian": _("36 cards; an ace skips, a seven or a six draws one, queens name a suit"),
    }
    return meanings.get(name, "")


def ruleset_words(_: Translate, name: str) -> str:
    """A ruleset's name and its line, for a choice."""
    meaning = ruleset_meaning(_, name)
    return f"{ruleset_name(_, name)} — {meaning}" if meaning else ruleset_name(_, name)


def option_name(_: Translate, name: str) -> str:
    """A league's option, or a preset's own switch, by what it does."""
    names = {
        "target_score": _("Target score"),
        "single_round": _("A match is one round"),
        "hand_size": _("Cards dealt to each"),
        "voluntary_draw": _("Drawing when able to play"),
        "call_penalty": _("Cards drawn for a missed call"),
        "decks": _("Decks"),
        "quick": _("Quick: several cards of one rank laid at once"),
        "blind": _("Blind: a card played face down, declared as any card"),
        "stack_sevens": _("Sevens pile up: a seven answers a seven"),
        "stack_eights": _("Eights pile up: an eight answers an eight"),
        "going_out_call": _("Going out, a player says Mau-Mau"),
        "draw_one": _("A player draws one card only, not until one can be played"),
        "crocodile": _("Crocodile: the king of hearts draws five"),
        "seven_of_spades_four": _("The seven of spades draws four"),
        "ceiling_201": _("Out over 201 instead of 101"),
        "ceiling_501": _("Out over 501 instead of 101"),
        "minus_365_wins": _("A total of exactly −365 wins the match"),
        "ace_skips_at_once": _("An ace skips at once: it cannot be answered"),
        "king_of_spades": _("The king of spades draws four"),
        "ten_of_hearts": _("The ten of hearts: every other player draws one, its player plays again"),
        "ten_reverses": _("Tens reverse the direction of play"),
    }
    return names.get(name, name)


def option_meaning(_: Translate, name: str) -> str:
    """What an option whose name says little by itself does, in a line (empty: its name says it)."""
    meanings = {
        "target_score": _("a match ends once a total reaches it; empty: the ruleset's own"),
        "single_round": _("one round decides the match: no totals carried over"),
        "hand_size": _("how many cards each player is dealt at the start of a round"),
        "voluntary_draw": _("whether a player may draw instead of playing a card they have"),
        "call_penalty": _("how many cards a player draws who forgot to call"),
        "decks": _("how many decks are shuffled together: two for a big table"),
    }
    return meanings.get(name, "")


def format_meaning(_: Translate, name: str) -> str:
    """What a tournament's format is, in a line."""
    meanings = {
        "swiss": _("each round pairs those with equal scores; nobody is out"),
        "round_robin": _("everyone meets everyone once"),
        "double_round_robin": _("everyone meets everyone twice"),
        "single_elimination": _("the losers of each round are out, to one winner"),
    }
    return meanings.get(name, "")


def owners_words(_: Translate, presets: list[str]) -> str:
    """The rulesets a switch belongs to (another refuses it), for beside its name."""
    return _("only in: {rulesets}", rulesets=", ".join(ruleset_name(_, preset) for preset in presets))


def bot_name(_: Translate, bot: str) -> str:
    """A bot (``heuristic``, or a seat's ``bot:heuristic``; Mao's ``bot:learning`` too) by its name in
    the reader's language."""
    kind = bot.removeprefix(BOT_ENTRANT)
    names = {"random": _("Random bot"), "heuristic": _("Careful bot"), "learning": _("Learning bot")}
    return names.get(kind, kind)


def bot_meaning(_: Translate, bot: str) -> str:
    meanings = {
        "random": _("plays a legal move at random"),
        "heuristic": _(
            "plays like a careful player: sheds its costly cards first, keeps its wild cards for last"
        ),
    }
    return meanings.get(bot.removeprefix(BOT_ENTRANT), "")


def entrant_name(_: Translate, entrant: str, names: dict[str, str]) -> str:
    """A tournament's entrant by name: a player's own, a bot's place (``bot:heuristic#2``) as its
    bot's name and number."""
    shown = names.get(entrant, entrant)  # a bot's place is named by itself
    if shown.startswith(BOT_ENTRANT):
        bot, _sep, number = shown.partition("#")
        return f"{bot_name(_, bot)} {number}".strip()
    return shown


Table = TypeVar("Table", bound=Any)


def seats_named(_: Translate, table: Table) -> Table:
    """A table whose bots' seats are named in words ("bot:heuristic" -> "Careful bot"), everywhere
    a page names a seat (its list of seats, whose turn it is, a missed call, the last actions)."""
    seats = [
        msgspec.structs.replace(seat, name=entrant_name(_, seat.name, {}))
        if seat.name.startswith(BOT_ENTRANT)
        else seat
        for seat in table.seats
    ]
    return msgspec.structs.replace(table, seats=seats)
