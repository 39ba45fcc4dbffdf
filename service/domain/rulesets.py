"""Rulesets are data: one engine reads any of them.

A ruleset names its deck, the players it allows, the deal, what each rank (or
one card) does when played, the calls and their penalty, the scoring and the
match end. ``club`` is the reference; the other presets are the family's
variants, each described as played on its page in docs/rules/. Where a variant's source
leaves a detail open, the preset's comment says how it is read (``Reading:``).
"""

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from service.domain.cards import JOKER, JOKERS_PER_DECK, MAX_DECKS, RANKS, SUITS
from service.domain.errors import RuleError


class CardEffect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What playing a card does (the starter too, when ``starter_acts``, for draw, skip, reverse, wild).

    A draw debt is paid by the next player unless they answer it: drawing it ends their turn
    when ``draw_skips``, else they draw and then play on. ``again`` keeps the turn with the
    card's player (a card that must be covered, or plays again); ``ends_hand=False`` is a card
    that may not be a player's last card: holding only it, they draw instead.
    """

    draw: int = 0  # draw debt added for the next player
    skip: bool = False  # the next player misses their turn
    reverse: bool = False  # the direction of play turns round at once
    wild: bool = False  # playable on any ordinary top card; its player names a suit
    # the keys (ranks, cards, "joker") that may answer this card's pending debt; None: the ruleset's
    answers: tuple[str, ...] | None = None
    draw_skips: bool = True  # paying this card's debt ends the drawer's turn
    again: bool = False  # its player moves again at once (cover it, or play on)
    ends_hand: bool = True  # it may be the last card of a hand
    others_draw: int = 0  # every other player draws this many at once
    choose_drawer: int = 0  # its player chooses another player, who draws this many
    cancels_debt: bool = False  # it answers any pending debt and clears it
    # with ``again``: its player must cover it in the same turn, so a card they draw that covers
    # it is played, not kept
    must_cover: bool = False
    # with ``skip``: the skip waits for the next player, who passes it on with another card whose
    # skip waits or takes it (the draw action, drawing nothing); the one who takes it misses the turn
    skip_waits: bool = False
    # with ``again``: its player may end the turn instead of playing on (the keep action, no draw)
    may_pass: bool = False
    # the keys (as in effects) of top cards this card may not be played on, not even by suit or rank
    not_on: tuple[str, ...] = ()


class Ruleset(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    ranks: tuple[str, ...]  # every rank in the deck, in all four suits
    min_players: int
    max_players: int
    hand_size: int
    # by rank ("7"), by card ("KS": it overrides its rank's entry) or "joker"; others are ordinary
    effects: dict[str, CardEffect]
    debt_answers: tuple[str, ...]  # keys (as in effects) that may answer a pending draw debt, passing it on
    starter_acts: bool  # the starter acts as if the dealer had played it
    voluntary_draw: bool  # may a player draw while holding a playable card
    play_drawn_card: bool  # a playable card drawn in a turn may be played at once
    mau_call: bool  # a play that leaves exactly one card must be called "Mau"
    mau_mau_call: Literal["always", "on_wild", "never"]  # when going out must be called "Mau Mau"
    call_penalty: int  # cards drawn for a missed call, after a challenge
    scoring: Literal["penalty", "winner_takes"]  # losers score their hands / the winner gains them
    card_points: dict[str, int]  # by rank
    target_score: int  # the match ends at the end of a round in which someone reaches it
    match_winner: Literal["lowest_total", "highest_total"]  # ties share the win
    single_round: bool  # the match is one round
    # with no playable card, draw until one comes (or the stock is empty) instead of drawing one
    draw_until_playable: bool = False
    jokers: int = 0  # jokers in each deck (card_points then names "joker")
    decks: int = 1  # the deck is this many copies of ranks and jokers
    # Round and match structure; the defaults are club's (stored rulesets without them still
    # decode). Tables keyed by a card ("QS") or a rank ("Q"): a card's own entry wins over its
    # rank's.
    out_multiplier: dict[str, int] = {}  # by the card that went out: the losers' points times this
    out_points: dict[str, int] = {}  # by the card that went out: the winner's points for the round
    only_points: dict[str, int] = {}  # a loser whose every card is listed scores these instead
    reset_totals: tuple[int, ...] = ()  # a total that lands exactly on one of these becomes 0
    winning_total: int | None = None  # a total exactly this wins the match outright
    elimination_total: int | None = None  # a total over this puts the player out of the match
    shrinking_hands: bool = False  # a round's loser is dealt one card fewer; losing with one is out
    first_player: Literal["left_of_dealer", "round_winner"] = "left_of_dealer"
    redeal_four_of_a_kind: bool = False  # a hand dealt four of one rank annuls the deal
    call_words: tuple[str, str] = ("Mau", "Mau Mau")  # what the calls MAU and MAU_MAU are said as
    # with two decks the table seats up to this many (None: max_players whatever the decks); a
    # table is also bounded by the cards its hands, the starter and a card to draw need (check_table)
    max_players_two_decks: int | None = None
    # a missed call's challenge window closes as soon as the next player draws, also a card they
    # may still play (else it closes when they play or keep it)
    window_closes_on_draw: bool = False
    # Modifier `quick`: several cards of one rank in one play when the bottom one may be played; the
    # top card's effect counts once, but every card's draw adds to the debt
    quick: bool = False
    # with `quick`, every skipping card of the play skips one more player (faraon: two aces skip two)
    quick_skips_add: bool = False
    # Modifier `blind`: a card may be played face down as a declared card, which the next player
    # believes or challenges (``BLIND_PENALTY``)
    blind: bool = False
    # a round stops with no winner ("stalled") when the stock runs out again with every hand as it
    # was at the last recycle: the cards went round and brought nobody closer to going out, so
    # players who keep playing back what they draw would go on for ever. Off in club and
    # mau-mau-150, whose rounds are played exactly as their pages say.
    stalled_round_ends: bool = False


class Switch(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A preset's own on/off option: what turning it on changes."""

    effects: dict[str, CardEffect] = msgspec.field(default_factory=dict)  # entries added or replaced
    debt_answers: tuple[str, ...] | None = None  # replaced, when given
    draw_until_playable: bool | None = None  # replaced, when given
    elimination_total: int | None = None  # replaced, when given
    winning_total: int | None = None  # replaced, when given
    mau_mau_call: Literal["always", "on_wild", "never"] | None = None  # replaced, when given


