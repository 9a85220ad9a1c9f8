// Diagnosis driver for the play+score hot path: seeds a Postgres database that it KEEPS (so its
// statements can be EXPLAINed afterwards), runs the bench's play+score loop against the compiled
// API for a while, and prints pairs/s. With pg_stat_statements loaded on that server, reset it
// before and read it after. Usage:
//   node packages/server/bench/hot-path.mjs postgres://…/coinop_prof [seconds] [connections] [store]
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measurePlayScore } from './load.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [url, seconds = '10', connections = '10', store = 'postgres'] = process.argv.slice(2);
// BENCH_SERVER_NODE_ARGS as for run.mjs (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
const child = fork(join(here, 'server.mjs'), [], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  execArgv: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
});
let seq = 0;
const waiting = new Map();
child.on('message', (m) => {
  const w = waiting.get(m.id);
  waiting.delete(m.id);
  if (m.ok) w.resolve(m.reply);
  else w.reject(new Error(m.error));
});
const call = (type, extra = {}) =>
  new Promise((resolve, reject) => {
    const id = ++seq;
    waiting.set(id, { resolve, reject });
    child.send({ id, type, ...extra });
  });
try {
  const info = await call('start-api', {
    options: { store, postgresUrl: url, games: 4, players: 2000, fundHst: 1_000_000 },
  });
  const games = [];
  for (const g of info.games) {
    const res = await fetch(`${info.url}/oauth/writetoken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: g.clientId, client_secret: g.clientSecret }),
    });
    const token = (await res.json()).access_token;
    games.push({ gameId: g.gameId, leaderboardId: g.leaderboardIds[0], token });
  }
  const r = await measurePlayScore({
    url: info.url,
    arcadeId: info.arcadeId,
    games: games.slice(0, 1),
    playerIds: info.playerIds,
    connections: Number(connections),
    duration: Number(seconds),
  });
  const audit = await call('audit');
  console.log(
    JSON.stringify({
      pairsPerSecond: Math.round(r.pairsPerSecond),
      non2xx: r.non2xx,
      errors: r.errors,
      balanced: audit.balanced,
      scored: audit.playsScored,
    }),
  );
} finally {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await call('close').catch(() => undefined);
  await exited;
}
