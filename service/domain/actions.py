"""Actions: a seat's choices as small ints, the way ``legal_actions`` lists them.

A play of an ordinary card is the card itself (0..107, see ``cards.CARD_COUNT``);
a wild card's play also names the suit; drawing, keeping the drawn card,
challenging, naming the starter's suit and choosing the player who draws have
codes of their own. Calls are said with a play, not chosen as actions.
"""

WILD_PLAY = 128  # + card * 4 + suit; above every card id, so a plain play never reads as a wild one
DRAW = 1000
KEEP = 1001
CHALLENGE = 1002
NAME_SUIT = 1010  # + suit
CHOOSE = 1020  # + the seat chosen


def play_action(card: int, suit: int = -1) -> int:
    return card if suit < 0 else WILD_PLAY + card * 4 + suit