# The settings a club may change per league or game, with their type.
OPTIONS: dict[str, type] = {
    "target_score": int,
    "single_round": bool,
    "hand_size": int,
    "voluntary_draw": bool,
    "call_penalty": int,
    "decks": int,
    "quick": bool,  # the modifier: see ``Ruleset.quick``
    "blind": bool,  # the modifier: see ``Ruleset.blind``
}

# The modifiers: options every preset takes, each a way of playing any of them.
MODIFIERS: tuple[str, ...] = ("quick", "blind")

# Reading (blind): a challenged lie costs the liar 2 cards, a challenged truth the challenger 2 (the
# Mau call's club penalty); the play's effect stands either way.
BLIND_PENALTY = 2

# The ranges of the numeric options a club may set for a new league, game or tournament: what a club
# could mean (a target of 10**18 is a match with no end that keeps a worker busy). Commands are
# checked against them, not rulesets read back from stored events (``check_options``).
OPTION_BOUNDS: dict[str, tuple[int, int]] = {
    "target_score": (1, 1000),
    "call_penalty": (0, 10),
    "decks": (1, MAX_DECKS),  # hand_size: bounded by the deck and the table (``check``, ``check_table``)
}

_FACE_TEN = {"J": 10, "Q": 10, "K": 10, "A": 10}

