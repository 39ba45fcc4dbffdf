'use strict';
// A minimal play-or-draw card game on boardgame.io, of about the weight of one of our Mau-Mau
// moves: a 32-card deck, five cards each, a hidden hand per player (playerView). On its turn a
// player plays a card of the top card's suit or rank (a jack on anything, naming the suit to
// follow; a seven makes the next player draw two; an eight skips the next player), or draws one.
// A round ends when a hand is empty: the others score the cards left, and the next round is dealt
// in the same match. The match ends at a score no run reaches, as our bench's games do (their
// target score is 1000), so the closed loop never waits for a new match.

const { INVALID_MOVE } = require('boardgame.io/core');

const SEVEN = 0;
const EIGHT = 1;
const JACK = 4;
const HAND = 5;
const TARGET = 1000;

const suitOf = (card) => card >> 3;
const rankOf = (card) => card & 7;

function deal(G, random, players) {
  const deck = random.Shuffle([...Array(32).keys()]);
  G.hands = Array.from({ length: players }, () => deck.splice(0, HAND));
  G.pile = [deck.pop()];
  G.deck = deck;
  G.suit = suitOf(G.pile[0]);
  G.owed = 0;
}

function playable(G, card) {
  const top = G.pile[G.pile.length - 1];
  return rankOf(card) === JACK || suitOf(card) === G.suit || rankOf(card) === rankOf(top);
}

// the pile but its top card shuffled back when the deck runs out
function drawOne(G, random, hand) {
  if (G.deck.length === 0 && G.pile.length > 1) {
    G.deck = random.Shuffle(G.pile.splice(0, G.pile.length - 1));
  }
  if (G.deck.length > 0) hand.push(G.deck.pop());
}

function seatAfter(ctx, seat, steps) {
  return String((Number(seat) + steps) % ctx.numPlayers);
}

function play({ G, ctx, playerID, random, events }, card, suit) {
  const hand = G.hands[Number(playerID)];
  const at = hand.indexOf(card);
  if (at < 0 || !playable(G, card) || G.owed > 0) return INVALID_MOVE;
  hand.splice(at, 1);
  G.pile.push(card);
  G.suit = rankOf(card) === JACK && suit >= 0 && suit < 4 ? suit : suitOf(card);
  if (hand.length === 0) {
    // the round is over: the others score their cards, and the next round is dealt
    G.hands.forEach((left, seat) => {
      G.scores[seat] += left.length;
    });
    G.round += 1;
    deal(G, random, ctx.numPlayers);
    events.endTurn({ next: seatAfter(ctx, playerID, 1) });
    return undefined;
  }
  if (rankOf(card) === SEVEN) G.owed = 2;
  events.endTurn({ next: seatAfter(ctx, playerID, rankOf(card) === EIGHT ? 2 : 1) });
  return undefined;
}

function draw({ G, ctx, playerID, random, events }) {
  const hand = G.hands[Number(playerID)];
  for (let count = Math.max(1, G.owed); count > 0; count -= 1) drawOne(G, random, hand);
  G.owed = 0;
  events.endTurn({ next: seatAfter(ctx, playerID, 1) });
}

const PeerMau = {
  name: 'peer-mau',
  minPlayers: 2,
  maxPlayers: 4,
  setup: ({ ctx, random }) => {
    const G = { hands: [], deck: [], pile: [], suit: 0, owed: 0, round: 1, scores: Array(ctx.numPlayers).fill(0) };
    deal(G, random, ctx.numPlayers);
    return G;
  },
  // a player sees its own hand, the others' hands and the deck only as counts
  playerView: ({ G, playerID }) => ({
    ...G,
    hands: G.hands.map((hand, seat) => (String(seat) === playerID ? hand : hand.length)),
    deck: G.deck.length,
  }),
  // the server alone moves: a draw takes a hidden card (no optimistic update on the client)
  moves: {
    play: { move: play, client: false },
    draw: { move: draw, client: false },
  },
  endIf: ({ G }) => {
    const best = Math.max(...G.scores);
    return best >= TARGET ? { loser: G.scores.indexOf(best) } : undefined;
  },
};

// what a client's view lets it play: a playable card (and the suit a jack names), or a draw
function choose(G, playerID, rng) {
  const hand = G.hands[Number(playerID)];
  const cards = G.owed > 0 ? [] : hand.filter((card) => playable(G, card));
  if (cards.length === 0) return ['draw', []];
  const card = cards[Math.floor(rng() * cards.length)];
  return ['play', [card, rankOf(card) === JACK ? suitOf(hand[Math.floor(rng() * hand.length)]) : -1]];
}

module.exports = { PeerMau, choose };
