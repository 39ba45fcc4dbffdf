'use strict';
// The peer's server: boardgame.io's own (Koa, its lobby API and socket.io on one port), the game in
// bench/peers/boardgameio/game.js, its matches in memory, or in PostgreSQL through bgio-postgres when
// a database URL is given. Prints one line, `listening <port>`, once it takes connections.
//
//   node server.js --port 8000 [--db postgresql://postgres@127.0.0.1:5432/bgio_bench]

const { Server } = require('boardgame.io/server');
const { PeerMau } = require('./game');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

async function main() {
  const port = Number(option('port', '8000'));
  const url = option('db', '');
  let db;
  if (url) {
    const { PostgresStore } = require('bgio-postgres');
    db = new PostgresStore(url, { logging: false });
  }
  const server = Server({ games: [PeerMau], db, origins: ['http://127.0.0.1'] });
  await server.run({ port, callback: () => console.log(`listening ${port}`) });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