CLUB = Ruleset(
    name="club",
    ranks=RANKS,
    min_players=2,
    max_players=6,
    hand_size=5,
    effects={
        "7": CardEffect(draw=2),
        "8": CardEffect(skip=True),
        "J": CardEffect(wild=True),
    },
    debt_answers=("7",),
    starter_acts=True,
    voluntary_draw=False,
    play_drawn_card=True,
    mau_call=True,
    mau_mau_call="always",
    call_penalty=2,
    scoring="penalty",
    card_points={**{rank: int(rank) for rank in RANKS[:9]}, **_FACE_TEN},
    target_score=100,
    match_winner="lowest_total",
    single_round=False,
)

MAU_MAU_150 = Ruleset(
    name="mau-mau-150",
    ranks=("7", "8", "9", "10", "J", "Q", "K", "A"),
    min_players=2,
    max_players=4,
    hand_size=5,
    effects={
        "7": CardEffect(draw=2),
        "8": CardEffect(skip=True),
        "9": CardEffect(reverse=True),
        "J": CardEffect(wild=True),
    },
    debt_answers=("7",),
    # Reading: the variant is silent on the starter; it acts as in `club`
    # (a starting 9 sends play to the dealer's right).
    starter_acts=True,
    voluntary_draw=True,
    play_drawn_card=True,
    mau_call=True,
    mau_mau_call="on_wild",
    call_penalty=2,
    scoring="winner_takes",
    card_points={"7": 7, "8": 8, "9": 9, "10": 10, "J": 20, "Q": 10, "K": 10, "A": 10},
    target_score=150,
    match_winner="highest_total",
    single_round=False,
)

_PIQUET = ("7", "8", "9", "10", "J", "Q", "K", "A")  # the 32-card deck
_SHORT = ("6", *_PIQUET)  # the 36-card deck
_CLUB_POINTS = CLUB.card_points

# 101 counts J 2, Q 3, K 4, A 11, 9 nothing and the others their face value
_POINTS_101 = {"6": 6, "7": 7, "8": 8, "9": 0, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 11}


def _preset(name: str, ranks: tuple[str, ...], **fields: Any) -> Ruleset:
    """A preset: `club`'s fields, this deck and these changes; a round whose cards only go round
    stops (``stalled_round_ends``)."""
    base = msgspec.structs.replace(
        CLUB,
        name=name,
        ranks=ranks,
        card_points={rank: _CLUB_POINTS[rank] for rank in ranks},
        stalled_round_ends=True,
    )
    return msgspec.structs.replace(base, **fields)


_AGAIN_NOT_LAST = CardEffect(again=True, ends_hand=False)
_MAY_AGAIN_NOT_LAST = CardEffect(again=True, ends_hand=False, may_pass=True)

# classic: 2-5 players, deal 5, 7 draws 2 (not answered), 8 skips, J wild, an ace is covered by
# a second card of its player and may not be the last card.
# Reading: "two decks for more than 5 players" seats up to 12 with two decks, as far as the deck
# deals the hands (64 cards: 12 hands of 5, 10 of 6).
# The drawer of a 7's debt "may play" (the family's description says so): they play their turn on
# the 7 after drawing. Reading: a player who cannot cover an ace draws 1 (and may play it if it
# covers); "Mau-Mau" is said when the last card is a jack (option `going_out_call`: every going
# out is called). The losers' points are doubled when the winning card is a jack; a missed call
# costs 1 card.
CLASSIC = _preset(
    "classic",
    _PIQUET,
    max_players=5,
    max_players_two_decks=12,
    effects={
        "7": CardEffect(draw=2, draw_skips=False),
        "8": CardEffect(skip=True),
        "J": CardEffect(wild=True),
        "A": _AGAIN_NOT_LAST,
    },
    debt_answers=(),
    mau_mau_call="on_wild",
    out_multiplier={"J": 2},
    call_words=("Mau", "Mau-Mau"),
    call_penalty=1,
)

