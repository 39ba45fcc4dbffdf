'use strict';
// The peer's load, the shape of our bench's (bench/http.py's saturated moves): --matches matches of
// 4 players made through the lobby API, one boardgame.io client per player over socket.io, each
// moving as soon as its state update says it is its turn (a closed loop per match).
//
// It plays until told `go` on stdin (the warm-up: connections open, matches cached), then counts the
// moves made in --seconds; then no new move is started, the ones in flight are let finish, and one
// JSON line is printed: the moves, the seconds, and per move the time from sending it to the next
// mover's update arriving (ms, p50 and p99).
//
//   node driver.js --server http://127.0.0.1:8000 [--matches 32] [--seconds 10]

const readline = require('node:readline');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { PeerMau, choose } = require('./game');

const SEATS = 4;
const STALL_MS = 30000; // a match with no update for this long has lost a move: the run stops

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

// a small seeded generator (mulberry32): the same choices each run
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function lobby(server, path, body) {
  const answer = await fetch(`${server}/games/${PeerMau.name}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
  return answer.json();
}

const run = { counting: false, stopping: false, moves: 0, latencies: [], started: 0 };

// one match: its four clients, the move in flight (when it was sent) and the state it left
class Match {
  constructor(server, matchID, credentials, seed) {
    this.rng = seeded(seed);
    this.sent = null; // when the move in flight was sent (ms, monotonic), or null
    this.counted = false; // whether that move is one of the measured window's
    this.moved = -1; // the state id a move was last sent from
    this.heard = performance.now();
    this.synced = false;
    this.clients = credentials.map((secret, seat) =>
      Client({
        game: PeerMau,
        numPlayers: SEATS,
        multiplayer: SocketIO({ server }),
        matchID,
        playerID: String(seat),
        credentials: secret,
        debug: false,
      }),
    );
  }

  start() {
    for (const client of this.clients) {
      client.subscribe((state) => this.seen(client, state));
      client.start();
    }
  }

  stop() {
    for (const client of this.clients) client.stop();
  }

  seen(client, state) {
    if (!this.synced) {
      // no move before every seat has its first state: the server adds a client to its match's
      // room only after that client's sync, so a move made sooner can miss a seat for good
      if (this.clients.some((each) => each.getState() === null)) return;
      this.synced = true;
      for (const each of this.clients) this.seen(each, each.getState());
      return;
    }
    if (state === null || state.ctx.currentPlayer !== client.playerID || state._stateID <= this.moved) return;
    const now = performance.now();
    this.heard = now;
    if (this.sent !== null) {
      if (this.counted) {
        run.latencies.push(now - this.sent);
        run.moves += 1;
      }
      this.sent = null;
      if (run.stopping) finished();
    }
    if (run.stopping) return;
    this.moved = state._stateID;
    const [move, args] = choose(state.G, client.playerID, this.rng);
    this.sent = performance.now();
    this.counted = run.counting;
    // off the store's notification: the move dispatches into the same store
    queueMicrotask(() => client.moves[move](...args));
  }
}

let matches = [];
let done = null;

function finished() {
  if (done !== null && matches.every((match) => match.sent === null)) done();
}

function percentile(values, p) {
  const ordered = [...values].sort((a, b) => a - b);
  return ordered.length ? ordered[Math.min(ordered.length - 1, Math.floor(p * ordered.length))] : 0;
}

async function main() {
  const server = option('server', 'http://127.0.0.1:8000');
  const count = Number(option('matches', '32'));
  const seconds = Number(option('seconds', '10'));
  for (let number = 0; number < count; number += 1) {
    const { matchID } = await lobby(server, '/create', { numPlayers: SEATS });
    const credentials = [];
    for (let seat = 0; seat < SEATS; seat += 1) {
      const joined = await lobby(server, `/${matchID}/join`, { playerID: String(seat), playerName: `Bench ${number}.${seat}` });
      credentials.push(joined.playerCredentials);
    }
    matches.push(new Match(server, matchID, credentials, number + 1));
  }
  for (const match of matches) match.start();
  const stalled = setInterval(() => {
    const now = performance.now();
    const stuck = matches.findIndex((match) => now - match.heard > STALL_MS);
    if (stuck >= 0) {
      const match = matches[stuck];
      const seen = match.clients.map((client) => {
        const state = client.getState();
        return state && `${client.playerID}: state ${state._stateID}, ${state.ctx.currentPlayer} to move`;
      });
      console.error(`match ${stuck} had no update for ${STALL_MS} ms; moved from ${match.moved}; ${seen.join('; ')}`);
      process.exit(1);
    }
  }, 1000);
  console.log(JSON.stringify({ ready: true }));
  await new Promise((resolve) => {
    readline.createInterface({ input: process.stdin }).once('line', resolve);
  });
  run.counting = true;
  run.started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  run.counting = false;
  run.stopping = true;
  await new Promise((resolve) => {
    done = resolve;
    finished();
  });
  const elapsed = (performance.now() - run.started) / 1000;
  clearInterval(stalled);
  console.log(
    JSON.stringify({
      moves: run.moves,
      seconds: elapsed,
      update_p50_ms: percentile(run.latencies, 0.5),
      update_p99_ms: percentile(run.latencies, 0.99),
    }),
  );
  for (const match of matches) match.stop();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
