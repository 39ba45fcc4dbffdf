"""Rulesets are data: one engine reads any of them.

A ruleset names its deck, the players it allows, the deal, what each rank (or
one card) does when played, the calls and their penalty, the scoring and the
match end. ``club`` is the reference; the other presets are the family's
variants, each described as played on its page in docs/rules/. Where a variant's source
leaves a detail open, the preset's comment says how it is read (``Reading:``).

The types and the options a club may set are here; the presets are ``presets`` (a data table),
a preset with options applied is ``ruleset_options.ruleset``, and a ruleset's soundness and the
tables it seats are checked by ``ruleset_checks``.
"""

from typing import Literal

import msgspec

from service.domain.cards import MAX_DECKS


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