# 101: 36 cards, deal 4, draw until playable; 6 covered by its player (not a last card: a card
# drawn that covers it is played), 7 draws
# 2 (answered by a 7), 10 reverses, A skips unless the next player answers it with an ace, passing
# the skip on (option `ace_skips_at_once`: it skips at once), Q wild, K♠ draws 4.
# Reading: a six is never a last card: its player covers it in the same turn, so the cover, not
# the six, would end the hand; holding only a six they draw instead.
# Reading: a debt's drawer misses the turn, so with 2 players the card's player goes again; K♠'s
# debt cannot be answered; a 6 is never pending (its player covers it), so only 7s deflect.
# No call is required. A hand dealt four of a kind annuls the deal.
# Reading: "subtracts 20" is the winner's score for the round: -20 (-40 for Q♠) on the total.
# Reading: "holding only queens" is a hand of one card or more, every one a queen; it scores 20 a
# queen (40 for Q♠) in place of the queens' 3 points.
# Reading: the reset is to exactly 100 at any ceiling (201 and 501 too), checked after the round's
# points are added and before anyone is put out.
# Reading: "over 101" is strictly over: a total of 101 plays on (options: 201, 501).
# Reading: the first round's random first player is chance from outside, as the first dealer is:
# StartMatch's first_dealer is drawn at random and the seat on its left starts. Later rounds: the
# previous round's winner (left of the dealer after a round nobody won).
ONE_O_ONE = _preset(
    "101",
    _SHORT,
    hand_size=4,
    effects={
        "6": CardEffect(again=True, ends_hand=False, must_cover=True),
        "7": CardEffect(draw=2),
        "10": CardEffect(reverse=True),
        "A": CardEffect(skip=True, skip_waits=True),
        "Q": CardEffect(wild=True),
        "KS": CardEffect(draw=4, answers=()),
    },
    debt_answers=("7",),
    mau_call=False,
    mau_mau_call="never",
    draw_until_playable=True,
    card_points=_POINTS_101,
    out_points={"Q": -20, "QS": -40},
    only_points={"Q": 20, "QS": 40},
    reset_totals=(100,),
    elimination_total=101,
    first_player="round_winner",
    redeal_four_of_a_kind=True,
)

# prsi: 32 cards, deal 4; A skips, 7 draws 2 (answered by a 7), Q wild on any card except a seven
# or an ace, pending or not.
# Reading: not even a queen of the seven's or the ace's suit; a queen does not answer a debt. J is
# ordinary; no call is required.
PRSI = _preset(
    "prsi",
    _PIQUET,
    hand_size=4,
    effects={
        "7": CardEffect(draw=2),
        "A": CardEffect(skip=True),
        "Q": CardEffect(wild=True, not_on=("7", "A")),
    },
    debt_answers=("7",),
    mau_call=False,
    mau_mau_call="never",
)

# pesten: 52 cards and 2 jokers, deal 7; 2 draws 2, a joker is wild and draws 5, 2s and jokers
# answer each other's debts; after a 7 or a K its player may play again, 8 skips, A reverses, J
# wild; no effect card ends a hand. The `decks` option plays two decks for many players.
# Reading: the drawer of a debt loses the turn; a joker names a suit; a player whose only card is
# an effect card must draw; a player who does not play again after a 7 or a K ends the turn
# without drawing; a joker left in a hand counts 20; "last card" is the Mau call, no call on going
# out. A forgotten "last card" costs a new hand: 5 cards (`call_penalty: 7`, the other count
# given). It is noticed "before the next player plays or draws": their draw closes the window,
# even of a card they may then play.
PESTEN = _preset(
    "pesten",
    RANKS,
    hand_size=7,
    max_players=6,
    jokers=2,
    card_points={**_CLUB_POINTS, JOKER: 20},
    effects={
        JOKER: CardEffect(draw=5, wild=True, ends_hand=False),
        "2": CardEffect(draw=2, ends_hand=False),
        "7": _MAY_AGAIN_NOT_LAST,
        "8": CardEffect(skip=True, ends_hand=False),
        "J": CardEffect(wild=True, ends_hand=False),
        "K": _MAY_AGAIN_NOT_LAST,
        "A": CardEffect(reverse=True, ends_hand=False),
    },
    debt_answers=("2", JOKER),
    mau_mau_call="never",
    call_penalty=5,
    call_words=("last card", "last card"),
    window_closes_on_draw=True,
)

