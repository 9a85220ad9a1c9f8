// coinop as a user starts it: the real `coinop serve --demo` binary with its default flags (plus
// any given after `--`), the embedded database in a fresh directory, or with BENCH_STORE=postgres
// a fresh database on a durable throwaway Postgres cluster (on DATABASE_URL's server if set).
// Measures the developergames read and the play+score loop over 200 funded players on the demo
// game's first tier. A first step toward benchmarking what ships (issue 14). The loop needs the
// players' consent: the bench passes `--default-allowance unlimited` (an operator who vets games).
//
//   node packages/server/bench/serve-bench.mjs [repo root] [-- serve flags…]
//
// The repo root defaults to this checkout; naming another one measures its build (A/B).
// Prints one JSON line per connection count. BENCH_DURATION seconds per measurement (10).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { measureGet, measurePlayScore } from './load.mjs';
import { createDatabase, startPostgres } from './postgres.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const split = args.indexOf('--');
const root = resolve(split === 0 || args.length === 0 ? join(here, '../../..') : args[0]);
const serveFlags = split === -1 ? [] : args.slice(split + 1);
const duration = Number(process.env['BENCH_DURATION'] ?? 10);

const store = process.env['BENCH_STORE'] ?? 'pglite';
const postgres = store === 'postgres' ? await startPostgres() : null;
if (postgres?.skipped) throw new Error(postgres.skipped);
const database = postgres ? await createDatabase(postgres.adminUrl, 'coinop_serve') : null;
const childEnv = { ...process.env };
delete childEnv['DATABASE_URL'];

const dataDir = await mkdtemp(join(tmpdir(), 'coinop-serve-bench-'));
const child = spawn(
  process.execPath,
  [
    join(root, 'packages/server/dist/cli/main.js'),
    'serve',
    '--demo',
    '--data-dir',
    dataDir,
    '--api-port',
    '0',
    '--auth-port',
    '0',
    '--web-port',
    '0',
    '--default-allowance',
    'unlimited',
    ...(database ? ['--database-url', database.url] : []),
    ...serveFlags,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'], env: childEnv },
);
const seen = { lines: 0 };
const ready = new Promise((resolveReady, reject) => {
  const found = {};
  createInterface({ input: child.stdout }).on('line', (line) => {
    seen.lines += 1;
    const { msg } = JSON.parse(line);
    found.arcade ??= /^demo: arcade (\S+)$/.exec(msg)?.[1];
    const game = /^demo: game "[^"]+" (\S+) at .*leaderboards: [^(]+\((\S+)\)/.exec(msg);
    if (game && !found.game) [found.game, found.leaderboard] = [game[1], game[2]];
    found.clientId ??= /^demo: client id (\S+)$/.exec(msg)?.[1];
    found.clientSecret ??= /^demo: client secret (\S+) /.exec(msg)?.[1];
    const url = /^coinop api listening on (\S+)$/.exec(msg)?.[1];
    if (url) resolveReady({ ...found, url });
  });
  child.on('exit', (code) => reject(new Error(`coinop serve exited ${code} before listening`)));
});
try {
  const { url, arcade, game, leaderboard, clientId, clientSecret } = await ready;
  const token = await fetch(`${url}/oauth/writetoken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }),
  }).then((r) => r.json());
  const path = `/arcades/${arcade}/developergames/${game}`;
  const headers = { authorization: `Bearer ${token.access_token}` };
  for (const connections of [10, 50]) {
    await measureGet({ url, path, headers, connections, duration: 2 });
    const linesBefore = seen.lines;
    const r = await measureGet({ url, path, headers, connections, duration });
    console.log(
      JSON.stringify({
        root,
        store,
        serveFlags,
        scenario: 'developergames',
        connections,
        rps: Math.round(r.rps),
        p50: r.latency.p50,
        p99: r.latency.p99,
        non2xx: r.non2xx,
        logLinesPerRequest: (seen.lines - linesBefore) / Math.max(1, r.requests),
      }),
    );
  }

  const adminToken = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
  const admin = (path, body) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify(body),
    }).then(async (res) => {
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    });
  const playerIds = await Promise.all(
    Array.from({ length: 200 }, async () => {
      const { playerId } = await admin('/admin/players', {
        wallet: `0x${randomBytes(20).toString('hex')}`,
      });
      await admin('/admin/hst/mints', { accountId: playerId, amount: 1_000_000 });
      return playerId;
    }),
  );
  const games = [{ gameId: game, token: token.access_token, leaderboardId: leaderboard }];
  for (const connections of [10, 50]) {
    const loop = { url, arcadeId: arcade, games, playerIds, connections };
    await measurePlayScore({ ...loop, duration: 2 });
    const r = await measurePlayScore({ ...loop, duration });
    console.log(
      JSON.stringify({
        root,
        store,
        serveFlags,
        scenario: 'play+score',
        connections,
        pairsPerSecond: Math.round(r.pairsPerSecond),
        p50: r.latency.p50,
        p99: r.latency.p99,
        nonOk: r.non2xx,
      }),
    );
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.on('close', r));
  await rm(dataDir, { recursive: true, force: true });
  await database?.drop();
  await postgres?.stop();
}
