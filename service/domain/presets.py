"""The presets: ``club``, the reference, and the family's variants, each described as played on its
page in docs/rules/; where a variant's source leaves a detail open, the preset's comment says how it
is read (``Reading:``). Each preset's own switches (on/off options) are in ``SWITCHES``. A data table.
"""

from typing import Any

import msgspec

from service.domain.cards import JOKER, RANKS
from service.domain.rulesets import CardEffect, Ruleset, Switch

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

# mau-mau-150: as `club` with 32 cards (7 to ace) and 2-4 players, but nines reverse, anyone may draw
# whenever they like, going out on a jack is called "Mau Mau", the round's winner collects the
# others' hands and the first to 150 wins.
# Reading: the variant is silent on the starter; it acts as in `club` (a starting 9 sends play to
# the dealer's right).
MAU_MAU_150 = msgspec.structs.replace(
    CLUB,
    name="mau-mau-150",
    ranks=("7", "8", "9", "10", "J", "Q", "K", "A"),
    max_players=4,
    effects={
        "7": CardEffect(draw=2),
        "8": CardEffect(skip=True),
        "9": CardEffect(reverse=True),
        "J": CardEffect(wild=True),
    },
    voluntary_draw=True,
    mau_mau_call="on_wild",
    scoring="winner_takes",
    card_points={"7": 7, "8": 8, "9": 9, "10": 10, "J": 20, "Q": 10, "K": 10, "A": 10},
    target_score=150,
    match_winner="highest_total",
)

_PIQUET = ("7", "8", "9", "10", "J", "Q", "K", "A")  # the 32-card deck
_SHORT = ("6", *_PIQUET)  # the 36-card deck
_CLUB_POINTS = CLUB.card_points

# 101 counts J 2, Q 3, K 4, A 11, 9 nothing and the others their face value
_POINTS_101 = {"6": 6, "7": 7, "8": 8, "9": 0, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 11}


def _preset(name: str, ranks: tuple[str, ...], base: Ruleset = CLUB, **fields: Any) -> Ruleset:
    """A preset: the fields of `base` (`club`'s unless another variant's), this deck and these
    changes; a round whose cards only go round stops (``stalled_round_ends``)."""
    dealt = msgspec.structs.replace(
        base,
        name=name,
        ranks=ranks,
        card_points={rank: _CLUB_POINTS[rank] for rank in ranks},
        stalled_round_ends=True,
    )
    return msgspec.structs.replace(dealt, **fields)


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
    base=PRSI,
    hand_size=5,
    # faraon's Ober is wild on any card: prsi's exception for sevens and aces is not among its rules
    effects={
        **PRSI.effects,
        "7": CardEffect(draw=3),
        "Q": CardEffect(wild=True),
        "JS": CardEffect(cancels_debt=True),
    },
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
    base=CLASSIC,
    max_players_two_decks=None,  # classic seats more with two decks of its 32 cards; puke does not
    effects={"2": CardEffect(skip=True), **{rank: e for rank, e in CLASSIC.effects.items() if rank != "8"}},
    call_words=("Puke", "Puke-Puke"),
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