# faraon: as prsi, deal 5, but a 7 draws 3 (so a chain of sevens owes 3, 6, 9, 12); J♠ (the
# jack of leaves) cancels a pending 7 debt.
# Reading: with no debt pending, J♠ is an ordinary card. The round's winner starts the next round.
# Several cards of one rank may be played together (`quick`, always on) and each acts: two aces
# skip two players, sevens played together add 3 each (3, 6, 9, 12). Reading: a play's skips go
# round the table and may come back to its player, who then moves again.
# Reading: the loser is the seat still in with the most points left in hand (all tied seats with
# three or more players; round_scoring.round_losers). It is dealt one card fewer from the next
# round on; a loser who was dealt a single card for the round is out.
FARAON = _preset(
    "faraon",
    _PIQUET,
    # faraon's Ober is wild on any card: prsi's exception for sevens and aces is not among its rules
    effects={
        **PRSI.effects,
        "7": CardEffect(draw=3),
        "Q": CardEffect(wild=True),
        "JS": CardEffect(cancels_debt=True),
    },
    debt_answers=("7",),
    mau_call=False,
    mau_mau_call="never",
    shrinking_hands=True,
    first_player="round_winner",
    quick=True,
    quick_skips_add=True,
)

# haft-khabis: 52 cards; J wild, 7 draws 2 (as classic: not answered, and its drawer may play), A
# skips, 8 covered by its player (not a last card), 10 reverses, 2: its player chooses another
# player who draws 1.
# Reading: "single card" is the Mau call; no call on going out.
HAFT_KHABIS = _preset(
    "haft-khabis",
    RANKS,
    effects={
        "2": CardEffect(choose_drawer=1),
        "7": CardEffect(draw=2, draw_skips=False),
        "8": _AGAIN_NOT_LAST,
        "10": CardEffect(reverse=True),
        "J": CardEffect(wild=True),
        "A": CardEffect(skip=True),
    },
    debt_answers=(),
    mau_mau_call="never",
    call_words=("single card", "single card"),
)

# puke: as classic, but 2 skips and 8 is ordinary (a 7's drawer may play, as in classic).
# Reading: a 2 needs the 52-card deck; "Puke" is the Mau call, said with the second-to-last card;
# going out on a jack, as classic's "Mau-Mau", is "Puke-Puke". The jack doubles, as in classic.
PUKE = _preset(
    "puke",
    RANKS,
    max_players=5,
    effects={
        "2": CardEffect(skip=True),
        "7": CardEffect(draw=2, draw_skips=False),
        "J": CardEffect(wild=True),
        "A": _AGAIN_NOT_LAST,
    },
    debt_answers=(),
    mau_mau_call="on_wild",
    out_multiplier={"J": 2},
    call_words=("Puke", "Puke-Puke"),
    call_penalty=1,
)

# russian: 36 cards, deal 5; A skips, 7 draws 1, 6 draws 1 and skips, Q wild.
# Reading: the 7's drawer plays on after drawing; the 6's drawer loses the turn; neither debt is
# answered. Options: 10 reverses; K♠ draws 4 and skips.
RUSSIAN = _preset(
    "russian",
    _SHORT,
    effects={
        "6": CardEffect(draw=1),
        "7": CardEffect(draw=1, draw_skips=False),
        "A": CardEffect(skip=True),
        "Q": CardEffect(wild=True),
    },
    debt_answers=(),
)

# neuner: 32 cards and a joker; nines are wild.
# Reading: the joker is wild too and counts 20 left in a hand; nothing else has an effect; calls
# as in `club`.
NEUNER = _preset(
    "neuner",
    _PIQUET,
    jokers=1,
    card_points={**{rank: _CLUB_POINTS[rank] for rank in _PIQUET}, JOKER: 20},
    effects={"9": CardEffect(wild=True), JOKER: CardEffect(wild=True)},
    debt_answers=(),
)

PRESETS: dict[str, Ruleset] = {
    ruleset.name: ruleset
    for ruleset in (
        CLUB,
        MAU_MAU_150,
        CLASSIC,
        ONE_O_ONE,
        PRSI,
        PESTEN,
        FARAON,
        HAFT_KHABIS,
        PUKE,
        RUSSIAN,
        NEUNER,
    )
}


def _king_of_spades(seven_draws: int) -> Switch:
    """K♠ draws 4, answered by 7♠; a pending 7♠ (drawing as the preset's other sevens) may be
    answered by K♠."""
    return Switch(
        effects={
            "KS": CardEffect(draw=4, answers=("7S",)),
            "7S": CardEffect(draw=seven_draws, answers=("7", "KS")),
        }
    )


# Each preset's own switches (on/off), by option name: what turning one on changes.
SWITCHES: dict[str, dict[str, Switch]] = {
    "classic": {
        "stack_sevens": Switch(debt_answers=("7",)),
        "stack_eights": Switch(effects={"8": CardEffect(skip=True, skip_waits=True)}),
        # going out is called too, on any last card (said "Mau-Mau", the going-out call)
        "going_out_call": Switch(mau_mau_call="always"),
    },
    "101": {
        "draw_one": Switch(draw_until_playable=False),
        "crocodile": Switch(effects={"KH": CardEffect(draw=5, answers=())}),
        "seven_of_spades_four": Switch(effects={"7S": CardEffect(draw=4)}),
        "ceiling_201": Switch(elimination_total=201),
        "ceiling_501": Switch(elimination_total=501),
        "minus_365_wins": Switch(winning_total=-365),
        # "by some rules" an ace simply skips: nobody answers it
        "ace_skips_at_once": Switch(effects={"A": CardEffect(skip=True)}),
    },
    "prsi": {
        "king_of_spades": _king_of_spades(PRSI.effects["7"].draw),
        "ten_of_hearts": Switch(effects={"10H": CardEffect(others_draw=1, again=True)}),
    },
    "faraon": {"king_of_spades": _king_of_spades(FARAON.effects["7"].draw)},
    "russian": {
        "ten_reverses": Switch(effects={"10": CardEffect(reverse=True)}),
        "king_of_spades": Switch(effects={"KS": CardEffect(draw=4, answers=())}),
    },
}


def ruleset(name: str, **options: Any) -> Ruleset:
    """A preset with a club's options applied, checked."""
    try:
        base = PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise RuleError("unknown_ruleset", f"no ruleset {name!r}; known: {known}") from None
    return with_options(base, **options)


def with_options(base: Ruleset, **options: Any) -> Ruleset:
    switches = SWITCHES.get(base.name, {})
    changes: dict[str, Any] = {}
    turned_on: list[str] = []
    for key, value in options.items():
        if key in switches:
            if type(value) is not bool:
                raise RuleError("invalid_option", f"option {key!r} is on or off (true or false)")
            if value:
                _check_compatible(switches, turned_on, key)
                turned_on.append(key)
                changes = _switched(base, changes, switches[key])
            continue
        kind = OPTIONS.get(key)
        if kind is None:
            raise _not_an_option(base.name, key)
        # bool is an int in Python; keep the two apart so `hand_size=True` is refused
        if type(value) is not kind:
            raise RuleError("invalid_option", f"option {key!r} takes a {kind.__name__}")
        changes[key] = value
    changed = msgspec.structs.replace(base, **changes)
    check(changed)
    return changed


# a switch's fields that set one value of the ruleset: two switches setting it differently contradict
_SWITCH_SETTINGS = (
    "debt_answers",
    "draw_until_playable",
    "elimination_total",
    "winning_total",
    "mau_mau_call",
)


def _check_compatible(switches: dict[str, Switch], turned_on: list[str], key: str) -> None:
    """Refuse ``key`` beside a switch already on that sets the same setting to another value."""
    switch = switches[key]
    for other in turned_on:
        for field in _SWITCH_SETTINGS:
            mine, theirs = getattr(switch, field), getattr(switches[other], field)
            if mine is not None and theirs is not None and mine != theirs:
                raise RuleError(
                    "invalid_option",
                    f"options {other!r} and {key!r} cannot both be on: "
                    f"they set {field} to {theirs} and to {mine}; turn on one",
                )


def _switched(base: Ruleset, changes: dict[str, Any], switch: Switch) -> dict[str, Any]:
    changes = {**changes, "effects": {**changes.get("effects", base.effects), **switch.effects}}
    if switch.debt_answers is not None:
        changes["debt_answers"] = switch.debt_answers
    if switch.draw_until_playable is not None:
        changes["draw_until_playable"] = switch.draw_until_playable
    if switch.elimination_total is not None:
        changes["elimination_total"] = switch.elimination_total
    if switch.winning_total is not None:
        changes["winning_total"] = switch.winning_total
    if switch.mau_mau_call is not None:
        changes["mau_mau_call"] = switch.mau_mau_call
    return changes


def _not_an_option(preset: str, key: str) -> RuleError:
    own = ", ".join([*OPTIONS, *SWITCHES.get(preset, {})])
    owners = sorted(name for name, switches in SWITCHES.items() if key in switches)
    if owners:
        return RuleError(
            "invalid_option",
            f"{key!r} is an option of {', '.join(owners)}, not of {preset}; options are: {own}",
        )
    return RuleError("unknown_option", f"no option {key!r}; options are: {own}")


def check_options(options: Mapping[str, Any]) -> None:
    """Refuse a club's option outside ``OPTION_BOUNDS`` (an unknown one or a wrong type: ``with_options``)."""
    for key, value in options.items():
        low, high = OPTION_BOUNDS.get(key, (None, None))
        if low is not None and high is not None and type(value) is int and not low <= value <= high:
            raise RuleError("invalid_option", f"option {key!r} is between {low} and {high}")


# Rulesets found sound, by their encoding: every match start checks its ruleset and a worker
# meets the same few all day. Bounded like rulebook()'s cache.
_SOUND: set[bytes] = set()
_SOUND_LIMIT = 512


def check(rules: Ruleset) -> None:
    """Refuse a ruleset that cannot be dealt or scored."""
    encoded = msgspec.json.encode(rules)
    if encoded in _SOUND:
        return
    _check(rules)
    if len(_SOUND) >= _SOUND_LIMIT:
        _SOUND.clear()
    _SOUND.add(encoded)


def _check(rules: Ruleset) -> None:
    if not 0 <= rules.jokers <= JOKERS_PER_DECK:
        raise RuleError("invalid_ruleset", f"a deck holds 0 to {JOKERS_PER_DECK} jokers")
    if not 1 <= rules.decks <= MAX_DECKS:
        raise RuleError("invalid_option", f"decks must be between 1 and {MAX_DECKS}")
    deck_size = cards_in_deck(rules)
    if rules.target_score < 1:
        raise RuleError("invalid_option", "target_score must be at least 1")
    if rules.call_penalty < 0 or rules.call_penalty > 10:
        raise RuleError("invalid_option", "call_penalty must be between 0 and 10")
    # the smallest table must be dealt; a larger one is checked when its seats are known (check_table)
    if rules.hand_size < 1 or rules.hand_size * rules.min_players + 2 > deck_size:
        most = (deck_size - 2) // rules.min_players
        raise RuleError(
            "invalid_option",
            f"hand_size must be between 1 and {most} for {rules.min_players} players "
            f"and a {deck_size}-card deck",
        )
    # a hand of more than three cards of every rank (and every joker) holds four of one rank: where
    # that annuls the deal, no deal would ever stand and the round would never begin
    most_without_four = 3 * len(rules.ranks) + rules.jokers * rules.decks
    if rules.redeal_four_of_a_kind and rules.hand_size > most_without_four:
        raise RuleError(
            "invalid_option",
            f"hand_size must be at most {most_without_four}: a bigger hand always holds four cards "
            "of one rank, and such a deal is dealt again for ever",
        )
    if set(rules.ranks) - set(RANKS):
        raise RuleError("invalid_ruleset", f"unknown ranks {sorted(set(rules.ranks) - set(RANKS))}")
    keys = {*rules.effects, *rules.debt_answers}
    for effect in rules.effects.values():
        keys.update(effect.answers or ())
        keys.update(effect.not_on)
    unknown = {key for key in keys if not _is_key(key)}
    if unknown:
        raise RuleError("invalid_ruleset", f"unknown ranks or cards {sorted(unknown)}")
    if set(rules.card_points) != {*rules.ranks, *([JOKER] if rules.jokers else [])}:
        raise RuleError("invalid_ruleset", "card_points must give every rank of the deck (and the joker)")
    if not 2 <= rules.min_players <= rules.max_players:
        raise RuleError("invalid_ruleset", "players allowed must be a range starting at 2")
    _check_round_rules(rules)


def cards_in_deck(rules: Ruleset) -> int:
    return (4 * len(rules.ranks) + rules.jokers) * rules.decks


def most_players(rules: Ruleset) -> int:
    """The most seats the ruleset allows with its decks (the deal may allow fewer: ``check_table``)."""
    if rules.decks > 1 and rules.max_players_two_decks is not None:
        return rules.max_players_two_decks
    return rules.max_players


def check_table(rules: Ruleset, seats: int) -> None:
    """Refuse a table the ruleset does not seat, or whose hands, starter and a card to draw the
    deck cannot give."""
    most = most_players(rules)
    if not rules.min_players <= seats <= most:
        raise RuleError("player_count", f"{rules.name} is for {rules.min_players} to {most} players")
    deck_size = cards_in_deck(rules)
    if rules.hand_size * seats + 2 > deck_size:
        raise RuleError(
            "invalid_option",
            f"a {deck_size}-card deck deals hands of {rules.hand_size} (and a starter and a card to draw) "
            f"to at most {(deck_size - 2) // rules.hand_size} players; this table has {seats}: "
            "choose a smaller hand_size",
        )


def _check_round_rules(rules: Ruleset) -> None:
    names = set(rules.ranks) | {rank + suit for rank in rules.ranks for suit in SUITS}
    for field in ("out_multiplier", "out_points", "only_points"):
        unknown = set(getattr(rules, field)) - names
        if unknown:
            raise RuleError("invalid_ruleset", f"{field} names cards not in the deck: {sorted(unknown)}")
    if any(times < 1 for times in rules.out_multiplier.values()):
        raise RuleError("invalid_ruleset", "out_multiplier is 1 or more")
    if rules.elimination_total is not None and rules.elimination_total < 1:
        raise RuleError("invalid_option", "elimination_total must be at least 1")
    if not all(rules.call_words):
        raise RuleError("invalid_ruleset", "each call is said as a word")


def _is_key(key: str) -> bool:
    """A rank, a card in text form ("KS", "10H") or the jokers."""
    return key in RANKS or key == JOKER or (key[-1:] in SUITS and key[:-1] in RANKS)
